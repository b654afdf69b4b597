"""Human-readable figures (binary byte units, ns/µs/ms latencies) and plain-text tables."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

_BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
MISSING = "-"


def _significant(value: float) -> str:
    """Three significant figures without scientific notation: 5.12, 64.1, 512."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def format_bytes(count: float) -> str:
    """Bytes in binary units: 1536 → '1.5 KiB'."""
    value = float(count)
    for unit in _BINARY_UNITS:
        if abs(value) < 1024 or unit == _BINARY_UNITS[-1]:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def format_bandwidth(bytes_per_s: float | None) -> str:
    """Bandwidth in binary units per second: 62500000 → '59.6 MiB/s'."""
    return MISSING if bytes_per_s is None else f"{format_bytes(bytes_per_s)}/s"


def format_latency(ns: float | None) -> str:
    """A latency in the unit that keeps it readable: '850 ns', '64.1 µs', '1.20 ms', '2.50 s'."""
    if ns is None:
        return MISSING
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= scale:
            return f"{_significant(ns / scale)} {unit}"
    return f"{ns:.0f} ns"


def format_iops(iops: float | None) -> str:
    """IOPS with thousands separators; a decimal only where it matters."""
    if iops is None:
        return MISSING
    return f"{iops:,.0f}" if iops >= 100 else f"{iops:.1f}"


def format_runtime(ms: int | None) -> str:
    """fio's runtime: '850 ms', '1.00 s', '60.0 s'."""
    if ms is None:
        return MISSING
    return f"{ms} ms" if ms < 1000 else f"{_significant(ms / 1000)} s"


def format_timestamp(value: str | None) -> str:
    """An API timestamp (ISO 8601, UTC) in local time to the second."""
    if not value:
        return MISSING
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[str] = ()) -> str:
    """Columns padded to their widest cell; columns named in `right` are right-aligned (numbers)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            cell.rjust(width) if header in right else cell.ljust(width)
            for cell, width, header in zip(cells, widths, headers, strict=True)
        ]
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])
