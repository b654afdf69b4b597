"""Presets from the block-storage guides: the cloud disk guide and the practitioner's device survey.

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

__all__ = ["cloud_disk_presets", "device_presets"]

_figure = expected_figure  # short, for the tables below

CLOUD_DISK = "Cloud block storage (disk) performance guide"
DEVICE_SURVEY = "Practitioner's guide to disk testing (device survey)"


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


def cloud_disk_presets() -> list[Preset]:
    return [
        build_preset(
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


def device_presets() -> list[Preset]:
    presets = [
        build_preset(
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
        build_preset(
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
        build_preset(
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
