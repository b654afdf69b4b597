"""build_command and render_job_file produce what fio accepts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.command import build_command, render_job_file
from storbench_fio.confine import JobPaths
from storbench_fio.job import FioJob, validate_job_dict


def two_jobs() -> list[FioJob]:
    return [
        validate_job_dict(
            {
                "name": "a",
                "rw": "randread",
                "bs": "4k",
                "size": "8m",
                "runtime": "1",
                "time_based": None,
                "direct": "0",
                "ioengine": "psync",
                "percentile_list": "50:99.9",
            }
        ),
        validate_job_dict({"name": "b", "rw": "write", "bs": "1m", "size": "4m", "sync": "dsync"}),
    ]


def test_build_command_exact_argv() -> None:
    argv = build_command(two_jobs(), paths=[JobPaths(directory="/scratch/")] * 2)
    assert argv == [
        "fio",
        "--output-format=json+",
        "--name=a",
        "--rw=randread",
        "--bs=4k",
        "--size=8m",
        "--runtime=1",
        "--time_based",
        "--direct=0",
        "--ioengine=psync",
        "--percentile_list=50:99.9",
        "--directory=/scratch/",
        "--name=b",
        "--rw=write",
        "--bs=1m",
        "--size=4m",
        "--sync=dsync",
        "--directory=/scratch/",
    ]


def test_build_command_refuses_unknown_format_and_no_jobs() -> None:
    with pytest.raises(ValueError, match="output format"):
        build_command(two_jobs(), output_format="xml")
    with pytest.raises(ValueError, match="at least one job"):
        build_command([])


def test_kb_base_1000_renders_plain_bytes() -> None:
    job = validate_job_dict({"name": "a", "rw": "read", "kb_base": 1000, "bs": "4k"})
    assert "--bs=4000" in build_command([job])


def test_render_job_file_layout() -> None:
    text = render_job_file(two_jobs(), global_options={"group_reporting": True}, directory="/d")
    assert text.startswith("[global]\ngroup_reporting\ndirectory=/d\n\n[a]\nrw=randread\n")
    assert "\ntime_based\n" in text
    assert "[b]\nrw=write\nbs=1m\nsize=4m\nsync=dsync\n" in text


@requires_fio
def test_fio_parse_only_accepts_rendered_file(tmp_path: Path) -> None:
    path = tmp_path / "jobs.fio"
    path.write_text(render_job_file(two_jobs(), directory=str(tmp_path)))
    assert FIO is not None
    proc = subprocess.run([FIO, "--parse-only", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@requires_fio
def test_built_command_runs(tmp_path: Path) -> None:
    argv = build_command(
        two_jobs()[:1], paths=[JobPaths(directory=f"{tmp_path}/")], output_format="json"
    )
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 0, proc.stderr
    assert '"jobname" : "a"' in proc.stdout
