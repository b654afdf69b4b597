"""Published fio recipes (METHODOLOGY.md section 2) and two quick starters, as presets."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_serializer

from storbench_fio.budget import footprint_bytes
from storbench_fio.job import FioJob, validate_job_dict

__all__ = ["PRESETS", "ExpectedFigure", "Preset", "get_preset"]

Measure = Literal["latency", "iops", "throughput"]

NAS_LINUX = "General-purpose NAS service performance guide (Linux)"
NAS_WINDOWS = "General-purpose NAS service performance guide (Windows)"
CLOUD_FS = "Cloud file system service performance guide"
CLOUD_DISK = "Cloud block storage (disk) performance guide"
MANAGED_NFS = "Managed NFS volume service performance guide"
DEVICE_SURVEY = "Practitioner's guide to disk testing (device survey)"
STARTER = "storbench quick start"


class ExpectedFigure(BaseModel):
    """A figure the publisher says one client host should see."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: str
    note: str | None = None


class Preset(BaseModel):
    """A ready-made benchmark: fio jobs as published plus what they should show."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    source: str
    measures: Measure
    description: str
    # The publisher's common options, for display; already applied to every job below.
    global_options: dict[str, str]
    jobs: list[FioJob]  # complete, runnable jobs
    platform: Literal["linux", "windows"] = "linux"
    target_kind: Literal["directory", "block_device"] = "directory"
    expected: list[ExpectedFigure] = []
    scratch_size: int | None = None  # bytes of files the jobs lay out, None on a device

    @field_serializer("jobs")
    def _only_options_set(self, jobs: list[FioJob]) -> list[dict[str, Any]]:
        # As a job file would say it: the options the recipe sets, not every option left unset.
        return [job.model_dump(mode="json", exclude_none=True) for job in jobs]

    def resolved_jobs(self) -> list[FioJob]:
        """The complete jobs (global options are merged in when the preset is built)."""
        return list(self.jobs)


def _preset(
    id: str,
    name: str,
    source: str,
    measures: Measure,
    description: str,
    global_options: dict[str, str],
    jobs: list[dict[str, object]],
    **extra: object,
) -> Preset:
    """Build a preset: global options merged into each job (job options win), scratch hint."""
    models = [validate_job_dict({**global_options, **job}) for job in jobs]
    preset = Preset.model_validate(
        {
            "id": id,
            "name": name,
            "source": source,
            "measures": measures,
            "description": description,
            "global_options": global_options,
            "jobs": models,
            **extra,
        }
    )
    if preset.target_kind == "block_device":
        return preset
    sizes = [_job_footprint(job) for job in preset.resolved_jobs()]
    total = sum(s for s in sizes if s is not None)
    return preset.model_copy(update={"scratch_size": total or None})


def _job_footprint(job: FioJob) -> int | None:
    options = {k: str(v) for k, v in job.fio_options().items() if not isinstance(v, bool)}
    return footprint_bytes(options)


_NAS_COMMON = {
    "numjobs": "1",
    "iodepth": "128",
    "direct": "1",
    "ioengine": "libaio",
    "sync": "1",
    "size": "1G",
    "time_based": "1",
    "runtime": "60",
}
# The Windows NFS client serialises requests per file system, so more jobs are needed.
_NAS_WINDOWS_COMMON = {
    **_NAS_COMMON,
    "numjobs": "2",
    "ioengine": "windowsaio",
    "thread": "1",
    "group_reporting": "1",
}
_NAS_TESTS: list[tuple[str, str, str, str, Measure, list[ExpectedFigure]]] = [
    ("randread-iops", "random read IOPS", "randread", "4K", "iops",
     [ExpectedFigure(value=14000, unit="IOPS")]),
    ("randwrite-iops", "random write IOPS", "randwrite", "4K", "iops",
     [ExpectedFigure(value=10000, unit="IOPS")]),
    ("randread-throughput", "random read throughput", "randread", "1M", "throughput",
     [ExpectedFigure(value=150, unit="MB/s", note="capacity type"),
      ExpectedFigure(value=300, unit="MB/s", note="performance type")]),
    ("randwrite-throughput", "random write throughput", "randwrite", "1M", "throughput",
     [ExpectedFigure(value=150, unit="MB/s", note="capacity type"),
      ExpectedFigure(value=300, unit="MB/s", note="performance type")]),
]  # fmt: skip


def _nas_presets() -> list[Preset]:
    presets = []
    for slug, title, rw, bs, measures, expected in _NAS_TESTS:
        presets.append(
            _preset(
                f"nas-linux-{slug}",
                f"NAS {title} (Linux)",
                NAS_LINUX,
                measures,
                f"{rw} {bs} blocks at iodepth 128 on the NAS mount; one host.",
                _NAS_COMMON,
                [{"name": f"nas-{slug}", "rw": rw, "bs": bs}],
                expected=expected,
            )
        )
        presets.append(
            _preset(
                f"nas-windows-{slug}",
                f"NAS {title} (Windows)",
                NAS_WINDOWS,
                measures,
                f"{rw} {bs} blocks, two threads: the Windows NFS client serialises "
                "requests per file system. Official figures need several hosts.",
                _NAS_WINDOWS_COMMON,
                [{"name": f"nas-{slug}", "rw": rw, "bs": bs}],
                platform="windows",
            )
        )
    return presets


_CLOUD_FS_COMMON = {
    "time_based": "1",
    "thread": "1",
    "direct": "1",
    "ioengine": "libaio",
    "runtime": "60",
    "group_reporting": "1",
}
_NETWORK_CAP = ExpectedFigure(
    value=0.25, unit="GiB/s", note="ceiling of a 2 Gbps client; more clients for more"
)
_CLOUD_FS_TESTS: list[tuple[str, str, str, str, str, int, Measure, list[ExpectedFigure]]] = [
    ("read-latency", "read latency", "randread", "4K", "1M", 1, "latency", []),
    ("write-latency", "write latency", "randwrite", "4K", "1M", 1, "latency",
     [ExpectedFigure(value=7, unit="ms", note="standard tier 4 KiB write latency")]),
    ("read-iops", "read IOPS", "randread", "4K", "100M", 128, "iops", []),
    ("write-iops", "write IOPS", "randwrite", "4K", "100M", 128, "iops", []),
    ("read-throughput", "read throughput", "randread", "1M", "100M", 128, "throughput",
     [_NETWORK_CAP]),
    ("write-throughput", "write throughput", "randwrite", "1M", "100M", 128, "throughput",
     [_NETWORK_CAP]),
]  # fmt: skip


def _cloud_fs_presets() -> list[Preset]:
    return [
        _preset(
            f"cloudfs-{slug}",
            f"Cloud file system {title}",
            CLOUD_FS,
            measures,
            f"{rw} {bs} on {size} files, {numjobs} thread(s) at iodepth 1. Run from the "
            "file system's zone in an empty directory, never a production file system.",
            _CLOUD_FS_COMMON,
            [
                {
                    "name": f"cloudfs-{slug}",
                    "rw": rw,
                    "bs": bs,
                    "size": size,
                    "numjobs": str(numjobs),
                    "iodepth": "1",
                }
            ],
            expected=expected,
        )
        for slug, title, rw, bs, size, numjobs, measures, expected in _CLOUD_FS_TESTS
    ]


_CLOUD_DISK_COMMON = {
    "filename": "iotest",
    "group_reporting": "1",
    "runtime": "1000",
    "numjobs": "1",
    "size": "1G",
    "direct": "1",
    "ioengine": "libaio",
}
_CLOUD_DISK_TESTS: list[tuple[str, str, str, str, str, Measure]] = [
    ("randwrite-iops", "random write IOPS", "randwrite", "4k", "128", "iops"),
    ("randread-iops", "random read IOPS", "randread", "4k", "128", "iops"),
    ("seqwrite-throughput", "sequential write throughput", "write", "1024k", "64", "throughput"),
    ("seqread-throughput", "sequential read throughput", "read", "1024k", "64", "throughput"),
]


def _cloud_disk_presets() -> list[Preset]:
    return [
        _preset(
            f"clouddisk-{slug}",
            f"Cloud disk {title}",
            CLOUD_DISK,
            measures,
            f"{rw} {bs} at iodepth {iodepth} on a 1 GiB test file. The raw device gives "
            "the true figure but destroys its file system; partitions should be 4 KiB aligned.",
            _CLOUD_DISK_COMMON,
            [{"name": f"clouddisk-{slug}", "rw": rw, "bs": bs, "iodepth": iodepth}],
        )
        for slug, title, rw, bs, iodepth, measures in _CLOUD_DISK_TESTS
    ]


_NFS_COMMON = {
    "size": "10g",
    "fallocate": "none",
    "direct": "1",
    "runtime": "60",
    "time_based": "1",
    "ramp_time": "5",
    "ioengine": "libaio",
}


def _nfs_presets() -> list[Preset]:
    def job(name: str, rw: str, bs: str, iodepth: int, numjobs: int) -> dict[str, object]:
        return {"name": name, "rw": rw, "bs": bs, "iodepth": iodepth, "numjobs": numjobs}

    return [
        _preset("nfs-latency", "Managed NFS latency", MANAGED_NFS, "latency",
                "randwrite 4k, one job at iodepth 1.", _NFS_COMMON,
                [job("nfs-latency", "randwrite", "4k", 1, 1)]),
        _preset("nfs-iops", "Managed NFS IOPS", MANAGED_NFS, "iops",
                "randread 4k at iodepth 32, one job.", _NFS_COMMON,
                [job("nfs-iops", "randread", "4k", 32, 1)]),
        _preset("nfs-windows-iops", "Managed NFS IOPS (Windows)", MANAGED_NFS, "iops",
                "randread 4k at iodepth 32 with 16 threads (Windows clients serialise "
                "per file system); windowsaio stands in for libaio, which Windows lacks.",
                {**_NFS_COMMON, "ioengine": "windowsaio", "thread": "1"},
                [job("nfs-iops", "randread", "4k", 32, 16)], platform="windows"),
        _preset("nfs-throughput", "Managed NFS throughput", MANAGED_NFS, "throughput",
                "read 64k at iodepth 32 with 16 jobs: high throughput needs >= 64 KiB "
                "blocks and high concurrency.", _NFS_COMMON,
                [job("nfs-throughput", "read", "64k", 32, 16)]),
    ]  # fmt: skip


_DEVICE_COMMON = {"ioengine": "libaio", "direct": "1", "runtime": "60"}
_DEVICE_TESTS: list[tuple[str, str, str, Measure, list[ExpectedFigure]]] = [
    ("read-4k", "sequential read 4k", "read", "throughput",
     [ExpectedFigure(value=124, unit="MB/s", note="SATA HDD (31k IOPS)"),
      ExpectedFigure(value=190, unit="MB/s", note="SAS HDD")]),
    ("randread-4k", "random read 4k", "randread", "iops",
     [ExpectedFigure(value=114, unit="IOPS", note="SATA HDD"),
      ExpectedFigure(value=456, unit="IOPS", note="SAS HDD (456-512)"),
      ExpectedFigure(value=129000, unit="IOPS", note="SSD (505 MB/s)"),
      ExpectedFigure(value=5900, unit="IOPS", note="cloud disk with a 6000 IOPS SLA")]),
    ("write-4k", "sequential write 4k", "write", "throughput", []),
    ("randwrite-4k", "random write 4k", "randwrite", "iops",
     [ExpectedFigure(value=134, unit="IOPS", note="SATA HDD"),
      ExpectedFigure(value=140000, unit="IOPS", note="SSD")]),
]  # fmt: skip


def _device_presets() -> list[Preset]:
    presets = [
        _preset(
            f"device-{slug}",
            f"Device survey: {title}",
            DEVICE_SURVEY,
            measures,
            f"{rw} 4k at iodepth 32 on the raw device.",
            _DEVICE_COMMON,
            [{"name": f"device-{slug}", "rw": rw, "bs": "4k", "iodepth": "32"}],
            target_kind="block_device",
            expected=expected,
        )
        for slug, title, rw, measures, expected in _DEVICE_TESTS
    ]
    sweep: list[dict[str, object]] = [
        # stonewall runs the depths one after another instead of all at once.
        {"name": f"qd{depth}", "rw": "randwrite", "bs": "4k", "iodepth": depth, "stonewall": True}
        for depth in (1, 2, 4, 8, 16, 32, 64, 128, 256)
    ]
    presets.append(
        _preset(
            "device-qd-sweep-randwrite-4k",
            "Device survey: queue-depth sweep, random write 4k",
            DEVICE_SURVEY,
            "iops",
            "randwrite 4k at queue depths 1, 2, 4 ... 256, one after another: IOPS rise "
            "until the device saturates, then only latency grows.",
            _DEVICE_COMMON,
            sweep,
            target_kind="block_device",
            expected=[
                ExpectedFigure(value=332, unit="IOPS", note="SATA disk, flat from QD 1 to 256"),
                ExpectedFigure(value=5500, unit="IOPS", note="12-disk RAID0 plateau from QD 4"),
            ],
        )
    )
    presets.append(
        _preset(
            "device-seqwrite-512k",
            "Device survey: peak sequential write 512k",
            DEVICE_SURVEY,
            "throughput",
            "write 512k at iodepth 64 on the raw device for peak throughput.",
            _DEVICE_COMMON,
            [{"name": "device-seqwrite-512k", "rw": "write", "bs": "512k", "iodepth": "64"}],
            target_kind="block_device",
            expected=[
                ExpectedFigure(value=170, unit="MB/s", note="cloud disk with a 170 MB/s SLA")
            ],
        )
    )
    return presets


def _starter_presets() -> list[Preset]:
    return [
        _preset(
            "randread-4k-iops",
            "4 KiB random read IOPS",
            STARTER,
            "iops",
            "A quick 10 s random-read IOPS check on a 64 MiB file.",
            {},
            [{"name": "randread-4k-iops", "rw": "randread", "bs": "4k", "iodepth": 32,
              "numjobs": 1, "direct": True, "ioengine": "libaio", "size": "64m",
              "runtime": 10, "time_based": True}],
        ),
        _preset(
            "seqwrite-1m-throughput",
            "1 MiB sequential write throughput",
            STARTER,
            "throughput",
            "A quick 10 s sequential-write throughput check on a 256 MiB file.",
            {},
            [{"name": "seqwrite-1m-throughput", "rw": "write", "bs": "1m", "iodepth": 8,
              "direct": True, "ioengine": "libaio", "size": "256m", "runtime": 10,
              "time_based": True}],
        ),
    ]  # fmt: skip


PRESETS: list[Preset] = [
    *_starter_presets(),
    *_nas_presets(),
    *_cloud_fs_presets(),
    *_cloud_disk_presets(),
    *_nfs_presets(),
    *_device_presets(),
]
_BY_ID = {preset.id: preset for preset in PRESETS}


def get_preset(id: str) -> Preset | None:
    """The preset with this id, or None."""
    return _BY_ID.get(id)
