"""Curves of a figure against a swept option: points with their spread, knee, and latency bound."""

from pydantic import BaseModel, Field

from storbench_api.figures.schemas import FigureOut
from storbench_protocol.progress import Direction


class CurvePoint(BaseModel):
    """One axis value: the median of its repetitions, their range, and the latency there."""

    value: float = Field(description="the axis option's value (bs in bytes)")
    median: float
    low: float = Field(description="the lowest repetition")
    high: float = Field(description="the highest repetition")
    n: int = Field(description="repetitions measured at this point")
    lat_mean_ns: float | None = Field(description="median mean latency of the repetitions")
    clat_p99_ns: float | None = Field(description="median p99 completion latency of the repetitions")
    partial: bool = Field(description="some of its results were cut short (a cancelled or stopped run)")
    steady: bool | None = Field(
        default=None,
        description="every result here was measured in steady state (false: one was not; null: "
        "unknown, e.g. fewer than 5 seconds or repetitions)",
    )
    result_ids: list[int]


class KneeOut(BaseModel):
    """The last point before the curve saturates, and the step that shows it."""

    value: float
    next_value: float
    gain: float = Field(description="the figure's change on the next step (0.02: +2 %)")
    latency_rise: float = Field(description="mean latency's rise on the next step (1.0: doubled)")


class CurveSpecLine(BaseModel):
    """What the series' storage class promises for this figure, in the figure's unit."""

    storage_class: str
    value: float
    low: float | None = None
    formula: str


class Curve(BaseModel):
    """One series: a run's job (or imported results of one label), on one host or all hosts together."""

    key: str
    title: str
    run_id: int | None
    # None: every host together (the IOPS and bandwidth summed, the latency of the slowest host).
    host_name: str | None
    hosts: list[str]
    job_names: list[str]
    storage_class: str | None
    label: str | None
    fixed: dict[str, float] = Field(
        default_factory=dict,
        description="the other sweepable options' values along this curve (a two-axis sweep gives a "
        "curve per value of its other axis: the rows of its heat map)",
    )
    points: list[CurvePoint]
    knee: KneeOut | None
    knee_reason: str
    spec_line: CurveSpecLine | None = Field(
        description="the storage class's spec line for the figure, if it has one"
    )
    highest_load_under_bound: float | None = Field(
        description="with p99_bound_ns: the highest axis value whose p99 (and every lower one's) is under it"
    )


class CurvesOut(BaseModel):
    """Curves of one figure along one axis, one per series and host."""

    axis: str
    direction: Direction
    figure: FigureOut
    knee_figure: FigureOut = Field(description="the throughput figure the knee is read on")
    p99_bound_ns: float | None
    curves: list[Curve]
