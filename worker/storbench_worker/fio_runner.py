"""Running fio as a child process group that can be stopped completely."""

import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FioOutcome:
    """How fio ended and where its output is."""

    exit_code: int
    cancelled: bool
    stdout_path: Path
    stderr_tail: str
    started_monotonic: float
    ended_monotonic: float

    def stdout(self) -> str:
        """fio's standard output (its JSON report)."""
        return self.stdout_path.read_text(errors="replace")


def fio_version(fio_binary: str = "fio") -> str | None:
    """The installed fio's version string (e.g. fio-3.33), or None when fio is missing."""
    try:
        done = subprocess.run([fio_binary, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


_PR_SET_PDEATHSIG = 1


def _own_group_dying_with_parent() -> None:
    """In the child: a process group of its own, killed if the worker dies first."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the worker's own cleanup still stops fio


def stop_process_group(process: subprocess.Popen[bytes], grace_s: float = 1.0) -> None:
    """SIGINT fio's group so it writes its report, then SIGKILL whatever is left."""
    try:
        os.killpg(process.pid, signal.SIGINT)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def wait_until(wall_time: float) -> None:
    """Sleep until the given epoch time, finishing with a short spin for precision.

    The spin is kept to ~2 ms: several hosts' workers may share few cores in tests and benchmarks.
    """
    while (remaining := wall_time - time.time()) > 0.003:
        time.sleep(remaining - 0.002)
    while time.time() < wall_time:
        pass


def run_fio(
    argv: Sequence[str],
    cwd: Path,
    output_dir: Path,
    should_stop: Callable[[], bool],
    poll_s: float = 1.0,
    on_started: Callable[[float], None] | None = None,
) -> FioOutcome:
    """Run fio to the end, or until should_stop() says so (checked every poll_s).

    on_started gets the wall time fio was started at, once the process exists.
    """
    output_dir.mkdir(parents=True, exist_ok=True)
    stdout_path = output_dir / "fio-stdout.json"
    stderr_path = output_dir / "fio-stderr.txt"
    started = time.monotonic()
    cancelled = False
    with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            preexec_fn=_own_group_dying_with_parent,
        )
        started_wall = time.time()
        try:
            if on_started is not None:
                on_started(started_wall)
            next_check = time.monotonic() + poll_s
            while process.poll() is None:
                time.sleep(min(0.1, poll_s))
                if time.monotonic() >= next_check:
                    next_check = time.monotonic() + poll_s
                    if should_stop():
                        cancelled = True
                        stop_process_group(process)
                        break
        finally:
            # Whatever happens to us, fio must not outlive the task.
            if process.poll() is None:
                stop_process_group(process)
    ended = time.monotonic()
    stderr_tail = stderr_path.read_text(errors="replace")[-4000:]
    return FioOutcome(
        exit_code=process.returncode,
        cancelled=cancelled,
        stdout_path=stdout_path,
        stderr_tail=stderr_tail,
        started_monotonic=started,
        ended_monotonic=ended,
    )
