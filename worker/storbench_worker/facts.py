"""Facts about this host that make results comparable."""

import os
import platform
import socket
from pathlib import Path
from typing import Any


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _memory_bytes() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


_NETWORK_FS = {"nfs", "nfs4", "cifs", "smb3", "fuse.sshfs", "ceph", "glusterfs", "lustre", "fuse"}


def _mounts() -> list[dict[str, str]]:
    """Real file systems (not proc/sys/cgroup noise), with their options."""
    mounts: list[dict[str, str]] = []
    try:
        lines = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return mounts
    for line in lines:
        parts = line.split()
        if len(parts) < 4:
            continue
        source, mountpoint, fstype, options = parts[:4]
        if source.startswith("/dev/") or fstype in _NETWORK_FS or fstype.startswith("nfs"):
            mounts.append({"source": source, "mountpoint": mountpoint, "fstype": fstype, "options": options})
    return mounts


def _sunrpc_slots() -> int | None:
    try:
        return int(Path("/proc/sys/sunrpc/tcp_slot_table_entries").read_text().strip())
    except (OSError, ValueError):
        return None


def collect_facts() -> dict[str, Any]:
    """Hostname, OS, CPU, memory and mounts of this host."""
    uname = platform.uname()
    return {
        "hostname": socket.gethostname(),
        "os": platform.platform(),
        "kernel": uname.release,
        "arch": uname.machine,
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "memory_bytes": _memory_bytes(),
        "mounts": _mounts(),
        "sunrpc_tcp_slot_table_entries": _sunrpc_slots(),
    }
