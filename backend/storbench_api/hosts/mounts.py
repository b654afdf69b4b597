"""What a host's facts say about one path: its mount (with options), its free space, its platform.

Small and free of the database, so every domain that reads host facts can use it.
"""

import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from storbench_protocol.facts import HostMount, PathSpace

Platform = Literal["linux", "windows", "other"]


def _contains(directory: str, path: str) -> bool:
    directory = directory.rstrip("/") or "/"
    return directory == "/" or path == directory or path.startswith(directory + "/")


def _valid(model: type[BaseModel], item: Any) -> Any:
    try:
        return model.model_validate(item)
    except ValidationError:
        return None


def mount_for(facts: Mapping[str, Any] | None, path: str) -> HostMount | None:
    """The mount holding path: the longest mount point containing it (None when unknown)."""
    mounts = [m for item in (facts or {}).get("mounts") or [] if (m := _valid(HostMount, item))]
    holding = [m for m in mounts if _contains(m.mountpoint, path)]
    return max(holding, key=lambda m: len(m.mountpoint), default=None)


def free_bytes_for(facts: Mapping[str, Any] | None, path: str) -> int | None:
    """The free bytes of the file system holding path, as the host last reported (None: unknown)."""
    spaces = [s for item in (facts or {}).get("path_space") or [] if (s := _valid(PathSpace, item))]
    holding = [s for s in spaces if _contains(s.path, path)]
    best = max(holding, key=lambda s: len(s.path), default=None)
    return best.free_bytes if best is not None else None


def platform_of(facts: Mapping[str, Any] | None) -> Platform | None:
    """linux or windows from the OS the host reported (None before its first heartbeat)."""
    os_name = str((facts or {}).get("os") or "").lower()
    if not os_name:
        return None
    if os_name.startswith("windows") or "cygwin" in os_name or "mingw" in os_name:
        return "windows"
    if os_name.startswith("linux"):
        return "linux"
    return "other"


class MountOptions(BaseModel):
    """The mount options that change what a benchmark measures, read from a mount's option string."""

    fstype: str
    source: str
    mountpoint: str
    options: str
    nfs_version: str | None = None
    nconnect: int | None = None
    rsize: int | None = None
    wsize: int | None = None
    protocol: str | None = None


_INT = re.compile(r"^\d+$")


def describe_mount(mount: HostMount) -> MountOptions:
    """A mount with its NFS version, nconnect, rsize/wsize and transport picked out."""
    options: dict[str, str] = {}
    for item in mount.options.split(","):
        key, _, value = item.partition("=")
        options[key.strip()] = value.strip()
    version = options.get("vers") or options.get("nfsvers")
    if version is None and mount.fstype.startswith("nfs"):
        version = "4" if mount.fstype == "nfs4" else None

    def number(key: str) -> int | None:
        value = options.get(key, "")
        return int(value) if _INT.match(value) else None

    return MountOptions(
        fstype=mount.fstype,
        source=mount.source,
        mountpoint=mount.mountpoint,
        options=mount.options,
        nfs_version=version,
        nconnect=number("nconnect"),
        rsize=number("rsize"),
        wsize=number("wsize"),
        protocol=options.get("proto") or None,
    )
