"""Facts about this host that make results comparable."""

import os
import platform
import socket
from collections.abc import Sequence
from pathlib import Path

from storbench_fio.confine import target_path_problem
from storbench_protocol.facts import HostFacts, HostMount, HostNic, PathSpace, TargetPathState
from storbench_worker.devices import block_devices

# At most this many target directories are looked at per heartbeat (a beat stays cheap).
MAX_TARGET_PATHS = 500


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


def _inside_allowed(path: str, allowed_roots: Sequence[Path]) -> str | None:
    """The path with symlinks resolved when it and that are inside an allowed root, else None.

    The path as given is judged before anything on disk is touched; then the path it resolves to
    (a link inside a root that points at /etc is outside, as the worker refuses it at run time).
    """
    if not allowed_roots or not os.path.isabs(path):
        return None
    given = os.path.normpath(path)
    roots = [str(root) for root in allowed_roots]
    if target_path_problem(given, "directory", roots) is not None:
        return None
    real = os.path.realpath(given)
    real_roots = list(dict.fromkeys(roots + [os.path.realpath(root) for root in roots]))
    if target_path_problem(real, "directory", real_roots) is not None:
        return None
    return real


def target_path_states(paths: Sequence[str], allowed_roots: Sequence[Path]) -> list[TargetPathState]:
    """Whether each target directory inside an allowed root exists, is a directory and is writable.

    Paths outside the allowed roots are left out: the server learns nothing about them.
    """
    states = []
    for path in list(dict.fromkeys(paths))[:MAX_TARGET_PATHS]:
        real = _inside_allowed(path, allowed_roots)
        if real is None:
            continue
        exists = os.path.exists(real)
        is_directory = exists and os.path.isdir(real)
        writable = is_directory and os.access(real, os.W_OK | os.X_OK)
        states.append(TargetPathState(path=path, exists=exists, is_directory=is_directory, writable=writable))
    return states


def collect_facts(allowed_roots: Sequence[Path] = (), target_paths: Sequence[str] | None = None) -> HostFacts:
    """Hostname, OS, CPU, memory, NICs, block devices, mounts and the paths this worker allows.

    With target_paths (what the server last asked about), the state of each inside an allowed root.
    """
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
        target_paths=target_path_states(target_paths, allowed_roots) if target_paths is not None else None,
        sunrpc_tcp_slot_table_entries=_sunrpc_slots(),
        sunrpc_tcp_max_slot_table_entries=_sunrpc_slots("tcp_max_slot_table_entries"),
    )
