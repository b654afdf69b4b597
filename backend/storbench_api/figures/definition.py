"""The figures storbench reads from a result: name, label, unit, which way is better, where each is kept.

This is the one vocabulary of figures. Comparisons, grouped views and their rollup, trends, change
detection and exports ask it; the API publishes it (GET /figures), and the web UI and the CLI label
and format figures from that answer. Adding a figure is one line here; one that needs a new column of
result_directions also needs the column, its migration, and the line that fills it as results are
stored (results/service.py).

Bandwidth is stored and published in bytes per second, written "B/s"; the web UI and the CLI scale it
in binary units as fio prints it (KiB/s, MiB/s), beside the decimal MB/s where it meets a vendor's spec.
"""

import enum
import re
from typing import Self


class FigureUnit(enum.StrEnum):
    """The unit a figure's value is stored and published in."""

    iops = "IOPS"
    bytes_per_second = "B/s"
    nanoseconds = "ns"
    percent = "%"


class MeasuredPer(enum.StrEnum):
    """What a figure belongs to: one I/O direction (read, write, trim) or the whole job (CPU)."""

    direction = "direction"
    job = "job"


HIGHER = True  # higher is better
LOWER = False  # lower is better
COMPARED = True  # in comparisons and grouped views (so kept in the group rollup)
TREND_ONLY = False  # charted over time, not compared
_IOPS, _BPS = FigureUnit.iops, FigureUnit.bytes_per_second
_NS, _PCT = FigureUnit.nanoseconds, FigureUnit.percent
# A completion-latency percentile figure is named after fio's percentile: clat_p99_9_ns is "99.9".
_CLAT_PERCENTILE = re.compile(r"clat_p(\d+(?:_\d+)?)_ns")


def _percentile_named(name: str) -> str | None:
    """The percentile a figure of this name is ("99.9" for clat_p99_9_ns), or None."""
    match = _CLAT_PERCENTILE.fullmatch(name)
    return match.group(1).replace("_", ".") if match else None


class Figure(enum.StrEnum):
    """A figure a result has: its label, unit, which way is better, and where it is kept.

    `key` is the column of result_directions holding a direction figure (named as the figure), or the
    entry of the result's CPU use holding a job figure; `percentile` is fio's completion-latency
    percentile a clat_p… figure is. Figures are shown in the order written here.
    """

    label: str
    unit: FigureUnit
    higher_is_better: bool
    per: MeasuredPer
    key: str
    compared: bool
    percentile: str | None

    def __new__(
        cls, name: str, label: str, unit: FigureUnit, better: bool, compared: bool, cpu_key: str | None = None
    ) -> Self:
        member = str.__new__(cls, name)
        member._value_ = name
        member.label = label
        member.unit = unit
        member.higher_is_better = better
        member.compared = compared
        # A direction figure is the result_directions column of its name; a job figure, an entry of CPU use.
        member.per = MeasuredPer.direction if cpu_key is None else MeasuredPer.job
        member.key = name if cpu_key is None else cpu_key
        member.percentile = _percentile_named(name)
        return member

    # fmt: off
    # name = name, label, unit, which way is better, compared[, its key in the result's CPU use]
    iops           = "iops",           "IOPS",                      _IOPS, HIGHER, COMPARED
    bw_bytes       = "bw_bytes",       "Bandwidth",                 _BPS,  HIGHER, COMPARED
    lat_mean_ns    = "lat_mean_ns",    "Mean latency",              _NS,   LOWER,  COMPARED
    lat_min_ns     = "lat_min_ns",     "Minimum latency",           _NS,   LOWER,  TREND_ONLY
    lat_max_ns     = "lat_max_ns",     "Maximum latency",           _NS,   LOWER,  TREND_ONLY
    lat_stddev_ns  = "lat_stddev_ns",  "Latency std. deviation",    _NS,   LOWER,  TREND_ONLY
    clat_p50_ns    = "clat_p50_ns",    "p50 completion latency",    _NS,   LOWER,  COMPARED
    clat_p90_ns    = "clat_p90_ns",    "p90 completion latency",    _NS,   LOWER,  COMPARED
    clat_p95_ns    = "clat_p95_ns",    "p95 completion latency",    _NS,   LOWER,  COMPARED
    clat_p99_ns    = "clat_p99_ns",    "p99 completion latency",    _NS,   LOWER,  COMPARED
    clat_p99_9_ns  = "clat_p99_9_ns",  "p99.9 completion latency",  _NS,   LOWER,  COMPARED
    clat_p99_99_ns = "clat_p99_99_ns", "p99.99 completion latency", _NS,   LOWER,  COMPARED
    cpu_usr_pct    = "cpu_usr_pct",    "CPU usr",                   _PCT,  LOWER,  COMPARED,   "usr_pct"
    cpu_sys_pct    = "cpu_sys_pct",    "CPU sys",                   _PCT,  LOWER,  COMPARED,   "sys_pct"
    # fmt: on


DIRECTION_FIGURES = tuple(f for f in Figure if f.per is MeasuredPer.direction)
JOB_FIGURES = tuple(f for f in Figure if f.per is MeasuredPer.job)
COMPARED_FIGURES = tuple(f for f in Figure if f.compared)
# fio's completion-latency percentiles kept as figures ("50" … "99.99"), from lowest.
CLAT_PERCENTILES = tuple(f.percentile for f in Figure if f.percentile is not None)


def figure_named(name: str) -> Figure | None:
    """The figure of this name, or None."""
    return Figure.__members__.get(name)
