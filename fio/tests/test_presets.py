"""Presets: published recipes, as published, that fio accepts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.command import render_job_file
from storbench_fio.job import validate_job_dict
from storbench_fio.presets import PRESETS, Preset, get_preset


def test_ids_unique_and_lookup() -> None:
    ids = [p.id for p in PRESETS]
    assert len(ids) == len(set(ids))
    assert get_preset("nope") is None
    for preset in PRESETS:
        assert get_preset(preset.id) is preset


def test_starter_presets() -> None:
    iops = get_preset("randread-4k-iops")
    assert iops is not None
    [job] = iops.resolved_jobs()
    assert (job.rw, job.bs, job.iodepth, job.numjobs, job.direct) == (
        "randread",
        4096,
        32,
        1,
        True,
    )
    assert (job.ioengine, job.size, job.runtime, job.time_based) == ("libaio", 64 << 20, 30, True)
    throughput = get_preset("seqwrite-1m-throughput")
    assert throughput is not None
    [job] = throughput.resolved_jobs()
    assert (job.rw, job.bs, job.iodepth, job.size) == ("write", 1 << 20, 8, 256 << 20)
    assert throughput.scratch_size == 256 << 20


def test_nas_linux_as_published() -> None:
    preset = get_preset("nas-linux-randread-iops")
    assert preset is not None
    assert preset.source == "General-purpose NAS service performance guide (Linux)"
    [job] = preset.resolved_jobs()
    assert (job.numjobs, job.iodepth, job.direct, job.ioengine, job.sync) == (
        1,
        128,
        True,
        "libaio",
        True,
    )
    assert (job.size, job.time_based, job.runtime, job.rw, job.bs) == (
        1 << 30,
        True,
        60,
        "randread",
        4096,
    )
    assert [(f.value, f.unit) for f in preset.expected] == [(14000, "IOPS")]
    windows = get_preset("nas-windows-randread-iops")
    assert windows is not None
    [wjob] = windows.resolved_jobs()
    assert (windows.platform, wjob.numjobs, wjob.ioengine, wjob.thread) == (
        "windows",
        2,
        "windowsaio",
        True,
    )
    assert wjob.group_reporting is True


@pytest.mark.parametrize(
    ("preset_id", "size", "numjobs", "iodepth", "bs"),
    [
        ("cloudfs-read-latency", 1 << 20, 1, 1, 4096),
        ("cloudfs-write-iops", 100 << 20, 128, 1, 4096),
        ("cloudfs-read-throughput", 100 << 20, 128, 1, 1 << 20),
        ("clouddisk-seqwrite-throughput", 1 << 30, 1, 64, 1 << 20),
        ("nfs-throughput", 10 << 30, 16, 32, 64 << 10),
        ("nfs-windows-iops", 10 << 30, 1, 16, 4096),
        ("nfs-windows-throughput", 10 << 30, 16, 32, 64 << 10),
        ("device-clouddisk-seqwrite-512k", 100 << 30, 1, 64, 512 << 10),
    ],
)
def test_recipe_parameters(preset_id: str, size: int, numjobs: int, iodepth: int, bs: int) -> None:
    preset = get_preset(preset_id)
    assert preset is not None
    [job] = preset.resolved_jobs()
    assert (job.size, job.numjobs or 1, job.iodepth, job.bs) == (size, numjobs, iodepth, bs)


def test_every_published_family_present() -> None:
    sources = {p.source for p in PRESETS}
    assert len(sources) == 8
    sweep = get_preset("device-qd-sweep-randwrite-4k")
    assert sweep is not None
    assert [j.iodepth for j in sweep.jobs] == [1, 2, 4, 8, 16, 32, 64, 128, 256]
    assert sweep.target_kind == "block_device"
    assert sweep.scratch_size is None


@requires_fio
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_fio_accepts_every_preset(preset: Preset, tmp_path: Path) -> None:
    path = tmp_path / "preset.fio"
    path.write_text(render_job_file(preset.resolved_jobs(), directory=str(tmp_path)))
    assert FIO is not None
    proc = subprocess.run([FIO, "--parse-only", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_preset_jobs_round_trip_through_json() -> None:
    for preset in PRESETS:
        for job in preset.jobs:
            dumped = job.model_dump(mode="json", exclude_none=True)
            assert validate_job_dict(dumped) == job
