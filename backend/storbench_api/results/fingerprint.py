"""What makes two results comparable, and a digest of it.

A result's comparability has five components: the job's options as they decide what fio measured
(read by the fio package: aliases folded, sizes and times written one way, fio's defaults filled
in; names, paths and output-only keys dropped), fio's version, the
host's class (CPU, memory, NIC speed), the mount the target lives on (file system, NFS version,
nconnect, rsize/wsize) and the storage (class and provisioned capacity). Two results with the same
fingerprint measured the same thing on the same kind of machine; results whose fingerprints differ
are shown with what differs before their numbers are set side by side.

Stored with each result as it is stored (results.service); compare reads them back.
"""

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from storbench_fio.reported import read_options
from storbench_protocol.facts import HostFacts, HostMount

# Options that name things or say where fio writes its logs and output: they change nothing measured.
_IGNORED = frozenset(
    {
        "name",
        "description",
        "filename",
        "filename_format",
        "directory",
        "opendir",
        "unique_filename",
        "write_bw_log",
        "write_lat_log",
        "write_iops_log",
        "write_hist_log",
        "log_avg_msec",
        "log_hist_msec",
        "log_hist_coarseness",
        "log_max_value",
        "log_offset",
        "log_compression",
        "log_unix_epoch",
        "log_alternate_epoch",
        "per_job_logs",
        "percentile_list",
        "clat_percentiles",
        "lat_percentiles",
        "slat_percentiles",
        "significant_figures",
        "output",
        "output-format",
        "status-interval",
        "new_group",
        "stats",
        "exitall",
        "exitall_on_error",
        "clocksource",
    }
)


def normalised_options(options: Mapping[str, object]) -> dict[str, str]:
    """fio's options as they decide what was measured (read by the fio package), names and logs dropped."""
    return {
        key: value
        for key, value in read_options(options).items()
        if key not in _IGNORED and not key.startswith("log_")
    }


def _fastest_nic_mbps(facts: HostFacts) -> int | None:
    speeds = [
        n.speed_mbps
        for n in facts.nics
        if n.speed_mbps and n.speed_mbps > 0 and (n.state or "up").lower() == "up"
    ]
    return max(speeds) if speeds else None


def host_class(facts: HostFacts | None) -> dict[str, Any]:
    """The kind of machine: CPU model and count, memory in whole GiB, fastest NIC's speed."""
    if facts is None:
        return {}
    memory = round(facts.memory_bytes / 2**30) if facts.memory_bytes else None
    found = {
        "cpu_model": facts.cpu_model,
        "cpu_count": facts.cpu_count,
        "memory_gib": memory,
        "nic_mbps": _fastest_nic_mbps(facts),
    }
    return {k: v for k, v in found.items() if v is not None}


def mount_of(facts: HostFacts | None, path: str | None) -> HostMount | None:
    """The mount a path lives on: the longest mount point above it."""
    if facts is None or not path:
        return None
    best: HostMount | None = None
    for mount in facts.mounts:
        root = mount.mountpoint.rstrip("/") or "/"
        inside = path == root or root == "/" or path.startswith(root + "/")
        if inside and (best is None or len(root) > len(best.mountpoint.rstrip("/") or "/")):
            best = mount
    return best


def mount_class(mount: HostMount | None) -> dict[str, Any]:
    """File system type and the mount options that change what a client gets from it."""
    if mount is None:
        return {}
    options = dict([*part.split("=", 1), ""][:2] for part in mount.options.split(",") if part.strip())
    found: dict[str, Any] = {"fstype": mount.fstype}
    version = options.get("vers") or options.get("nfsvers")
    if mount.fstype.startswith("nfs"):
        found["nfs_version"] = version or ("4" if mount.fstype == "nfs4" else None)
        found["nconnect"] = int(options["nconnect"]) if options.get("nconnect", "").isdigit() else 1
    elif version:
        found["version"] = version
    for key in ("rsize", "wsize"):
        if options.get(key, "").isdigit():
            found[key] = int(options[key])
    return {k: v for k, v in found.items() if v is not None}


# What a result also records of where it ran but does not fingerprint: a kernel upgrade or a remount
# with other options keeps the series (the trend would otherwise restart), and is named as a likely
# cause when the series changes level there (history.causes).
ENVIRONMENT = "environment"


def environment(facts: HostFacts | None, path: str | None) -> dict[str, Any]:
    """The host's kernel and OS, and the target's mount options as written."""
    if facts is None:
        return {}
    mount = mount_of(facts, path)
    found = {
        "kernel": facts.kernel,
        "os": facts.os,
        "mount_options": mount.options if mount is not None else None,
    }
    return {k: v for k, v in found.items() if v}


def comparability(
    *,
    options: Mapping[str, object],
    fio_version: str | None,
    facts: HostFacts | None = None,
    target_path: str | None = None,
    storage_class: str | None = None,
    capacity_gib: float | None = None,
) -> dict[str, Any]:
    """The components two results must share to compare fairly (imports have fewer of them)."""
    storage: dict[str, Any] = {}
    if storage_class:
        storage["class"] = storage_class
    if capacity_gib is not None:
        storage["capacity_gib"] = capacity_gib
    components: dict[str, Any] = {
        "job": normalised_options(options),
        "fio_version": fio_version,
        "host": host_class(facts),
        "mount": mount_class(mount_of(facts, target_path)),
        "storage": storage,
    }
    around = environment(facts, target_path)
    if around:
        components[ENVIRONMENT] = around
    return components


def fingerprint(components: Mapping[str, Any]) -> str:
    """sha256 (hex) of the components (the environment left out) as canonical JSON: equal, comparable."""
    digested = {k: v for k, v in components.items() if k != ENVIRONMENT}
    canonical = json.dumps(digested, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def of_result(
    *,
    options: Mapping[str, object],
    fio_version: str | None,
    facts: HostFacts | None,
    target_path: str | None,
    storage_class: str | None,
    capacity_gib: float | None,
) -> tuple[dict[str, Any], str]:
    """A result's comparability components and their fingerprint, as stored with it."""
    components = comparability(
        options=options,
        fio_version=fio_version,
        facts=facts,
        target_path=target_path,
        storage_class=storage_class,
        capacity_gib=capacity_gib,
    )
    return components, fingerprint(components)
