"""What a result measured, one row per result and direction, for tables and CSV."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .display import (
    format_bandwidth,
    format_iops,
    format_latency,
    format_runtime,
)

_DIRECTION_ORDER = ("read", "write", "trim")

FIGURE_HEADERS = ("dir", "IOPS", "bandwidth", "lat mean", "clat p99", "runtime")
FIGURE_NUMBERS = ("IOPS", "bandwidth", "lat mean", "clat p99", "runtime")


def directions(result: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A result's directions, read, write and trim first, in a stable order."""
    measured: dict[str, dict[str, Any]] = result.get("directions") or {}
    rank = {name: index for index, name in enumerate(_DIRECTION_ORDER)}
    yield from sorted(measured.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def mean_latency_ns(direction: dict[str, Any]) -> float | None:
    """Total latency's mean; completion latency's when fio reported no total."""
    for key in ("lat_ns", "clat_ns"):
        stats = direction.get(key)
        if stats:
            return float(stats["mean_ns"])
    return None


def clat_percentile_ns(direction: dict[str, Any], percentile: str) -> float | None:
    """A completion-latency percentile ("50", "99", "99.9"), if fio reported it."""
    stats = direction.get("clat_ns") or {}
    value = (stats.get("percentiles") or {}).get(percentile)
    return None if value is None else float(value)


def figure_cells(name: str, direction: dict[str, Any]) -> list[str]:
    """The cells under FIGURE_HEADERS for one direction."""
    return [
        name,
        format_iops(direction.get("iops")),
        format_bandwidth(direction.get("bw_bytes")),
        format_latency(mean_latency_ns(direction)),
        format_latency(clat_percentile_ns(direction, "99")),
        format_runtime(direction.get("runtime_ms")),
    ]
