"""Running fio as a child process group that can be stopped completely."""

import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from storbench_worker.limits import FioCgroup, FioLimits
from storbench_worker.progress import StatusStream
from storbench_worker.start_gate import StartGate, without_gate_notices


@dataclass(frozen=True)
class FioOutcome:
    """How fio ended and where its output is."""

    exit_code: int
    cancelled: bool
    # fio's last complete report (its result), or None when it wrote none.
    final_report: str | None
    stderr_tail: str
    started_monotonic: float
    ended_monotonic: float
    # CPU seconds the worker itself (all its threads, not fio) used while fio ran.
    worker_cpu_s: float = 0.0
    # False when fio was stopped (or ended) before its jobs were let through the start gate.
    released: bool = True

    @property
    def worker_cpu_percent(self) -> float | None:
        """The worker's own CPU use while fio ran, in percent of one core."""
        seconds = self.ended_monotonic - self.started_monotonic
        return round(100 * self.worker_cpu_s / seconds, 3) if seconds > 0 else None


# What fio inherits of the worker's environment: what any process needs, nothing else. The worker's
# may hold its token (STORBENCH_WORKER_TOKEN) or whatever its service manager gave it, and fio
# expands ${VARIABLES} in job options and runs as the target's benchmark: it needs none of them.
FIO_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")


def fio_environment() -> dict[str, str]:
    """fio's environment: the basics of the worker's own, no secret of it."""
    return {name: os.environ[name] for name in FIO_ENVIRONMENT if name in os.environ}


def fio_version(fio_binary: str = "fio") -> str | None:
    """The installed fio's version string (e.g. fio-3.33), or None when fio is missing."""
    try:
        done = subprocess.run(
            [fio_binary, "--version"], capture_output=True, text=True, timeout=10, env=fio_environment()
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def children_of(pid: int) -> list[int]:
    """Processes whose parent is pid (fio's job processes: each calls setsid, so no group holds them)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            after_name = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(after_name) > 1 and after_name[1] == str(pid):
            found.append(int(stat.parent.name))
    return found


# fio's job processes each call setsid(), so neither fio's process group nor a signal to fio on the
# worker's death reaches them (and fio killed while forking leaves jobs waiting forever for it).
# The guard exists before fio does. fio itself writes its pid to the guard's pipe before it execs;
# the worker writes "done" when fio has ended. Any death of the worker, even SIGKILL, closes the
# pipe instead: the guard stops fio (so it forks nothing more), then kills it and every process it
# forked. It stops fio only once the worker's death is complete (fio handed to a new parent): a
# stopped process in a process group orphaned at that moment gets SIGHUP from the kernel, which
# would end fio before the guard could see its children.
_GUARD_SCRIPT = """
read -r fio || exit 0
read -r word
[ "$word" = done ] && exit 0
tries=0
while [ "$tries" -lt 500 ] && read -r line 2>/dev/null < "/proc/$fio/stat"; do
  set -- ${line##*) }
  [ "$2" != "$PPID" ] && break
  tries=$((tries + 1))
  sleep 0.01
done
kill -s STOP -- "-$fio" 2>/dev/null
kids=
for stat in /proc/[0-9]*/stat; do
  read -r line 2>/dev/null < "$stat" || continue
  set -- ${line##*) }
  [ "$2" = "$fio" ] && { kid=${stat#/proc/}; kids="$kids ${kid%/stat}"; }
done
kill -s KILL -- "-$fio" $kids 2>/dev/null
"""


class GroupGuard:
    """A tiny shell process that stops fio and its job processes if the worker dies first."""

    def __init__(self) -> None:
        read_end, self._write_end = os.pipe()
        try:
            self._guard = subprocess.Popen(
                ["sh", "-c", _GUARD_SCRIPT, "storbench-fio-guard"],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            os.close(read_end)

    def prepare_child(self) -> None:
        """In fio's process, before exec: a process group of its own, and its pid told to the guard.

        Told by fio itself, there is no instant in which fio exists and the guard does not know it.
        """
        os.setpgid(0, 0)
        # fio has no use for hang-ups; ignoring them keeps a kernel SIGHUP from ending fio mid-cleanup.
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.write(self._write_end, f"{os.getpid()}\n".encode())

    def release(self) -> None:
        """fio has ended: let the guard go without killing anything."""
        try:
            os.write(self._write_end, b"done\n")
        except OSError:
            pass
        os.close(self._write_end)
        self._guard.wait()


class ExitWatch:
    """Sleeps until a process ends or a timeout passes: the kernel wakes us, nothing polls."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        try:
            self._pidfd: int | None = os.pidfd_open(process.pid)
        except (AttributeError, OSError):
            self._pidfd = None  # no pidfd (old kernel, not Linux): Popen.wait's own polling

    def ended_within(self, timeout: float) -> bool:
        """True once the process has ended (and been reaped)."""
        if self._process.returncode is not None:
            return True
        if self._pidfd is not None:
            ready, _, _ = select.select([self._pidfd], [], [], max(timeout, 0.0))
            if ready:
                self._process.wait()
            return bool(ready)
        try:
            self._process.wait(timeout=max(timeout, 0.0))
        except subprocess.TimeoutExpired:
            return False
        return True

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


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
    stragglers = []
    if process.returncode is None:
        try:
            os.killpg(process.pid, signal.SIGSTOP)  # no new job processes while we look for them
        except ProcessLookupError:
            pass
        stragglers = children_of(process.pid)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in stragglers:
        try:
            os.kill(pid, signal.SIGKILL)
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


@dataclass(frozen=True)
class GatedStart:
    """fio started at once, its jobs set up and waiting on the gate until the common start."""

    gate: StartGate
    jobs_waiting: int
    # Called once the jobs wait on the gate: the start (epoch seconds, this host's clock), or None
    # when fio must not start (the run was cancelled or failed elsewhere).
    start_time: Callable[[], float | None]


@dataclass(frozen=True)
class FioPlace:
    """Where fio runs: the run directory's descriptor (fio inherits it and works in it), and its limits."""

    directory_fd: int | None = None
    limits: FioLimits | None = None


class _OutputPump(threading.Thread):
    """Moves fio's standard output from a pipe into the status stream, as it is written."""

    def __init__(self, read_end: int, stream: StatusStream) -> None:
        super().__init__(name="storbench-fio-output", daemon=True)
        self._read_end = read_end
        self._stream = stream

    def run(self) -> None:
        try:
            while chunk := os.read(self._read_end, 1 << 16):
                self._stream.feed(chunk)
        finally:
            os.close(self._read_end)


def _child_setup(guard: GroupGuard, place: FioPlace, cgroup: FioCgroup | None) -> Callable[[], None]:
    """What fio's process does before exec: its group and guard, its directory, its limits."""

    def setup() -> None:
        guard.prepare_child()
        if place.directory_fd is not None:
            os.fchdir(place.directory_fd)
        if cgroup is not None:
            cgroup.join()
        if place.limits is not None:
            place.limits.apply_rlimits()

    return setup


def run_fio(
    argv: Sequence[str],
    output_dir: Path,
    should_stop: Callable[[], bool],
    poll_s: float = 1.0,
    on_started: Callable[[float], None] | None = None,
    next_check_in: Callable[[], float] | None = None,
    start_at: float | None = None,
    place: FioPlace = FioPlace(),
    stream: StatusStream | None = None,
    gated: GatedStart | None = None,
) -> FioOutcome:
    """Run fio to the end, or until should_stop() says so (checked every poll_s).

    fio's output goes to `stream` as it is written (never to a growing file); its last report is
    the outcome's final_report. start_at (epoch seconds, this host's clock) is when to start fio;
    on_started gets the wall time fio was started at, once the process exists; next_check_in, when
    given, says how long to wait before the next should_stop() instead (at most poll_s). With
    `gated`, fio starts at once and its jobs are let go at gated.start_time() (start_at unused).
    """
    output_dir.mkdir(parents=True, exist_ok=True)
    stream = stream or StatusStream()
    stderr_path = output_dir / "fio-stderr.txt"
    cgroup = FioCgroup(place.limits) if place.limits is not None else None
    guard = GroupGuard()  # before the start moment: starting it costs fio's start nothing
    read_end, write_end = os.pipe()
    pump = _OutputPump(read_end, stream)
    pump.start()
    try:
        with stderr_path.open("wb") as err:
            if start_at is not None and gated is None:
                wait_until(start_at)
            process = _launch(argv, output_dir, write_end, err, place, guard, cgroup)
            started = time.monotonic()
            cpu_at_start = time.process_time()
            watch = ExitWatch(process)
            try:
                released = gated is None or _release_at_start(process, gated)
                started_wall = time.time()
                if released:
                    started = time.monotonic()
                    cpu_at_start = time.process_time()
                    if on_started is not None:
                        on_started(started_wall)
                    cancelled = _wait_or_stop(process, watch, should_stop, poll_s, next_check_in)
                else:
                    cancelled = process.poll() is None  # still running: stopped below, never let go
            finally:
                # Whatever happens to us, fio must not outlive the task.
                if process.poll() is None:
                    stop_process_group(process)
                worker_cpu_s = time.process_time() - cpu_at_start
                ended = time.monotonic()
                watch.close()
    finally:
        guard.release()
        pump.join(timeout=10)
        if cgroup is not None:
            cgroup.close()
    stream.finish()
    stderr_tail = (without_gate_notices(stream.other_tail) + _tail(stderr_path, 4000))[-4000:]
    if stream.oversized:
        stderr_tail += f"\nstorbench: {stream.oversized} fio report(s) over the size limit were dropped"
    return FioOutcome(
        exit_code=process.returncode,
        cancelled=cancelled,
        final_report=stream.last_text,
        stderr_tail=stderr_tail,
        started_monotonic=started,
        ended_monotonic=ended,
        worker_cpu_s=worker_cpu_s,
        released=released,
    )


def _release_at_start(process: subprocess.Popen[bytes], gated: GatedStart) -> bool:
    """Wait for fio's jobs at the gate, then for the start, and let them go; False if they never go."""
    if not gated.gate.wait_for(gated.jobs_waiting, lambda: process.poll() is None):
        return False  # fio ended while setting up: its stderr says why
    start_at = gated.start_time()
    if start_at is None:
        return False
    wait_until(start_at)
    gated.gate.open()
    return True


def _launch(
    argv: Sequence[str],
    output_dir: Path,
    stdout_fd: int,
    stderr: IO[bytes],
    place: FioPlace,
    guard: GroupGuard,
    cgroup: FioCgroup | None,
) -> subprocess.Popen[bytes]:
    """Start fio in output_dir writing to stdout_fd, which is closed here whether or not it starts."""
    try:
        return subprocess.Popen(
            list(argv),
            cwd=output_dir,
            stdout=stdout_fd,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            env=fio_environment(),
            pass_fds=() if place.directory_fd is None else (place.directory_fd,),
            preexec_fn=_child_setup(guard, place, cgroup),
        )
    finally:
        os.close(stdout_fd)


def _wait_or_stop(
    process: subprocess.Popen[bytes],
    watch: ExitWatch,
    should_stop: Callable[[], bool],
    poll_s: float,
    next_check_in: Callable[[], float] | None,
) -> bool:
    """Wait for fio to end, stopping it when should_stop() says so; True when it was stopped."""
    while not watch.ended_within(poll_s if next_check_in is None else min(next_check_in(), poll_s)):
        if should_stop():
            stop_process_group(process)
            return True
    return False


def _tail(path: Path, size: int) -> str:
    """The last size bytes of a file, without reading the rest."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - size))
            return handle.read().decode(errors="replace")
    except OSError:
        return ""
