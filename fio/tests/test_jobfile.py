"""Job files and pasted command lines into FioJob models."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fio_testkit import FIO, JOB_FILE, requires_fio

from storbench_fio.command import render_job_file
from storbench_fio.errors import FioJobError
from storbench_fio.jobfile import (
    parse_command_line,
    parse_fio_text,
    parse_job_file,
    parse_raw_job_file,
)


def refused(text: str) -> dict[str, str]:
    with pytest.raises(FioJobError) as info:
        parse_fio_text(text)
    return {e.option: e.reason for e in info.value.errors}


def test_job_file_globals_comments_and_forms() -> None:
    first, second = parse_job_file(JOB_FILE)
    assert (first.name, first.rw, first.bs, first.iodepth) == ("randread", "randread", 4096, 32)
    assert first.ioengine == "libaio"
    assert first.direct is True
    assert first.time_based is True
    assert first.runtime == 60
    assert first.numjobs is None  # the second [global] applies only to later jobs
    assert (second.rw, second.bs, second.numjobs) == ("write", 1 << 20, 2)


def test_command_line_forms() -> None:
    jobs = parse_command_line(
        "$ sudo fio --ioengine=libaio -direct=1 --name=a -rw=randread --bs 4k --time_based \\\n"
        "    --runtime=30 --output-format=json --name='b' --rw \"write\""
    )
    assert [(j.name, j.rw, j.ioengine, j.direct) for j in jobs] == [
        ("a", "randread", "libaio", True),
        ("b", "write", "libaio", True),
    ]
    assert jobs[0].bs == 4096
    assert jobs[0].time_based is True
    assert jobs[1].time_based is None


def test_windows_command_line_keeps_backslashes() -> None:
    [job] = parse_fio_text(
        r'"C:\Program Files\fio\fio.exe" --name=w --ioengine=windowsaio --thread '
        r"--directory=D:\bench --rw=randread"
    )
    assert job.directory == r"D:\bench"
    assert job.thread is True


def test_trailing_job_file_argument_is_refused() -> None:
    errors = refused("fio --name=a --rw=read jobs.fio")
    assert "job file" in errors["jobs.fio"]


def test_an_option_name_split_by_a_blank_names_the_broken_token() -> None:
    # A blank is the shell's word boundary: unlike a line break inside a word (a document's
    # layout, rejoined: see test_paste.py), it is not mended.
    errors = refused("fio --name=a --io depth=32 --rw=read")
    [(token, reason)] = errors.items()
    assert token.startswith("--io")
    assert "split" in reason


def test_backslash_continuations_are_joined() -> None:
    [job] = parse_fio_text("fio --name=a \\\n --rw=randread \\\n --iodepth=32")
    assert job.iodepth == 32


def test_options_fio_does_not_know_are_refused_in_those_words() -> None:
    errors = refused("[a]\nrw=read\nfrobnicate=1\nbsrange=1k-4k\nzonemode=frob\n")
    assert errors == {
        "frobnicate": "option not known to fio 3.33, which this host runs",
        "zonemode": "'frob' is not known to fio 3.33, which this host runs "
        "(fio knows none, strided, zbd)",
    }


def test_all_errors_of_all_jobs_reported_together() -> None:
    with pytest.raises(FioJobError) as info:
        parse_fio_text("[a]\nrw=sideways\n[b]\nrw=read\niodepth=0\n")
    assert {(e.job, e.option) for e in info.value.errors} == {("a", "rw"), ("b", "iodepth")}


def test_raw_parse_keeps_options_fiojob_does_not_model() -> None:
    raw = parse_raw_job_file("[a]\nrw=read\nexec_prerun=/bin/true\n")
    assert raw.jobs[0].as_dict()["exec_prerun"] == "/bin/true"


def test_text_without_jobs() -> None:
    assert refused("just some words") == {"just some words": "option outside any [job]"}


@requires_fio
def test_round_trip_through_fio_parse_only(tmp_path: Path) -> None:
    jobs = parse_job_file(JOB_FILE)
    rendered = render_job_file(jobs, directory=str(tmp_path))
    reparsed = [j.model_copy(update={"directory": None}) for j in parse_job_file(rendered)]
    assert reparsed == jobs
    path = tmp_path / "jobs.fio"
    path.write_text(rendered)
    assert FIO is not None
    proc = subprocess.run([FIO, "--parse-only", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@requires_fio
def test_a_vendor_command_line_pinning_fio_to_cpus_is_kept_and_fio_accepts_it(
    tmp_path: Path,
) -> None:
    (job,) = parse_fio_text(
        "fio --name=pinned --rw=randread --bs=4k --iodepth=32 --numjobs=4 --runtime=30 "
        "--cpus_allowed=0-1,3 --cpus_allowed_policy=split"
    )
    assert (job.cpus_allowed, job.cpus_allowed_policy) == ("0-1,3", "split")
    path = tmp_path / "jobs.fio"
    path.write_text(render_job_file([job], directory=str(tmp_path)))
    assert FIO is not None
    proc = subprocess.run([FIO, "--parse-only", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_cpu_list_that_is_not_one_is_refused() -> None:
    assert "pattern" in refused("[a]\nrw=read\ncpus_allowed=all-of-them\n")["cpus_allowed"]
