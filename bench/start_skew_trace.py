"""When each fio job process issued its first I/O, from the kernel's trace (for bench/start_skew.py).

fio 3.33 reports no per-job start time of its own (`job_start` came later), and a job process's
fork time says nothing once storbench forks them before the barrier. The kernel's syscall trace
does: the first pread64 of each job process, on CLOCK_MONOTONIC with microsecond resolution, the
same clock for every host on this machine. It uses a tracing instance of its own (other users of
ftrace are not disturbed) that keeps the earliest events when full, and removes it afterwards
(and unmounts tracefs if it mounted it). Needs root.
"""

import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

TRACEFS = Path("/sys/kernel/tracing")
EVENT = "events/syscalls/sys_enter_pread64"
# "fio-12345 [001] ..... 8123.456789: sys_pread64(fd: ...": the pid and the time in seconds.
_LINE = re.compile(r"-(\d+)\s+\[\d+\]\s+\S+\s+(\d+\.\d+): sys_pread64\(")


class IoStartTrace:
    """A tracing instance recording fio's pread64 calls; one round at a time."""

    def __init__(self, instance: Path) -> None:
        self.instance = instance

    def start_round(self) -> None:
        """Forget the last round and record from now."""
        (self.instance / EVENT / "enable").write_text("0")
        (self.instance / "trace").write_text("")
        (self.instance / EVENT / "enable").write_text("1")

    def first_io(self, pids: Iterable[int]) -> dict[int, float]:
        """Stop recording; each of these processes' first I/O (monotonic seconds), if it made one."""
        (self.instance / EVENT / "enable").write_text("0")
        wanted = set(pids)
        first: dict[int, float] = {}
        with (self.instance / "trace").open() as trace:
            for line in trace:
                match = _LINE.search(line)
                if match and int(match[1]) in wanted:
                    first.setdefault(int(match[1]), float(match[2]))
        return first


@contextmanager
def io_start_trace(buffer_kb: int = 8192) -> Iterator[IoStartTrace]:
    """A private ftrace instance for fio's first I/Os; everything it sets up is undone on exit."""
    if os.geteuid() != 0:
        raise SystemExit("start_skew measures first I/Os with ftrace: run it as root")
    mounted = False
    if not (TRACEFS / "instances").is_dir():
        subprocess.run(["mount", "-t", "tracefs", "nodev", str(TRACEFS)], check=True)
        mounted = True
    instance = TRACEFS / "instances" / f"storbench-skew-{os.getpid()}"
    try:
        instance.mkdir()
        try:
            (instance / "trace_clock").write_text("mono")
            (instance / "buffer_size_kb").write_text(str(buffer_kb))
            (instance / "options" / "overwrite").write_text("0")  # when full, keep the first events
            (instance / EVENT / "filter").write_text('comm == "fio"')
            yield IoStartTrace(instance)
        finally:
            (instance / EVENT / "enable").write_text("0")
            instance.rmdir()
    finally:
        if mounted:
            subprocess.run(["umount", str(TRACEFS)], check=False)


def job_processes(pids: Iterable[int]) -> set[int]:
    """fio's job processes among these: each calls setsid(), so it leads a session of its own.

    fio's main process (or a server's backend) is no session leader; it makes no I/O of the jobs
    but reads a few things with pread64 as it starts, long before the jobs do.
    """
    found = set()
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == pid:  # the session id
            found.add(pid)
    return found


def descendants(roots: Iterable[int]) -> set[int]:
    """Every living process below these (fio's job processes sit below a server or a worker)."""
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent_of[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    found: set[int] = set()
    frontier = set(roots)
    while frontier:
        found |= frontier
        frontier = {pid for pid, parent in parent_of.items() if parent in frontier} - found
    return found - set(roots)


def fio_working_under(marker: str) -> set[int]:
    """fio processes whose current directory's path contains marker (a run directory's prefix)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "fio" and marker in os.readlink(entry / "cwd"):
                found.add(int(entry.name))
        except OSError:
            continue
    return found


def spread_s(first: dict[int, float]) -> float:
    """Latest first I/O minus earliest, in seconds."""
    return max(first.values()) - min(first.values())
