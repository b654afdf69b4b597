"""Checks a host makes itself before running anything the server asks for."""

import os
import shutil
import stat
from pathlib import Path

from storbench_fio.confine import target_path_problem
from storbench_fio.errors import FioJobError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety
from storbench_protocol.assignments import AssignmentTarget, FioJobOptions, TargetKind
from storbench_worker.devices import device_in_use


class CannotRun(Exception):
    """The assignment cannot run on this host; the message says why and what to do."""


def resolved_target(
    path_text: str, kind: TargetKind, allowed_roots: tuple[Path, ...], host_name: str
) -> Path:
    """The target's real path, refused unless it is inside what this host allows (symlinks resolved).

    The path as given and the path it resolves to must both pass: a link inside an allowed root
    that points at /etc is refused like /etc.
    """
    roots = list(
        dict.fromkeys([str(root) for root in allowed_roots] + [os.path.realpath(r) for r in allowed_roots])
    )
    real = os.path.realpath(path_text)
    for shown in dict.fromkeys((path_text, real)):
        problem = target_path_problem(shown, kind, roots)
        if problem is not None:
            raise CannotRun(f"target {path_text} refused by host '{host_name}': {problem}")
    return Path(real)


def validated_jobs(raw_jobs: list[FioJobOptions]) -> list[FioJob]:
    """The server's jobs checked again here: a host trusts no one with its disks."""
    jobs = []
    for raw in raw_jobs:
        try:
            jobs.append(validate_job_dict(raw))
        except FioJobError as exc:
            raise CannotRun(f"job {raw.get('name', '?')!r} refused by the worker: {exc}") from exc
    return jobs


def check_directory_target(path: Path, host_name: str) -> None:
    """The target directory must exist, be a directory (not a link to one) and be writable."""
    if not path.exists():
        raise CannotRun(
            f"target path {path} does not exist on host '{host_name}': create it or fix the target"
        )
    if path.is_symlink() or not path.is_dir():
        raise CannotRun(f"target path {path} on host '{host_name}' is not a directory")
    if not os.access(path, os.W_OK | os.X_OK):
        raise CannotRun(f"the worker on host '{host_name}' cannot write to {path}: fix its permissions")


def check_block_device_target(path: Path, host_name: str) -> None:
    """A block device target must exist and be one (writes are judged by check_safety)."""
    if not path.exists():
        raise CannotRun(f"block device {path} does not exist on host '{host_name}'")
    if not stat.S_ISBLK(path.stat().st_mode):
        raise CannotRun(f"{path} on host '{host_name}' is not a block device")


def free_bytes(path: Path) -> int:
    """Free space available to this user at path."""
    return shutil.disk_usage(path).free


def check_safety(
    jobs: list[FioJob],
    target: AssignmentTarget,
    path: Path,
    limits: SafetyLimits,
    check_free_space: bool = True,
    host_count: int = 1,
) -> None:
    """The fio package's safety rules, with what only the host knows: free space, memory, devices."""
    is_device = target.kind == "block_device"
    if is_device:
        in_use = device_in_use(path)
        if in_use is not None:
            raise CannotRun(f"{path} is not free to benchmark: {in_use}")
    safety_target = SafetyTarget(
        kind="block_device" if is_device else "directory",
        path=str(path),
        destructive=target.destructive,
        confirmed_destructive=target.confirmed_destructive,
        free_bytes=None if is_device or not check_free_space else free_bytes(path),
        host_memory_bytes=memory_bytes(),
        host_count=host_count,
    )
    problems = check_jobs_safety(jobs, safety_target, limits)
    if problems:
        raise CannotRun("refused by the worker's safety checks: " + "; ".join(str(p) for p in problems))


def memory_bytes() -> int | None:
    """This host's memory."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return None
