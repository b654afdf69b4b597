"""Running the real fio, and stopping it completely."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from storbench_worker.fio_runner import fio_version, run_fio


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
    outcome = run_fio(argv, cwd=work, output_dir=tmp_path / "out", should_stop=lambda: False, poll_s=0.2)
    assert outcome.exit_code == 0
    assert not outcome.cancelled
    assert '"jobname" : "w"' in outcome.stdout()


def test_stopping_ends_fio_quickly_with_a_partial_report(tmp_path: Path) -> None:
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
    asked_at: list[float] = []

    def stop_after_a_second() -> bool:
        if time.monotonic() - started > 1.0:
            asked_at.append(time.monotonic())
            return True
        return False

    started = time.monotonic()
    outcome = run_fio(
        argv, cwd=work, output_dir=tmp_path / "out", should_stop=stop_after_a_second, poll_s=0.2
    )
    assert outcome.cancelled
    assert outcome.ended_monotonic - asked_at[0] < 2.0
    assert not _fio_processes_in(work)
    assert '"jobs"' in outcome.stdout()


def test_a_bad_option_is_reported_on_stderr(tmp_path: Path) -> None:
    argv = ["fio", "--name=x", "--rw=sideways", f"--directory={tmp_path}"]
    outcome = run_fio(argv, cwd=tmp_path, output_dir=tmp_path / "out", should_stop=lambda: False)
    assert outcome.exit_code != 0
    assert "sideways" in outcome.stderr_tail


# A stand-in for the worker: runs fio through run_fio and says when fio has started.
_WORKER_SCRIPT = """
import sys
from pathlib import Path
from storbench_worker.fio_runner import run_fio
work = Path(sys.argv[1])
run_fio(
    sys.argv[2:], cwd=work, output_dir=work.parent / "out", should_stop=lambda: False,
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
