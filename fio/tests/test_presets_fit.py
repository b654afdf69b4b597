"""Every preset runs under the default limits where it fits, and says what it needs where not."""

from __future__ import annotations

import math

import pytest

from storbench_fio.budget import human_bytes
from storbench_fio.presets import PRESETS, Preset, get_preset
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety

LIMITS = SafetyLimits()  # the defaults, as a fresh deployment has them
SMALL_HOST = 2 << 30  # a small cloud client: 2 GiB of memory
DIRECTORY_PRESETS = [p for p in PRESETS if p.target_kind == "directory"]
DEVICE_PRESETS = [p for p in PRESETS if p.target_kind == "block_device"]


def directory(free: int) -> SafetyTarget:
    return SafetyTarget(
        kind="directory", path="/mnt/nas/bench", free_bytes=free, host_memory_bytes=SMALL_HOST
    )


def device(size: int) -> SafetyTarget:
    return SafetyTarget(
        kind="block_device",
        path="/dev/vdb",
        destructive=True,
        confirmed_destructive=True,
        device_bytes=size,
        host_memory_bytes=SMALL_HOST,
    )


def just_enough(preset: Preset) -> int:
    """The least free space that holds the preset's files with the kept margin."""
    assert preset.scratch_size is not None
    return math.ceil(preset.scratch_size / (1 - LIMITS.free_space_margin)) + 1


@pytest.mark.parametrize("preset", DIRECTORY_PRESETS, ids=lambda p: p.id)
def test_runs_under_the_default_limits_on_a_directory_with_the_space(preset: Preset) -> None:
    assert check_jobs_safety(preset.jobs, directory(just_enough(preset)), LIMITS) == []


@pytest.mark.parametrize("preset", DIRECTORY_PRESETS, ids=lambda p: p.id)
def test_is_refused_before_it_starts_on_a_directory_without_the_space(preset: Preset) -> None:
    assert preset.scratch_size is not None
    free = preset.scratch_size // 2
    [error] = check_jobs_safety(preset.jobs, directory(free), LIMITS)
    assert error.option == "size"
    assert f"need {human_bytes(preset.scratch_size)} (" in error.reason
    assert f"the target has {human_bytes(free)} free" in error.reason


@pytest.mark.parametrize("preset", DEVICE_PRESETS, ids=lambda p: p.id)
def test_runs_under_the_default_limits_on_a_device_with_the_space(preset: Preset) -> None:
    assert check_jobs_safety(preset.jobs, device(100 << 30), LIMITS) == []


@pytest.mark.parametrize("preset", DEVICE_PRESETS, ids=lambda p: p.id)
def test_is_refused_on_a_device_smaller_than_its_region(preset: Preset) -> None:
    errors = check_jobs_safety(preset.jobs, device(40 << 30), LIMITS)
    sizes = {job.size for job in preset.jobs}
    if sizes == {None}:  # the whole device, whatever its size
        assert errors == []
    else:
        [error] = errors
        assert error.option == "size"
        assert "needs 100 GiB of the device" in error.reason
        assert "/dev/vdb holds 40 GiB" in error.reason


@pytest.mark.parametrize(
    ("preset_id", "free", "said"),
    [
        (
            "cloudfs-read-iops",
            5 << 30,
            "the jobs' files need 12.5 GiB (128 jobs \u00d7 100 MiB, offsets included), the "
            "target has 5 GiB free, of which 4.5 GiB may be used (10% is kept free)",
        ),
        (
            "nfs-throughput",
            100 << 30,
            "the jobs' files need 160 GiB (16 jobs \u00d7 10 GiB, offsets included), the target "
            "has 100 GiB free, of which 90 GiB may be used (10% is kept free)",
        ),
        (
            "nas-windows-randread-iops",
            1 << 30,
            "the jobs' files need 2 GiB (2 jobs \u00d7 1 GiB, offsets included), the target has "
            "1 GiB free",
        ),
    ],
)
def test_the_refusal_gives_the_space_needed_in_human_units(
    preset_id: str, free: int, said: str
) -> None:
    preset = get_preset(preset_id)
    assert preset is not None
    [error] = check_jobs_safety(preset.jobs, directory(free), LIMITS)
    assert said in error.reason


def test_the_defaults_allow_what_vendors_publish() -> None:
    published = [p for p in PRESETS if p.source != "storbench quick start"]
    assert max(job.numjobs or 1 for p in published for job in p.jobs) == 128
    assert max(job.iodepth or 1 for p in published for job in p.jobs) == 256  # the QD sweep
    assert max(job.runtime or 0 for p in published for job in p.jobs) == 1000
    assert LIMITS.max_numjobs >= 128
    assert LIMITS.max_iodepth >= 256
    assert LIMITS.max_runtime_s >= 1000
    assert LIMITS.max_total_size_bytes is None  # the target's free space is the bound
