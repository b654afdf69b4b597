"""Checks a host makes itself before running anything the server asks for."""

import os
import shutil
import stat
from pathlib import Path
from typing import Any

from storbench_fio.errors import FioJobError
from storbench_fio.job import FioJob, validate_job_dict

WRITE_MODES = frozenset({"write", "randwrite", "rw", "randrw", "trim", "randtrim", "trimwrite"})


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


def check_block_device_target(path: Path, jobs: list[FioJob], destructive: bool, host_name: str) -> None:
    """A block device must exist; writing to it needs the target marked destructive."""
    if not path.exists():
        raise CannotRun(f"block device {path} does not exist on host '{host_name}'")
    if not stat.S_ISBLK(path.stat().st_mode):
        raise CannotRun(f"{path} on host '{host_name}' is not a block device")
    writers = [job.name for job in jobs if job.rw in WRITE_MODES]
    if writers and not destructive:
        raise CannotRun(
            f"jobs {', '.join(writers)} would write to block device {path}, which is not marked destructive; "
            "only read jobs may run on it"
        )


def free_bytes(path: Path) -> int:
    """Free space available to this user at path."""
    return shutil.disk_usage(path).free
