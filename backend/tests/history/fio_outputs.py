"""fio outputs for history tests: one real json+ output, its figures edited per point of a series."""

import copy
import json
from typing import Any

# 2026-01-01 00:00 UTC: imports are ordered by fio's own timestamp.
START = 1_767_225_600


def with_figures(
    base: dict[str, Any], *, iops: float, lat_ns: float, day: int, job: str | None = None
) -> str:
    """The output with its read IOPS (and bandwidth at 4 KiB), mean latency and date set."""
    doc = copy.deepcopy(base)
    doc["timestamp"] = START + day * 86_400
    doc["timestamp_ms"] = doc["timestamp"] * 1000
    entry = doc["jobs"][0]
    if job is not None:
        entry["jobname"] = job
    read = entry["read"]
    read["iops"] = iops
    read["iops_mean"] = iops
    read["bw_bytes"] = int(iops * 4096)
    read["bw"] = int(iops * 4096 / 1024)
    read["bw_mean"] = read["bw"]
    for key in ("lat_ns", "clat_ns"):
        read[key]["mean"] = lat_ns
        read[key]["min"] = min(read[key]["min"], lat_ns)
        read[key]["max"] = max(read[key]["max"], lat_ns * 3)
    percentiles = read["clat_ns"].get("percentile") or {}
    for key in percentiles:
        percentiles[key] = int(lat_ns * (2 if key.startswith("99") else 1))
    return json.dumps(doc)
