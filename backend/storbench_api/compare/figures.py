"""The figures a comparison shows, their units, and which way is better."""

from dataclasses import dataclass

from storbench_api.compare.schemas import CompareFigure


@dataclass(frozen=True, slots=True)
class FigureInfo:
    """How a figure is read."""

    figure: CompareFigure
    unit: str
    higher_is_better: bool


DIRECTION_FIGURES = (
    FigureInfo(CompareFigure.iops, "IOPS", True),
    FigureInfo(CompareFigure.bw_bytes, "B/s", True),
    FigureInfo(CompareFigure.lat_mean_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p50_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p90_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p95_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p99_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p99_9_ns, "ns", False),
    FigureInfo(CompareFigure.clat_p99_99_ns, "ns", False),
)
JOB_FIGURES = (
    FigureInfo(CompareFigure.cpu_usr_pct, "%", False),
    FigureInfo(CompareFigure.cpu_sys_pct, "%", False),
)
INFO = {info.figure: info for info in (*DIRECTION_FIGURES, *JOB_FIGURES)}
CPU_KEYS = {CompareFigure.cpu_usr_pct: "usr_pct", CompareFigure.cpu_sys_pct: "sys_pct"}
DIRECTIONS = ("read", "write", "trim")
JOB_DIRECTION = "job"


def is_cpu(figure: CompareFigure) -> bool:
    """CPU figures belong to the job, not to a direction."""
    return figure in CPU_KEYS
