"""Running the real fio, and stopping it completely."""

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from storbench_worker.fio_runner import FioPlace, fio_version, run_fio
from storbench_worker.limits import FioLimits
from storbench_worker.progress import StatusStream


def _fio_processes_in(path: Path) -> list[int]:
    listing = subprocess.run(["ps", "-ww", "-eo", "pid=,args="], capture_output=True, text=True, check=True)
    found = []
    for line in listing.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        if args.startswith("fio") and str(path) in args:
            found.append(int(pid))
    return found


def _survivors(path: Path) -> str:
    pids = ",".join(str(p) for p in _fio_processes_in(path))
    return subprocess.run(
        ["ps", "-o", "pid,ppid,pgid,sid,stat,wchan:16,args", "-p", pids], capture_output=True, text=True
    ).stdout


def test_fio_version_names_the_installed_fio() -> None:
    version = fio_version()
    assert version is not None and version.startswith("fio-")


def test_fio_version_is_none_when_fio_is_missing() -> None:
    assert fio_version("/nonexistent/fio") is None


def test_a_short_job_runs_to_the_end_and_leaves_its_report(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    argv = [
        "fio",
        "--output-format=json",
        f"--directory={work}",
        "--name=w",
        "--rw=write",
        "--bs=64k",
        "--size=4m",
    ]
    outcome = run_fio(argv, output_dir=tmp_path / "out", should_stop=lambda: False, poll_s=0.2)
    assert outcome.exit_code == 0
    assert not outcome.cancelled
    assert outcome.final_report is not None
    assert '"jobname" : "w"' in outcome.final_report


def _laid_out(work: Path, files: int, size: int) -> bool:
    """fio has created its files at full size: what follows is its I/O."""
    found = [p for p in work.iterdir() if p.is_file()]
    return len(found) == files and all(p.stat().st_size == size for p in found)


def test_stopping_ends_fio_early_with_a_partial_report(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    argv = [
        "fio",
        "--output-format=json",
        f"--directory={work}",
        "--name=r",
        "--rw=randread",
        "--bs=4k",
        "--size=8m",
        "--time_based",
        "--runtime=60",
        "--numjobs=2",
    ]
    # Stop once fio is doing I/O (its files laid out, one poll later), whatever the machine's load.
    polls_since_laid_out: list[int] = []

    def stop_once_running() -> bool:
        if polls_since_laid_out or _laid_out(work, files=2, size=8 * 1024 * 1024):
            polls_since_laid_out.append(1)
        return len(polls_since_laid_out) > 1

    outcome = run_fio(argv, output_dir=tmp_path / "out", should_stop=stop_once_running, poll_s=0.2)
    assert outcome.cancelled
    assert not _fio_processes_in(work)
    assert outcome.final_report is not None
    jobs = json.loads(outcome.final_report[outcome.final_report.index("{") :])["jobs"]
    # fio's own account: both jobs were stopped long before their 60 s.
    assert len(jobs) == 2 and all(job["job_runtime"] < 60_000 for job in jobs)


def test_a_bad_option_is_reported_on_stderr(tmp_path: Path) -> None:
    argv = ["fio", "--name=x", "--rw=sideways", f"--directory={tmp_path}"]
    outcome = run_fio(argv, output_dir=tmp_path / "out", should_stop=lambda: False)
    assert outcome.exit_code != 0
    assert "sideways" in outcome.stderr_tail


def test_fio_gets_none_of_the_workers_secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What run_fio starts (here `env` in fio's place, to show what it was given) sees the basics
    of the worker's environment, never the token or anything else the worker was started with."""
    monkeypatch.setenv("STORBENCH_WORKER_TOKEN", "sbw_secret-token-value")
    monkeypatch.setenv("STORBENCH_SECRET_KEY", "the-api-secret-key")
    monkeypatch.setenv("STORBENCH_BROKER_URL", "redis://storbench-api:redis-password@127.0.0.1:6390/0")
    argv = ["sh", "-c", "env >&2"]
    outcome = run_fio(argv, output_dir=tmp_path / "out", should_stop=lambda: False)
    assert outcome.exit_code == 0
    given = dict(line.split("=", 1) for line in outcome.stderr_tail.splitlines() if "=" in line)
    assert given["PATH"] == os.environ["PATH"]
    assert not [name for name in given if name.startswith("STORBENCH_")]
    for secret in ("sbw_secret-token-value", "the-api-secret-key", "redis-password"):
        assert secret not in outcome.stderr_tail


# A stand-in for the worker: runs fio through run_fio and says when fio has started.
_WORKER_SCRIPT = """
import sys
from pathlib import Path
from storbench_worker.fio_runner import run_fio
work = Path(sys.argv[1])
run_fio(
    sys.argv[2:], output_dir=work.parent / "out", should_stop=lambda: False,
    on_started=lambda wall: print("started", flush=True),
)
"""


@contextmanager
def _worker_running_fio(work: Path, argv: list[str]) -> Iterator[subprocess.Popen[str]]:
    """The stand-in worker, once fio has started; it and any fio it left are killed afterwards."""
    worker = subprocess.Popen(
        [sys.executable, "-c", _WORKER_SCRIPT, str(work), *argv], stdout=subprocess.PIPE, text=True
    )
    try:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "started"
        yield worker
    finally:
        worker.kill()
        for pid in _fio_processes_in(work):
            os.kill(pid, signal.SIGKILL)


def _kill_and_expect_no_fio_left(worker: subprocess.Popen[str], work: Path) -> None:
    worker.kill()
    worker.wait()
    deadline = time.monotonic() + 30  # a job in uninterruptible I/O dies when that I/O ends
    while _fio_processes_in(work):
        assert time.monotonic() < deadline, f"fio outlived its worker: {_survivors(work)}"
        time.sleep(0.1)


def test_fio_job_processes_die_with_a_worker_killed_outright(tmp_path: Path) -> None:
    """SIGKILL leaves the worker no chance to clean up: fio's forked jobs must stop anyway."""
    work = tmp_path / "work"
    work.mkdir()
    argv = [
        "fio",
        f"--directory={work}",
        "--name=orphan",
        "--rw=randread",
        "--bs=4k",
        "--size=4m",
        "--time_based",
        "--runtime=120",
        "--numjobs=2",
    ]
    with _worker_running_fio(work, argv) as worker:
        deadline = time.monotonic() + 30
        while len(_fio_processes_in(work)) < 3:  # fio's main process and its two jobs
            assert time.monotonic() < deadline, "fio did not start"
            time.sleep(0.1)
        _kill_and_expect_no_fio_left(worker, work)


@pytest.mark.parametrize("after_s", [0.0, 0.05, 0.1, 0.15, 0.2, 0.3])
def test_a_worker_killed_while_fio_is_still_forking_its_jobs_leaves_no_fio(
    tmp_path: Path, after_s: float
) -> None:
    """fio forks its job processes ~0.1-0.2 s after it starts: a kill then must not orphan one."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "forking.0.0").write_bytes(b"\0" * 4 * 1024 * 1024)
    argv = [
        "fio",
        f"--directory={work}",
        "--name=forking",
        "--rw=randread",
        "--bs=4k",
        "--size=4m",
        "--time_based",
        "--runtime=60",
        "--numjobs=4",
    ]
    with _worker_running_fio(work, argv) as worker:
        time.sleep(after_s)
        _kill_and_expect_no_fio_left(worker, work)


def test_fio_works_in_the_pinned_directory_under_limits(tmp_path: Path) -> None:
    """fio gets the run directory by descriptor, and a file beyond its file-size limit stops it."""
    work = tmp_path / "work"
    work.mkdir(mode=0o700)
    fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        place = FioPlace(
            directory_fd=fd, limits=FioLimits(64 << 20, largest_file_bytes=8 << 20, max_processes=8)
        )
        argv = ["fio", "--output-format=json", "--name=w", "--rw=write", "--bs=64k", "--size=4m"]
        fine = run_fio(
            [*argv, f"--directory=/proc/self/fd/{fd}/"],
            output_dir=tmp_path / "out",
            should_stop=lambda: False,
            place=place,
        )
        assert fine.exit_code == 0, fine.stderr_tail
        assert (work / "w.0.0").stat().st_size == 4 << 20
        # A file larger than the limit (as a job smuggled past the checks would make): the kernel stops it.
        too_big = run_fio(
            ["fio", "--name=big", "--rw=write", "--bs=1m", "--size=200m", f"--directory=/proc/self/fd/{fd}/"],
            output_dir=tmp_path / "out2",
            should_stop=lambda: False,
            place=FioPlace(
                directory_fd=fd, limits=FioLimits(64 << 20, largest_file_bytes=8 << 20, max_processes=8)
            ),
        )
        assert too_big.exit_code != 0
        assert (work / "big.0.0").stat().st_size <= 64 << 20
    finally:
        os.close(fd)


def test_fio_asking_for_more_memory_than_its_limit_fails(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    argv = [
        "fio",
        "--name=greedy",
        "--rw=read",
        "--bs=256m",
        "--iodepth=16",
        "--ioengine=null",  # no file I/O: only the 4 GiB of buffers it asks for
        "--size=1g",
        f"--directory={work}",
    ]
    outcome = run_fio(
        argv,
        output_dir=tmp_path / "out",
        should_stop=lambda: False,
        place=FioPlace(limits=FioLimits(64 << 20, largest_file_bytes=8 << 20, max_processes=8)),
    )
    assert outcome.exit_code != 0
    assert "memory" in outcome.stderr_tail.lower() or "alloc" in outcome.stderr_tail.lower()


def test_a_status_stream_keeps_only_reports_not_yet_collected_and_the_last(tmp_path: Path) -> None:
    """Hours of --status-interval output must not pile up in memory or on disk."""
    stream = StatusStream(max_report_bytes=1 << 20)
    report = '{\n  "jobs" : [ { "jobname" : "x", "read" : { "total_ios" : %d } } ]\n}\n'
    for number in range(3000):
        stream.feed((report % number).encode())
        if number % 100 == 0:
            stream.new_documents()
    assert len(stream.new_documents()) == 99
    assert stream.last_text is not None and "2999" in stream.last_text
    stream.feed(b"{" + b" " * (2 << 20))
    assert stream.oversized == 1
