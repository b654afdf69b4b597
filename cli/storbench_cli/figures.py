"""What a result measured, one row per result and direction, for tables and CSV.

Figures are named as the service names them: GET /figures publishes each figure's label and unit,
the same vocabulary the web UI shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .api import Api
from .display import (
    MISSING,
    format_bandwidth,
    format_iops,
    format_latency,
    format_runtime,
)

_DIRECTION_ORDER = ("read", "write", "trim")
# The figures a table row shows, in its columns (their labels come from the service).
TABLE_FIGURES = ("iops", "bw_bytes", "lat_mean_ns", "clat_p99_ns")


class Vocabulary:
    """The service's labels and units of figures (GET /figures), by figure name."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self._by_name = {item["name"]: item for item in items}

    @classmethod
    def of(cls, api: Api) -> Vocabulary:
        """The service's vocabulary."""
        return cls(api.get("/figures")["items"])

    def label(self, name: str) -> str:
        """How people name a figure: 'Mean latency' (its name if the service did not say)."""
        return str(self._by_name.get(name, {}).get("label", name))

    def unit(self, name: str) -> str | None:
        """The unit of a figure's values: IOPS, B/s, ns or %."""
        unit = self._by_name.get(name, {}).get("unit")
        return None if unit is None else str(unit)

    def table_headers(self) -> tuple[str, ...]:
        """The headers of figure_cells: the direction, each table figure's label, the runtime."""
        return ("dir", *(self.label(name) for name in TABLE_FIGURES), "runtime")


def format_figure(unit: str | None, value: float | None) -> str:
    """A value in the unit the service gives its figure: IOPS, B/s (shown in MiB/s…), ns (µs, ms…), %."""
    if value is None:
        return MISSING
    if unit == "IOPS":
        return format_iops(value)
    if unit == "B/s":
        return format_bandwidth(value)
    if unit == "ns":
        return format_latency(value)
    return f"{value:.1f} %" if unit == "%" else f"{value:,.6g}"


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
    """The cells under Vocabulary.table_headers() for one direction."""
    return [
        name,
        format_iops(direction.get("iops")),
        format_bandwidth(direction.get("bw_bytes")),
        format_latency(mean_latency_ns(direction)),
        format_latency(clat_percentile_ns(direction, "99")),
        format_runtime(direction.get("runtime_ms")),
    ]
