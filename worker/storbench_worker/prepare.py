"""Checks a host makes itself before running anything the server asks for."""

import os
import shutil
import stat
from pathlib import Path
from typing import Any

from storbench_fio.errors import FioJobError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety


class CannotRun(Exception):
    """The assignment cannot run on this host; the message says why and what to do."""


def within(path: Path, root: Path) -> bool:
    """True when path is root or inside it (after resolving symlinks)."""
    return path == root or root in path.parents


def check_allowed(path: Path, allowed_roots: tuple[Path, ...], host_name: str) -> None:
    """Refuse paths outside the roots this host was configured to allow."""
    if not allowed_roots:
        return
    resolved = path.resolve()
    if not any(within(resolved, root.resolve()) for root in allowed_roots):
        roots = ", ".join(str(r) for r in allowed_roots)
        raise CannotRun(
            f"{path} is outside the paths host '{host_name}' allows ({roots}); "
            "start its worker with --allow for this path"
        )


def validated_jobs(raw_jobs: list[dict[str, Any]]) -> list[FioJob]:
    """The server's jobs checked again here: a host trusts no one with its disks."""
    jobs = []
    for raw in raw_jobs:
        try:
            jobs.append(validate_job_dict(raw))
        except FioJobError as exc:
            raise CannotRun(f"job {raw.get('name', '?')!r} refused by the worker: {exc}") from exc
    return jobs


def check_directory_target(path: Path, host_name: str) -> None:
    """The target directory must exist and be writable."""
    if not path.exists():
        raise CannotRun(
            f"target path {path} does not exist on host '{host_name}': create it or fix the target"
        )
    if not path.is_dir():
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


def device_is_mounted(device: Path, mounts_file: Path = Path("/proc/mounts")) -> bool:
    """True when the device or one of its partitions is mounted (writing it would corrupt a file system)."""
    resolved = str(device.resolve())
    try:
        lines = mounts_file.read_text().splitlines()
    except OSError:
        return True  # cannot tell: assume the worst
    for line in lines:
        source = line.split(" ", 1)[0]
        if not source.startswith("/dev/"):
            continue
        mounted = os.path.realpath(source)
        rest = mounted[len(resolved) :] if mounted.startswith(resolved) else None
        if rest is not None and (rest == "" or rest.isdigit() or (rest[:1] == "p" and rest[1:].isdigit())):
            return True
    return False


def check_safety(
    jobs: list[FioJob], target: dict[str, Any], limits: SafetyLimits, check_free_space: bool = True
) -> None:
    """The fio package's safety rules, with what only the host knows: free space and mounts."""
    path = Path(target["path"])
    is_device = target["kind"] == "block_device"
    safety_target = SafetyTarget(
        kind="block_device" if is_device else "directory",
        path=str(path),
        destructive=bool(target.get("destructive")),
        confirmed_destructive=bool(target.get("confirmed_destructive")),
        free_bytes=None if is_device or not check_free_space else free_bytes(path),
        mounted=device_is_mounted(path) if is_device else False,
    )
    problems = check_jobs_safety(jobs, safety_target, limits)
    if problems:
        raise CannotRun("refused by the worker's safety checks: " + "; ".join(str(p) for p in problems))
