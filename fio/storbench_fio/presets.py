"""Published fio recipes (METHODOLOGY.md section 2) and two quick starters, as presets.

Every parameter and figure is as its source prints it; tests/published/recipes.md holds the
published lines and tests/test_presets_published.py compares each preset with its line.
"""

from __future__ import annotations

from storbench_fio.preset_model import ExpectedFigure, Measure, Preset, build_preset

__all__ = ["PRESETS", "ExpectedFigure", "Preset", "get_preset"]

NAS_LINUX = "General-purpose NAS service performance guide (Linux)"
NAS_WINDOWS = "General-purpose NAS service performance guide (Windows)"
NAS_SMB = "General-purpose NAS service performance guide (SMB share from Windows)"
CLOUD_FS = "Cloud file system service performance guide"
CLOUD_DISK = "Cloud block storage (disk) performance guide"
MANAGED_NFS = "Managed NFS volume service performance guide"
DEVICE_SURVEY = "Practitioner's guide to disk testing (device survey)"
STARTER = "storbench quick start"

_preset = build_preset


def _figure(value: float, unit: str, note: str | None = None, **extra: object) -> ExpectedFigure:
    return ExpectedFigure.model_validate({"value": value, "unit": unit, "note": note, **extra})


# ---- NAS service -----------------------------------------------------------------------------

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
_NAS_THROUGHPUT = [
    _figure(150, "MB/s", "capacity type"),
    _figure(300, "MB/s", "performance type"),
]
_NAS_TESTS: list[tuple[str, str, str, str, Measure, list[ExpectedFigure]]] = [
    ("randread-iops", "random read IOPS", "randread", "4K", "iops", [_figure(14000, "IOPS")]),
    ("randwrite-iops", "random write IOPS", "randwrite", "4K", "iops", [_figure(10000, "IOPS")]),
    ("randread-throughput", "random read throughput", "randread", "1M", "throughput",
     _NAS_THROUGHPUT),
    ("randwrite-throughput", "random write throughput", "randwrite", "1M", "throughput",
     _NAS_THROUGHPUT),
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
                f"{rw} {bs} blocks at iodepth 128 on the NAS mount; one host. Official figures "
                "need several hosts.",
                _NAS_COMMON,
                [{"name": f"nas-{slug}", "rw": rw, "bs": bs}],
                expected=expected,
                target_options={"directory": "<mount>"},
            )
        )
        presets.append(
            _preset(
                f"nas-windows-{slug}",
                f"NAS {title} (Windows)",
                NAS_WINDOWS,
                measures,
                f"{rw} {bs} blocks, two threads: the Windows NFS client serialises requests per "
                'file system. The guide runs "c:\\Program Files\\fio\\fio.exe" on drive Z:. '
                "Official figures need several hosts.",
                _NAS_WINDOWS_COMMON,
                [{"name": f"nas-{slug}", "rw": rw, "bs": bs}],
                platform="windows",
                expected=expected,
                target_options={"directory": "Z:\\"},
            )
        )
    return presets


_SMB_COMMAND = (
    "fio.exe --name=./iotest1 --direct=1 --rwmixread=0 --rw=write --bs=4K --numjobs=1 --thread "
    "--iodepth=128 --runtime=300 --group_reporting --size=5G --verify=md5 --randrepeat=0 "
    "--norandommap --refill_buffers --filename=\\\\<server>\\<share>\\<file>"
)


def _smb_presets() -> list[Preset]:
    return [
        _preset(
            "smb-windows-write-verify",
            "SMB share write check with verification (Windows)",
            NAS_SMB,
            "throughput",
            "4K sequential writes at iodepth 128 for up to 300 s on a 5 GiB file, verified with "
            "md5; the guide writes to a file on the share by its UNC path.",
            {},
            [
                {"name": "./iotest1", "direct": "1", "rwmixread": "0", "rw": "write",
                 "bs": "4K", "numjobs": "1", "thread": "1", "iodepth": "128",
                 "runtime": "300", "group_reporting": "1", "size": "5G", "verify": "md5",
                 "randrepeat": "0", "norandommap": "1", "refill_buffers": "1"},
            ],
            platform="windows",
            target_options={"filename": "\\\\<server>\\<share>\\<file>"},
            published_command=_SMB_COMMAND,
        )
    ]  # fmt: skip


# ---- cloud file system -----------------------------------------------------------------------

_CLOUD_FS_COMMON = {
    "time_based": "1",
    "thread": "1",
    "direct": "1",
    "ioengine": "libaio",
    "runtime": "60",
    "group_reporting": "1",
}
# Not the file system's figure: a file system with 2 GiB/s needs ~8 such clients at once.
_NETWORK_CAP = _figure(0.25, "GiB/s", "network ceiling of a 2 Gbps client", basis="ceiling")
_CLOUD_FS_TESTS: list[tuple[str, str, str, str, str, int, Measure, list[ExpectedFigure]]] = [
    ("read-latency", "read latency", "randread", "4K", "1M", 1, "latency", []),
    ("write-latency", "write latency", "randwrite", "4K", "1M", 1, "latency",
     [_figure(7, "ms", "standard tier 4 KiB write latency")]),
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
            "file system's zone in an empty directory, never a production file system."
            + (
                " A client's network caps throughput (a 2 Gbps client reaches ~0.25 GiB/s): "
                "the file system's figure needs several clients at once."
                if measures == "throughput"
                else ""
            ),
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


# ---- cloud block storage ---------------------------------------------------------------------

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


# ---- managed NFS volume ----------------------------------------------------------------------

_NFS_COMMON = {
    "size": "10g",
    "fallocate": "none",
    "direct": "1",
    "runtime": "60",
    "time_based": "1",
    "ramp_time": "5",
    "ioengine": "libaio",
}
# windowsaio stands in for libaio, which Windows lacks; fio there escapes the drive colon.
_NFS_WINDOWS_COMMON = {**_NFS_COMMON, "ioengine": "windowsaio", "thread": "1"}
_NFS_TESTS: list[tuple[str, str, Measure, str, str, int, int, int, int, str]] = [
    # slug, title, measures, rw, bs, iodepth, numjobs, Windows iodepth, Windows numjobs, about
    ("latency", "latency", "latency", "randwrite", "4k", 1, 1, 1, 1, "one job at iodepth 1"),
    ("iops", "IOPS", "iops", "randread", "4k", 32, 1, 16, 1, "one job"),
    ("throughput", "throughput", "throughput", "read", "64k", 32, 16, 32, 16,
     "16 jobs: high throughput needs >= 64 KiB blocks and high concurrency"),
]  # fmt: skip


def _nfs_presets() -> list[Preset]:
    presets = []
    for slug, title, measures, rw, bs, depth, jobs, win_depth, win_jobs, about in _NFS_TESTS:
        presets.append(
            _preset(
                f"nfs-{slug}",
                f"Managed NFS {title}",
                MANAGED_NFS,
                measures,
                f"{rw} {bs} at iodepth {depth}, {about}.",
                _NFS_COMMON,
                [{"name": f"nfs-{slug}", "rw": rw, "bs": bs, "iodepth": depth, "numjobs": jobs}],
            )
        )
        presets.append(
            _preset(
                f"nfs-windows-{slug}",
                f"Managed NFS {title} (Windows)",
                MANAGED_NFS,
                measures,
                f"{rw} {bs} at iodepth {win_depth} with {win_jobs} thread(s) on drive Z: "
                "(windowsaio: Windows has no libaio).",
                _NFS_WINDOWS_COMMON,
                [
                    {
                        "name": f"nfs-{slug}",
                        "rw": rw,
                        "bs": bs,
                        "iodepth": win_depth,
                        "numjobs": win_jobs,
                    }
                ],
                platform="windows",
                target_options={"directory": "Z\\:\\"},
            )
        )
    return presets


# ---- device survey ---------------------------------------------------------------------------

_DEVICE_COMMON = {"ioengine": "libaio", "direct": "1", "runtime": "60"}
_MEASURED = "measured"
_DEVICE_TESTS: list[tuple[str, str, str, Measure, list[ExpectedFigure]]] = [
    ("read-4k", "sequential read 4k", "read", "throughput",
     [_figure(124, "MB/s", "SATA HDD (31k IOPS)", basis=_MEASURED),
      _figure(190, "MB/s", "SAS HDD", basis=_MEASURED)]),
    ("randread-4k", "random read 4k", "randread", "iops",
     [_figure(114, "IOPS", "SATA HDD", basis=_MEASURED),
      _figure(456, "IOPS", "SAS HDD", basis=_MEASURED),
      _figure(129000, "IOPS", "SSD (505 MB/s)", basis=_MEASURED)]),
    ("write-4k", "sequential write 4k", "write", "throughput", []),
    ("randwrite-4k", "random write 4k", "randwrite", "iops",
     [_figure(134, "IOPS", "SATA HDD", basis=_MEASURED),
      _figure(512, "IOPS", "SAS HDD", basis=_MEASURED),
      _figure(140000, "IOPS", "SSD", basis=_MEASURED)]),
]  # fmt: skip
_SWEEP_DEPTHS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# The cloud-disk check: thread and a 100 GiB region of the raw device.
_CLOUD_DISK_CHECK = {**_DEVICE_COMMON, "thread": "1", "size": "100G"}
_SLA_DISK = "cloud disk with a 6000 IOPS / 170 MB/s SLA"
_CLOUD_DISK_CHECKS: list[tuple[str, str, str, str, int, Measure, list[ExpectedFigure]]] = [
    ("randwrite-4k", "random write 4k", "randwrite", "4k", 32, "iops",
     [_figure(5900, "IOPS", _SLA_DISK, basis=_MEASURED),
      _figure(5.42, "ms", f"mean latency; {_SLA_DISK}", basis=_MEASURED),
      _figure(6.24, "ms", f"95th percentile latency; {_SLA_DISK}", basis=_MEASURED)]),
    ("randread-4k", "random read 4k", "randread", "4k", 8, "iops", []),
    ("seqwrite-512k", "peak sequential write 512k", "write", "512k", 64, "throughput",
     [_figure(170, "MB/s", f"{_SLA_DISK} (174,226 KB/s)", basis=_MEASURED)]),
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
    presets.append(
        _preset(
            "device-qd-sweep-randwrite-4k",
            "Device survey: queue-depth sweep, random write 4k (derived)",
            DEVICE_SURVEY,
            "iops",
            "randwrite 4k at queue depths 1, 2, 4 ... 256, one after another: IOPS rise until "
            "the device saturates, then only latency grows. Derived: the practitioner measured "
            "this sweep with another tool, so storbench built these fio jobs from the device "
            "survey's options.",
            _DEVICE_COMMON,
            # stonewall runs the depths one after another instead of all at once.
            [
                {"name": f"qd{depth}", "rw": "randwrite", "bs": "4k", "iodepth": depth,
                 "stonewall": True}
                for depth in _SWEEP_DEPTHS
            ],
            target_kind="block_device",
            derived=True,
            expected=[
                _figure(332, "IOPS", "SATA disk, flat from QD 1 to 256", basis=_MEASURED),
                _figure(3, "ms", "SATA disk mean latency at QD 1", basis=_MEASURED, job="qd1"),
                _figure(774, "ms", "SATA disk mean latency at QD 256", basis=_MEASURED,
                        job="qd256"),
                _figure(1216, "IOPS", "12-disk RAID0 at QD 1", basis=_MEASURED, job="qd1"),
                _figure(5500, "IOPS", "12-disk RAID0 plateau from QD 4", basis=_MEASURED),
            ],
        )
    )  # fmt: skip
    presets.extend(
        _preset(
            f"device-clouddisk-{slug}",
            f"Cloud-disk check: {title}",
            DEVICE_SURVEY,
            measures,
            f"{rw} {bs} at iodepth {iodepth}, one thread, over 100 GiB of the raw cloud disk.",
            _CLOUD_DISK_CHECK,
            [{"name": f"device-clouddisk-{slug}", "rw": rw, "bs": bs, "iodepth": iodepth}],
            target_kind="block_device",
            expected=expected,
        )
        for slug, title, rw, bs, iodepth, measures, expected in _CLOUD_DISK_CHECKS
    )
    return presets


# ---- quick starters --------------------------------------------------------------------------


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
    *_smb_presets(),
    *_cloud_fs_presets(),
    *_cloud_disk_presets(),
    *_nfs_presets(),
    *_device_presets(),
]
_BY_ID = {preset.id: preset for preset in PRESETS}


def get_preset(id: str) -> Preset | None:
    """The preset with this id, or None."""
    return _BY_ID.get(id)
