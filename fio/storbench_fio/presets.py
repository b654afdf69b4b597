"""Published fio recipes (METHODOLOGY.md section 2) and two quick starters, as presets.

Every parameter and figure is as its source prints it; tests/published/recipes.md holds the
published lines and tests/test_presets_published.py compares each preset with its line. The
recipes live by family: file services (presets_file) and block storage (presets_block).
"""

from __future__ import annotations

from storbench_fio.preset_model import ExpectedFigure, Preset, build_preset
from storbench_fio.presets_block import cloud_disk_presets, device_presets
from storbench_fio.presets_file import cloud_fs_presets, nas_presets, nfs_presets, smb_presets

__all__ = ["PRESETS", "ExpectedFigure", "Preset", "get_preset"]

STARTER = "storbench quick start"


# ---- quick starters --------------------------------------------------------------------------
# As short as the advisor accepts (30 s measured, after a 5 s ramp): every published recipe
# runs 60 s or more, and a shorter run measures caches, burst credits and warm-up
# (METHODOLOGY.md §2, §4), so a 10 s starter was flagged "short run" by storbench's own
# advisor on its own first result.


def _starter_presets() -> list[Preset]:
    return [
        build_preset(
            "randread-4k-iops",
            "4 KiB random read IOPS",
            STARTER,
            "iops",
            "A 30 s random-read IOPS check on a 64 MiB file, after 5 s of warm-up.",
            {},
            [{"name": "randread-4k-iops", "rw": "randread", "bs": "4k", "iodepth": 32,
              "numjobs": 1, "direct": True, "ioengine": "libaio", "size": "64m",
              "runtime": 30, "ramp_time": 5, "time_based": True}],
        ),
        build_preset(
            "seqwrite-1m-throughput",
            "1 MiB sequential write throughput",
            STARTER,
            "throughput",
            "A 30 s sequential-write throughput check on a 256 MiB file, after 5 s of warm-up.",
            {},
            [{"name": "seqwrite-1m-throughput", "rw": "write", "bs": "1m", "iodepth": 8,
              "direct": True, "ioengine": "libaio", "size": "256m", "runtime": 30,
              "ramp_time": 5, "time_based": True}],
        ),
    ]  # fmt: skip


PRESETS: list[Preset] = [
    *_starter_presets(),
    *nas_presets(),
    *smb_presets(),
    *cloud_fs_presets(),
    *cloud_disk_presets(),
    *nfs_presets(),
    *device_presets(),
]
_BY_ID = {preset.id: preset for preset in PRESETS}


def get_preset(id: str) -> Preset | None:
    """The preset with this id, or None."""
    return _BY_ID.get(id)
