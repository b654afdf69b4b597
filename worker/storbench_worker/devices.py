"""Block devices of this host and whether something else uses them (never a target if so)."""

import os
import shutil
import subprocess
from pathlib import Path

from storbench_protocol.facts import HostBlockDevice

SYS_BLOCK = Path("/sys/class/block")
# Signatures of devices that belong to a pool or serve as swap, as blkid names them.
_POOL_SIGNATURES = {
    "LVM2_member": "an LVM physical volume",
    "linux_raid_member": "part of an md RAID array",
    "zfs_member": "part of a ZFS pool",
    "ceph_bluestore": "a Ceph OSD",
    "bcache": "a bcache device",
    "crypto_LUKS": "a LUKS encrypted volume",
    "swap": "swap space",
}


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _partitions(name: str) -> list[str]:
    """Partition names of a whole device (vdb -> vdb1, vdb2)."""
    root = SYS_BLOCK / name
    try:
        return sorted(p.name for p in root.iterdir() if (p / "partition").exists())
    except OSError:
        return []


def _mounted_sources(mounts_file: Path) -> set[str] | None:
    try:
        lines = mounts_file.read_text().splitlines()
    except OSError:
        return None
    return {os.path.realpath(line.split(" ", 1)[0]) for line in lines if line.startswith("/dev/")}


def _swap_devices(swaps_file: Path) -> set[str] | None:
    try:
        lines = swaps_file.read_text().splitlines()[1:]
    except OSError:
        return None
    return {os.path.realpath(line.split()[0]) for line in lines if line.split()}


def _signature(device: str) -> str | None:
    """The signature blkid probes on the device (file system, pool member, swap), when blkid exists."""
    blkid = shutil.which("blkid")
    if blkid is None:
        return None
    try:
        done = subprocess.run(
            [blkid, "-p", "-o", "value", "-s", "TYPE", device], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def device_in_use(
    device: Path,
    mounts_file: Path = Path("/proc/mounts"),
    swaps_file: Path = Path("/proc/swaps"),
    probe_signature: bool = True,
) -> str | None:
    """Why the device (or one of its partitions) is in use, or None when nothing uses it.

    Mounted, swap, held by device-mapper/md/LVM (its holders), or carrying a pool member's
    signature: any of these means another system's data lives there.
    """
    real = os.path.realpath(device)
    name = os.path.basename(real)
    members = [name, *_partitions(name)]
    mounted = _mounted_sources(mounts_file)
    if mounted is None:
        return f"cannot read {mounts_file} to tell whether {real} is mounted"
    swaps = _swap_devices(swaps_file) or set()
    for member in members:
        path = f"/dev/{member}"
        if path in mounted:
            return f"{path} is mounted"
        if path in swaps:
            return f"{path} is used as swap"
        try:
            holders = sorted(p.name for p in (SYS_BLOCK / member / "holders").iterdir())
        except OSError:
            holders = []
        if holders:
            return f"{path} is held by {', '.join(holders)} (LVM, md RAID or device-mapper)"
        if probe_signature:
            signature = _signature(path)
            if signature in _POOL_SIGNATURES:
                return f"{path} is {_POOL_SIGNATURES[signature]}"
    return None


def block_devices(probe_signature: bool = False) -> list[HostBlockDevice]:
    """Whole devices and their partitions: size, rotational, model, scheduler and what uses them."""
    devices = []
    root = Path("/sys/block")
    for device in sorted(root.iterdir()) if root.is_dir() else []:
        if device.name.startswith(("loop", "ram", "zram")):
            continue
        scheduler = _read(device / "queue" / "scheduler") or ""
        active = (
            scheduler[scheduler.find("[") + 1 : scheduler.find("]")]
            if "[" in scheduler
            else scheduler or None
        )
        for name in (device.name, *_partitions(device.name)):
            sectors = _read(SYS_BLOCK / name / "size")
            devices.append(
                HostBlockDevice(
                    name=name,
                    path=f"/dev/{name}",
                    parent=None if name == device.name else device.name,
                    size_bytes=int(sectors) * 512 if sectors and sectors.isdigit() else None,
                    rotational=_read(device / "queue" / "rotational") == "1",
                    model=_read(device / "device" / "model"),
                    scheduler=active,
                    in_use=device_in_use(Path(f"/dev/{name}"), probe_signature=probe_signature),
                )
            )
    return devices
