"""A spec evaluated at a volume's provisioned figures, and a measured figure judged against it."""

import enum
from dataclasses import dataclass

from storbench_api.storage_classes.formula import FormulaError, parse_formula
from storbench_api.storage_classes.schemas import UNITS, ExpectedFigure, Metric, SpecIn, Workload


@dataclass(frozen=True, slots=True)
class Provisioned:
    """What was bought: capacity, and for some classes IOPS or throughput."""

    capacity_gib: float | None = None
    iops: float | None = None
    mbps: float | None = None


def expected_figures(spec: SpecIn, provisioned: Provisioned) -> tuple[list[ExpectedFigure], list[str]]:
    """Each spec line's figure at these provisioned figures, and warnings (lines it cannot compute)."""
    figures: list[ExpectedFigure] = []
    warnings: list[str] = []
    capacity = provisioned.capacity_gib
    if capacity is not None and spec.max_capacity_gib is not None and capacity > spec.max_capacity_gib:
        warnings.append(
            f"{capacity:g} GiB is above the class's largest volume ({spec.max_capacity_gib:g} GiB)"
        )
    if capacity is not None and spec.min_capacity_gib is not None and capacity < spec.min_capacity_gib:
        warnings.append(
            f"{capacity:g} GiB is below the class's smallest volume ({spec.min_capacity_gib:g} GiB)"
        )
    for line in spec.expectations:
        formula = parse_formula(line.formula)
        low = parse_formula(line.low_formula) if line.low_formula else None
        try:
            values = {
                "capacity_gib": capacity,
                "provisioned_iops": provisioned.iops,
                "provisioned_mbps": provisioned.mbps,
            }
            expected = formula.evaluate(**values)
            low_value = low.evaluate(**values) if low else None
        except FormulaError as exc:
            warnings.append(f"{line.metric.value} on {line.workload.value} tests: {exc}")
            continue
        figures.append(
            ExpectedFigure(
                metric=line.metric,
                workload=line.workload,
                unit=UNITS[line.metric],
                expected=round(expected, 6),
                low=None if low_value is None else round(low_value, 6),
                formula=formula.canonical,
                low_formula=low.canonical if low else None,
                note=line.note,
            )
        )
    return figures, warnings


def figure_for(figures: list[ExpectedFigure], metric: Metric, workload: Workload) -> ExpectedFigure | None:
    """The line for this kind of test: the workload's own, else the one for all tests."""
    for wanted in (workload, Workload.any):
        for figure in figures:
            if figure.metric == metric and figure.workload == wanted:
                return figure
    return None


class Verdict(enum.StrEnum):
    """How a measured figure stands against the spec."""

    meets = "meets"
    below = "below"
    # More than the storage can deliver: a server-side cache answered, not the storage.
    above = "above"


# Within 10 % under the promise is the spec met (vendors round; a run has noise); more than 15 %
# over it is more than the storage delivers. Latency: 10 % slower than promised is below the spec,
# under half the fastest promised is a cache.
MEETS_FROM = 0.90
ABOVE_FROM = 1.15
LATENCY_SLOWER = 1.10
LATENCY_CACHE = 0.50


@dataclass(frozen=True, slots=True)
class Judgement:
    """A measured figure against its spec line."""

    measured: float
    expected: float
    percent: float
    verdict: Verdict


def judge(measured: float, figure: ExpectedFigure) -> Judgement:
    """Meets, below or above the promise; latency (lower is better) judged the other way round."""
    expected = figure.expected
    percent = round(100 * measured / expected, 1) if expected > 0 else 0.0
    if figure.metric == Metric.latency:
        fastest = figure.low if figure.low is not None else expected
        if measured > expected * LATENCY_SLOWER:
            verdict = Verdict.below
        elif measured < fastest * LATENCY_CACHE:
            verdict = Verdict.above
        else:
            verdict = Verdict.meets
    else:
        lowest = figure.low if figure.low is not None else expected
        if measured < lowest * MEETS_FROM:
            verdict = Verdict.below
        elif measured > expected * ABOVE_FROM:
            verdict = Verdict.above
        else:
            verdict = Verdict.meets
    return Judgement(measured=measured, expected=expected, percent=percent, verdict=verdict)
