"""The start gate: fio fully set up and waiting before the barrier, released at the common start.

Started at the barrier's time, fio would still parse its jobs, fork its job processes (its main
process then sleeps 100 ms before letting them go on) and open its files after it: 30-50 ms that
differ from host to host. So the worker starts fio before it reports ready, with every job told to
wait, once set up, on a lock the worker holds (fio's exec_prerun runs `flock -s` on it after the
job's files are set up, right before its first I/O). The worker releases the lock at the start
time: what follows is only each job's first I/O. Jobs of later stonewall groups pass the open gate.

fio adds `> NAME.prerun.txt 2>&1` to the command for a shell; the trailing ` #` makes that a comment,
so fio writes no file and the job name never reaches the shell as anything but a comment.
"""

import fcntl
import os
import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from storbench_fio.job import FioJob

# Where fio's job processes are allowed to take to reach the gate after fio starts (a slow host
# setting up many jobs); beyond it the start goes on with whoever is there.
GATE_WAIT_S = 60.0


def without_gate_notices(text: str) -> str:
    """fio's output without its "NAME : Saving output of prerun in NAME.prerun.txt" lines (none is saved)."""
    return "".join(
        line for line in text.splitlines(keepends=True) if " : Saving output of prerun in " not in line
    )


def gate_available() -> bool:
    """The gate needs flock(1) (util-linux), on every Linux that runs fio."""
    return shutil.which("flock") is not None


def jobs_at_first_gate(jobs: Sequence[FioJob]) -> int:
    """How many job processes reach the gate before the start: the first stonewall group's.

    Jobs with a startdelay are forked by fio only once the delay has passed (after the start).
    """
    count = 0
    for index, job in enumerate(jobs):
        if index and job.stonewall:
            break
        if not job.startdelay:
            count += job.numjobs or 1
    return count


class StartGate:
    """An exclusive lock the worker holds, which fio's jobs wait on (shared) until it is released."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "start.lock"
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        opened = os.fstat(self._fd)
        # How /proc/locks names this file: major:minor (hex) and inode.
        self._key = f"{os.major(opened.st_dev):02x}:{os.minor(opened.st_dev):02x}:{opened.st_ino} "

    @property
    def fio_args(self) -> tuple[str, ...]:
        """fio's global option making every job wait here once set up."""
        # The shell becomes flock (exec), which locks the file it opened as descriptor 9 and exits:
        # once released, one process ends and the job goes on (no `true` to fork, no shell left).
        return (f"--exec_prerun=exec flock -s 9 9<{shlex.quote(str(self.path))} #",)

    def waiting(self) -> int:
        """Job processes blocked on the gate now (the kernel's list of blocked lock requests)."""
        try:
            with open("/proc/locks") as locks:
                return sum(1 for line in locks if " -> " in line and self._key in line)
        except OSError:
            return 0

    def wait_for(
        self, expected: int, fio_running: Callable[[], bool], timeout_s: float = GATE_WAIT_S
    ) -> bool:
        """Wait until `expected` job processes wait here; False when fio ended first."""
        deadline = time.monotonic() + timeout_s
        pause = 0.002
        while self.waiting() < expected:
            if not fio_running():
                return False
            if time.monotonic() > deadline:
                return True  # go on: the late ones start when they get here
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        return True

    def open(self) -> None:
        """Let every waiting job go, and every later one through."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """Open the gate (nothing may stay blocked on it) and remove its file."""
        self.open()
        self.path.unlink(missing_ok=True)
