"""Facts about this host that make results comparable."""

import os
import platform
import socket
from collections.abc import Sequence
from pathlib import Path

from storbench_protocol.facts import HostFacts, HostMount, HostNic, PathSpace
from storbench_worker.devices import block_devices


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


def _mounts() -> list[HostMount]:
    """Real file systems (not proc/sys/cgroup noise), with their options."""
    mounts: list[HostMount] = []
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
            mounts.append(HostMount(source=source, mountpoint=mountpoint, fstype=fstype, options=options))
    return mounts


def _sunrpc_slots(name: str = "tcp_slot_table_entries") -> int | None:
    try:
        return int(Path("/proc/sys/sunrpc", name).read_text().strip())
    except (OSError, ValueError):
        return None


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _nics() -> list[HostNic]:
    """Network interfaces with their link speed (Mb/s; None when the driver does not say)."""
    nics = []
    root = Path("/sys/class/net")
    for nic in sorted(root.iterdir()) if root.is_dir() else []:
        if nic.name == "lo":
            continue
        speed = _read(nic / "speed")
        nics.append(
            HostNic(
                name=nic.name,
                speed_mbps=int(speed) if speed and speed.lstrip("-").isdigit() and int(speed) > 0 else None,
                mtu=int(mtu) if (mtu := _read(nic / "mtu")) and mtu.isdigit() else None,
                state=_read(nic / "operstate"),
            )
        )
    return nics


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def path_space(allowed_roots: Sequence[Path], mounts: Sequence[HostMount]) -> list[PathSpace]:
    """Free and total bytes of each allowed directory and of each mount point inside one.

    A file system boundary is always a mount point, so a target's free space is that of the
    longest of these paths containing it. Block devices and unreadable paths are left out.
    """
    roots = [str(root) for root in allowed_roots if Path(root).is_dir()]
    paths = roots + sorted(
        {m.mountpoint for m in mounts if any(_inside(m.mountpoint, r) and m.mountpoint != r for r in roots)}
    )
    spaces = []
    for path in paths:
        try:
            stat = os.statvfs(path)
        except OSError:
            continue
        spaces.append(
            PathSpace(
                path=path,
                free_bytes=stat.f_bavail * stat.f_frsize,
                total_bytes=stat.f_blocks * stat.f_frsize,
            )
        )
    return spaces


def collect_facts(allowed_roots: Sequence[Path] = ()) -> HostFacts:
    """Hostname, OS, CPU, memory, NICs, block devices, mounts and the paths this worker allows."""
    uname = platform.uname()
    mounts = _mounts()
    return HostFacts(
        hostname=socket.gethostname(),
        os=platform.platform(),
        kernel=uname.release,
        arch=uname.machine,
        cpu_model=_cpu_model(),
        cpu_count=os.cpu_count(),
        memory_bytes=_memory_bytes(),
        mounts=mounts,
        nics=_nics(),
        block_devices=block_devices(),
        allowed_roots=[str(root) for root in allowed_roots],
        path_space=path_space(allowed_roots, mounts),
        sunrpc_tcp_slot_table_entries=_sunrpc_slots(),
        sunrpc_tcp_max_slot_table_entries=_sunrpc_slots("tcp_max_slot_table_entries"),
    )
