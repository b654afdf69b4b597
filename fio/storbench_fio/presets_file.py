"""Presets from the file-service guides: NAS (Linux, Windows, SMB), cloud file system, managed NFS.

Every parameter and figure is as its source prints it (see storbench_fio.presets).
"""

from __future__ import annotations

from storbench_fio.preset_model import (
    ExpectedFigure,
    Measure,
    Preset,
    build_preset,
    expected_figure,
)

__all__ = ["cloud_fs_presets", "nas_presets", "nfs_presets", "smb_presets"]

_figure = expected_figure  # short, for the tables below

NAS_LINUX = "General-purpose NAS service performance guide (Linux)"
NAS_WINDOWS = "General-purpose NAS service performance guide (Windows)"
NAS_SMB = "General-purpose NAS service performance guide (SMB share from Windows)"
CLOUD_FS = "Cloud file system service performance guide"
MANAGED_NFS = "Managed NFS volume service performance guide"


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


def nas_presets() -> list[Preset]:
    presets = []
    for slug, title, rw, bs, measures, expected in _NAS_TESTS:
        presets.append(
            build_preset(
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
            build_preset(
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


def smb_presets() -> list[Preset]:
    return [
        build_preset(
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


def cloud_fs_presets() -> list[Preset]:
    return [
        build_preset(
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


def nfs_presets() -> list[Preset]:
    presets = []
    for slug, title, measures, rw, bs, depth, jobs, win_depth, win_jobs, about in _NFS_TESTS:
        presets.append(
            build_preset(
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
            build_preset(
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
