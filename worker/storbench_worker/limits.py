"""Limits fio runs under, so no job can exhaust the host whatever it asks for.

With cgroup v2 (memory and pids controllers delegated to us) fio and every process it forks share
one cgroup with memory.max and pids.max; without it, each fio process gets resource limits
(address space, largest file, no core dumps) that the kernel enforces.
"""

import logging
import os
import resource
import secrets
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
# What fio itself maps before any buffer: its shared memory pools, libraries and stacks (~0.4 GiB
# measured for fio 3.33), with room to spare.
FIO_BASE_ADDRESS_SPACE = 1 << 30
# fio's stderr is a file too; its limit must leave room for messages.
MIN_FILE_BYTES = 64 << 20


@dataclass(frozen=True)
class FioLimits:
    """The ceilings of one fio run, computed from what its jobs were allowed to ask for."""

    memory_bytes: int
    largest_file_bytes: int
    max_processes: int

    @property
    def address_space_bytes(self) -> int:
        return FIO_BASE_ADDRESS_SPACE + self.memory_bytes

    def apply_rlimits(self) -> None:
        """In fio's process before exec: limits the kernel enforces per process."""
        resource.setrlimit(resource.RLIMIT_AS, (self.address_space_bytes, self.address_space_bytes))
        file_bytes = max(self.largest_file_bytes, MIN_FILE_BYTES)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class FioCgroup:
    """A cgroup v2 for one fio run (memory.max, pids.max), when this host delegates one to us."""

    def __init__(self, limits: FioLimits, parent: Path | None = None) -> None:
        self.path: Path | None = None
        parent = parent or own_cgroup()
        if parent is None:
            return
        path = parent / f"storbench-fio-{secrets.token_hex(6)}"
        try:
            path.mkdir()
            (path / "memory.max").write_text(f"{FIO_BASE_ADDRESS_SPACE // 2 + limits.memory_bytes}\n")
            (path / "pids.max").write_text(f"{limits.max_processes}\n")
            if (path / "memory.swap.max").exists():
                (path / "memory.swap.max").write_text("0\n")
        except OSError as exc:
            log.info("no cgroup for fio (%s); resource limits only", exc)
            self.remove(path)
            return
        self.path = path

    def join(self) -> None:
        """In fio's process before exec: move into the cgroup (its children follow)."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(f"{os.getpid()}\n")

    def close(self) -> None:
        """Remove the cgroup once fio and its children are gone."""
        if self.path is not None:
            self.remove(self.path)
            self.path = None

    @staticmethod
    def remove(path: Path) -> None:
        try:
            path.rmdir()
        except OSError:
            pass


def own_cgroup(root: Path = CGROUP_ROOT) -> Path | None:
    """The cgroup v2 directory under which fio's cgroups are made, or None without cgroup v2 with
    the memory and pids controllers enabled for children."""
    try:
        controllers = (root / "cgroup.controllers").read_text().split()
        line = next(
            (x for x in Path("/proc/self/cgroup").read_text().splitlines() if x.startswith("0::")), None
        )
    except OSError:
        return None
    if line is None or not {"memory", "pids"} <= set(controllers):
        return None
    here = root / line[3:].lstrip("/")
    try:
        enabled = (here / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    if not {"memory", "pids"} <= set(enabled) or not os.access(here, os.W_OK):
        return None
    return here
