"""The verdict a run or result opens with, asked of the services that know each part.

Spec checks and findings are stored with each result (the advisor judged them when it was stored);
the previous run is the comparison's (compare.service.compare_with_previous); the regression state
is the history check's (history.regression_check). Nothing is judged twice here: the answers are
gathered per headline figure and put in the order a reader wants them.
"""

import statistics
from collections.abc import Sequence

from sqlalchemy.orm import Session

from storbench_api.advisor.findings import Finding, Severity
from storbench_api.compare import repository as compare_repository
from storbench_api.compare import service as compare_service
from storbench_api.compare.schemas import ComparisonOut
from storbench_api.errors import Invalid, NotFound
from storbench_api.figures.definition import Figure, figure_named
from storbench_api.history.regression_check import series_states
from storbench_api.history.schemas import CheckSeries, CheckStatus
from storbench_api.models import Result, Run
from storbench_api.results import controls as results_controls
from storbench_api.runs import service as runs_service
from storbench_api.storage_classes.schemas import Metric
from storbench_api.verdict.schemas import (
    HeadlineFigure,
    PreviousImport,
    PreviousRun,
    PreviousStanding,
    RegressionStanding,
    RegressionState,
    SpecStanding,
    SpecSummary,
    VerdictLine,
    VerdictStrip,
    WorstFinding,
)
from storbench_api.verdict.text import verdict_text

HEADLINE = (Figure.iops, Figure.bw_bytes, Figure.clat_p99_ns)
# The figure a spec line judges (spec latency is the mean latency, in ms).
_JUDGED = {Metric.iops: Figure.iops, Metric.throughput: Figure.bw_bytes, Metric.latency: Figure.lat_mean_ns}
_SEVERITY_ORDER = {Severity.critical: 0, Severity.warning: 1, Severity.info: 2}
_SPEC_ORDER = {"below": 0, "above": 1, "meets": 2}


def run_verdict(db: Session, team_id: int, run_id: int) -> VerdictStrip:
    """The verdict on a run's results."""
    run = runs_service.get_run(db, team_id, run_id)
    ids = compare_repository.result_ids_of_run(db, run.id)
    return _verdict(db, team_id, run, ids)


def result_verdict(db: Session, team_id: int, result_id: int) -> VerdictStrip:
    """The verdict on one result (its run's previous run and its series' state included)."""
    result = results_controls.get_result(db, team_id, result_id)
    run = runs_service.get_run(db, team_id, result.run_id) if result.run_id is not None else None
    return _verdict(db, team_id, run, [result.id])


def _verdict(db: Session, team_id: int, run: Run | None, ids: list[int]) -> VerdictStrip:
    results = [r for r, _ in compare_repository.results_with_runs(db, team_id, ids)]
    results.sort(key=lambda r: (r.job_name, r.host_name, r.repetition, r.id))
    if run is None and len(results) == 1 and results[0].imported:
        comparison, note = _previous_import_comparison(db, team_id, results[0])
        previous, previous_import = None, _previous_import(comparison)
    else:
        comparison, note = _previous_comparison(db, team_id, run)
        previous, previous_import = _previous_run(comparison, db, team_id), None
    lines = [_line(group, comparison) for group in _groups(results)]
    regression = _regression(db, team_id, results)
    worst = _worst_finding(results)
    verdict = VerdictStrip(
        run_id=run.id if run else None,
        result_ids=[r.id for r in results],
        spec=_spec_summary(lines),
        lines=lines,
        previous_run=previous,
        previous_import=previous_import,
        previous_note=note,
        regression=regression,
        worst_finding=worst,
        text=[],
    )
    verdict.text = verdict_text(verdict)
    return verdict


def _previous_comparison(db: Session, team_id: int, run: Run | None) -> tuple[ComparisonOut | None, str]:
    if run is None:
        return None, "imported: there is no previous run to compare it with"
    try:
        comparison = compare_service.compare_with_previous(db, team_id, run.id)
    except NotFound:
        return None, "the first run of this plan on this target: nothing to compare with yet"
    except Invalid:
        return None, "no results yet to compare"
    return comparison, "against the previous run of the same plan on the same target"


def _previous_import_comparison(
    db: Session, team_id: int, result: Result
) -> tuple[ComparisonOut | None, str]:
    try:
        comparison = compare_service.compare_with_previous_import(db, team_id, result.id)
    except NotFound:
        return None, (
            f"the first import of {result.job_name} from {result.host_name} measured this way: "
            "nothing to compare with yet"
        )
    return comparison, "against the previous import of the same host name and job, measured the same way"


def _previous_import(comparison: ComparisonOut | None) -> PreviousImport | None:
    if comparison is None:
        return None
    baseline = next(side for side in comparison.sides if side.is_baseline)
    return PreviousImport(
        result_id=baseline.result_ids[0], measured_at=baseline.measured_to, compare_path=comparison.permalink
    )


def _previous_run(comparison: ComparisonOut | None, db: Session, team_id: int) -> PreviousRun | None:
    if comparison is None:
        return None
    baseline = next(side for side in comparison.sides if side.is_baseline)
    if not baseline.run_ids:
        return None
    return PreviousRun(
        run_id=baseline.run_ids[0], measured_at=baseline.measured_to, compare_path=comparison.permalink
    )


def _groups(results: Sequence[Result]) -> list[tuple[str, list[Result]]]:
    """The results by job, host and direction that moved, in reading order."""
    groups: dict[tuple[str, str, str], list[Result]] = {}
    for result in results:
        for row in sorted(result.directions, key=lambda d: compare_service.DIRECTIONS.index(d.direction)):
            if row.io_bytes > 0:
                groups.setdefault((result.job_name, result.host_name, row.direction), []).append(result)
    return [(direction, group) for (_, _, direction), group in groups.items()]


def _figure_value(results: Sequence[Result], direction: str, figure: Figure) -> float | None:
    values = [
        float(value)
        for r in results
        for d in r.directions
        if d.direction == direction and (value := getattr(d, figure.key)) is not None
    ]
    return statistics.median(values) if values else None


def _spec_standing(results: Sequence[Result], direction: str) -> SpecStanding | None:
    """The repetitions' spec check with the median percentage (the spec line is the same for all)."""
    checks = [c for r in results for c in r.spec_checks or [] if c.get("direction") == direction]
    if not checks:
        return None
    checks.sort(key=lambda c: float(c["percent"]))
    return SpecStanding.model_validate(checks[(len(checks) - 1) // 2])


def _previous_standing(
    comparison: ComparisonOut | None, results: Sequence[Result], direction: str, figure: Figure
) -> PreviousStanding | None:
    if comparison is None:
        return None
    ids = {r.id for r in results}
    side = next((s for s in comparison.sides if ids & set(s.result_ids) and not s.is_baseline), None)
    row = next((r for r in comparison.rows if r.direction == direction and r.figure == figure), None)
    if side is None or row is None:
        return None
    cell, reference = row.cells[side.index], row.cells[side.reference]
    return PreviousStanding(value=reference.value, delta_pct=cell.delta_pct, verdict=cell.verdict)


def _line(group: tuple[str, list[Result]], comparison: ComparisonOut | None) -> VerdictLine:
    direction, results = group
    spec = _spec_standing(results, direction)
    shown = list(HEADLINE)
    judged = _JUDGED[spec.metric] if spec else None
    if judged is not None and judged not in shown:
        shown.append(judged)
    figures = [
        HeadlineFigure(
            figure=figure,
            unit=figure.unit,
            higher_is_better=figure.higher_is_better,
            value=_figure_value(results, direction, figure),
            spec=spec if figure == judged else None,
            previous=_previous_standing(comparison, results, direction, figure),
        )
        for figure in shown
    ]
    return VerdictLine(
        job_name=results[0].job_name,
        host_name=results[0].host_name,
        direction=direction,
        n=len(results),
        result_ids=[r.id for r in results],
        figures=[f for f in figures if f.value is not None],
    )


def _spec_summary(lines: Sequence[VerdictLine]) -> SpecSummary:
    verdicts = [f.spec.verdict.value for line in lines for f in line.figures if f.spec is not None]
    if not verdicts:
        return SpecSummary.no_spec
    return SpecSummary(min(verdicts, key=lambda v: _SPEC_ORDER[v]))


def _regression(db: Session, team_id: int, results: Sequence[Result]) -> RegressionStanding:
    by_target: dict[int, list[Result]] = {}
    for result in results:
        if result.target_id is not None:
            by_target.setdefault(result.target_id, []).append(result)
    if not by_target:
        return RegressionStanding(
            state=RegressionState.not_watched,
            message="not filed under a target: history watches a target's series",
            change_points=[],
        )
    series: list[CheckSeries] = []
    for target_id, of_target in by_target.items():
        series += series_states(db, team_id, target_id, of_target)
    return _standing(series)


def _label(metric: str) -> str:
    figure = figure_named(metric)
    return figure.label if figure else metric


def _standing(series: Sequence[CheckSeries]) -> RegressionStanding:
    statuses = {s.status for s in series}
    regressed = [s.change_point for s in series if s.status == CheckStatus.regression and s.change_point]
    if regressed:
        figures = ", ".join(f"{c.job_name} {c.direction} {_label(c.metric)}" for c in regressed[:4])
        return RegressionStanding(
            state=RegressionState.regression,
            message=f"regression not acknowledged: {figures}",
            change_points=regressed,
        )
    for status, state, message in (
        (CheckStatus.acknowledged, RegressionState.acknowledged, "a regression, acknowledged"),
        (CheckStatus.improvement, RegressionState.improvement, "an improvement, no regression"),
    ):
        if status in statuses:
            return RegressionStanding(state=state, message=message, change_points=[])
    return RegressionStanding(
        state=RegressionState.ok, message=f"no change found in {len(series)} series", change_points=[]
    )


def _worst_finding(results: Sequence[Result]) -> WorstFinding | None:
    found = [(r.id, Finding.model_validate(f)) for r in results for f in r.findings or []]
    if not found:
        return None
    result_id, finding = min(found, key=lambda pair: _SEVERITY_ORDER[pair[1].severity])
    return WorstFinding(result_id=result_id, finding=finding, total=len(found))
