"""What makes two results comparable, and a digest of it.

A result's comparability has five components: the job's options as they decide what fio measured
(names, paths and output-only keys dropped, sizes and times written one way), fio's version, the
host's class (CPU, memory, NIC speed), the mount the target lives on (file system, NFS version,
nconnect, rsize/wsize) and the storage (class and provisioned capacity). Two results with the same
fingerprint measured the same thing on the same kind of machine; results whose fingerprints differ
are shown with what differs before their numbers are set side by side.
"""

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from storbench_fio.units import parse_bool, parse_size, parse_time_us
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
# Spelled two ways by fio; kept under one name.
_ALIASES = {
    "blocksize": "bs",
    "readwrite": "rw",
    "iodepth_batch": "iodepth_batch_submit",
    "blocksize_range": "bsrange",
    "blockalign": "ba",
}
_SIZE_KEYS = frozenset(
    {"bs", "ba", "size", "filesize", "io_size", "io_limit", "offset", "offset_increment", "bsrange"}
)
_TIME_KEYS = frozenset({"runtime", "ramp_time", "startdelay", "thinktime"})
_BOOL_KEYS = frozenset({"direct", "buffered", "time_based", "group_reporting", "norandommap", "sync"})
_LOWER_KEYS = frozenset({"rw", "ioengine", "random_distribution", "verify"})
# The job shape: results differing in these measured different things (never grouped together).
SHAPE_KEYS = ("rw", "bs", "iodepth", "numjobs")
_SHAPE_DEFAULTS = {"rw": "read", "bs": "4096", "iodepth": "1", "numjobs": "1"}


def _size_text(text: str) -> str:
    """'4k' → '4096'; '4k,64k' → '4096,65536'; '4k-16k' → '4096-16384'; unreadable text kept."""
    parts = []
    for part in re.split(r"([,:-])", text.strip()):
        if part in (",", ":", "-") or part == "":
            parts.append(part)
            continue
        try:
            parts.append(str(parse_size(part, allow_zero=True)))
        except ValueError:
            if "%" in part:
                parts.append(part)
            else:
                return text.strip().lower()
    return "".join(parts)


def _normal_value(key: str, value: object) -> str:
    text = str(value).strip()
    try:
        if key in _SIZE_KEYS:
            return _size_text(text)
        if key in _TIME_KEYS:
            return str(parse_time_us(text) / 1_000_000)
        if key in _BOOL_KEYS:
            return "1" if parse_bool(text) else "0"
    except ValueError:
        return text
    if key in _LOWER_KEYS:
        return text.lower()
    return text


def normalised_options(options: Mapping[str, object]) -> dict[str, str]:
    """fio's options as they decide what was measured: aliases merged, sizes in bytes, times in seconds."""
    normal: dict[str, str] = {}
    for raw_key, value in options.items():
        key = _ALIASES.get(raw_key.strip().lower(), raw_key.strip().lower())
        if key in _IGNORED or key.startswith("log_"):
            continue
        normal[key] = _normal_value(key, value)
    return dict(sorted(normal.items()))


def job_shape(options: Mapping[str, object]) -> dict[str, str]:
    """rw, bs, iodepth and numjobs with fio's defaults: what a grouped view must never mix."""
    normal = normalised_options(options)
    shape = {key: normal.get(key, _SHAPE_DEFAULTS[key]) for key in SHAPE_KEYS}
    shape["rw"] = shape["rw"].split(":")[0]
    return shape


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
    return {
        "job": normalised_options(options),
        "fio_version": fio_version,
        "host": host_class(facts),
        "mount": mount_class(mount_of(facts, target_path)),
        "storage": storage,
    }


def fingerprint(components: Mapping[str, Any]) -> str:
    """sha256 (hex) of the components as canonical JSON: equal digests, comparable results."""
    canonical = json.dumps(components, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def flatten(components: Mapping[str, Any]) -> dict[str, Any]:
    """{'job': {'bs': '4096'}, 'fio_version': 'fio-3.33'} → {'job.bs': '4096', 'fio_version': 'fio-3.33'}."""
    flat: dict[str, Any] = {}
    for key, value in components.items():
        if isinstance(value, Mapping):
            for inner, item in flatten(value).items():
                flat[f"{key}.{inner}"] = item
        else:
            flat[key] = value
    return flat


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
