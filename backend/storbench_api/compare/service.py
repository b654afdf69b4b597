"""Results side by side: sides of repetitions, what differs in how they were measured, every figure.

A side is the repetitions of one thing: results of the same job on the same host and target with
the same fingerprint, in the same series. By default results pool by what was measured: every run
of one plan on one target is one series, so repetitions gathered over many runs are one side; a
label splits them off into a series of its own (the run's label, or an import's). Pooled by run
(compare with the previous run), each run is a series. The baseline's series is the reference: each
side is compared with the baseline series' side of the same job (and host), or with the baseline.
"""

import json
import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.compare import repository
from storbench_api.compare.schemas import (
    MAX_COMPARE_IDS,
    Cell,
    ComparisonOut,
    Difference,
    FigureRow,
    Pooling,
    SideOut,
    VerdictOut,
)
from storbench_api.compare.stats import Verdict, compare_many
from storbench_api.errors import Invalid, NotFound
from storbench_api.figures.definition import COMPARED_FIGURES, Figure, MeasuredPer
from storbench_api.kit.id_list import parse_id_list
from storbench_api.models import Result, Run

_COMPONENTS = ("job", "fio_version", "host", "mount", "storage", "environment")
DIRECTIONS = ("read", "write", "trim")
JOB_DIRECTION = "job"
_DIRECTION_FIGURES = tuple(f for f in COMPARED_FIGURES if f.per is MeasuredPer.direction)
_JOB_FIGURES = tuple(f for f in COMPARED_FIGURES if f.per is MeasuredPer.job)


def parse_ids(text: str, field_name: str = "ids") -> list[int]:
    """'3,1,2' → [3, 1, 2] (duplicates dropped, at least one), or Invalid naming what to send."""
    ids = parse_id_list(text, field_name, MAX_COMPARE_IDS, what="result id")
    if not ids:
        raise Invalid(
            f"{field_name}: give at least one result id, e.g. {field_name}=12,15",
            [{"field": field_name, "reason": "no result id"}],
        )
    return ids


@dataclass
class _Side:
    key: tuple[Any, ...]
    series: str
    series_key: tuple[str, str]
    job_name: str
    host_name: str
    target_id: int | None
    results: list[Result] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)


def _plan_series(run: Run) -> tuple[tuple[str, str], str]:
    """Every run of one plan (or preset, or job list) on one target: one series."""
    target = f"@{run.target_id}"
    if run.plan_id is not None:
        return ("plan", f"{run.plan_id}{target}"), run.plan_name or f"plan #{run.plan_id}"
    if run.plan_name is not None:
        return ("plan", f"{run.plan_name}{target}"), run.plan_name
    jobs = json.dumps(run.jobs, sort_keys=True, default=str)
    return ("jobs", f"{jobs}{target}"), "same jobs"


def _series(result: Result, run: Run | None, pooling: Pooling) -> tuple[tuple[str, str], str]:
    if run is not None and run.label:
        return ("label", run.label), run.label
    if run is not None and pooling is Pooling.run:
        plan = f" · {run.plan_name}" if run.plan_name else ""
        return ("run", str(run.id)), f"run #{run.id}{plan}"
    if run is not None:
        return _plan_series(run)
    # Pooled by run, each import is a run of its own, whatever its label (two imports compared with
    # each other must not pool into one side because the uploader labelled them alike).
    if pooling is Pooling.run:
        return ("result", str(result.id)), f"result #{result.id}"
    if result.label:
        return ("label", result.label), result.label
    return ("imported", ""), "imported"


def _sides(ordered: Sequence[tuple[Result, Run | None]], pooling: Pooling) -> list[_Side]:
    sides: dict[tuple[Any, ...], _Side] = {}
    for result, run in ordered:
        series_key, series = _series(result, run, pooling)
        key = (
            series_key,
            result.job_name,
            result.host_name,
            result.target_id,
            result.fingerprint or f"result {result.id}",
        )
        side = sides.setdefault(
            key, _Side(key, series, series_key, result.job_name, result.host_name, result.target_id)
        )
        side.results.append(result)
        if run is not None and run not in side.runs:
            side.runs.append(run)
    for side in sides.values():
        side.results.sort(key=lambda r: (r.measured_at, r.repetition, r.id))
    return list(sides.values())


def _references(sides: list[_Side], baseline_side: int) -> list[int]:
    base = sides[baseline_side]
    references = []
    for side in sides:
        in_base = [
            i for i, s in enumerate(sides) if s.series_key == base.series_key and s.job_name == side.job_name
        ]
        same_host = [i for i in in_base if sides[i].host_name == side.host_name]
        references.append((same_host or in_base or [baseline_side])[0])
    return references


def _flatten(components: Mapping[str, Any]) -> dict[str, Any]:
    """{'job': {'bs': '4096'}, 'fio_version': 'fio-3.33'} → {'job.bs': '4096', 'fio_version': 'fio-3.33'}."""
    flat: dict[str, Any] = {}
    for key, value in components.items():
        if isinstance(value, Mapping):
            for inner, item in _flatten(value).items():
                flat[f"{key}.{inner}"] = item
        else:
            flat[key] = value
    return flat


def _differences(sides: list[_Side]) -> list[Difference]:
    flats = [_flatten(side.results[0].comparability or {}) for side in sides]
    keys = sorted(
        {k for flat in flats for k in flat},
        key=lambda k: (
            _COMPONENTS.index(k.split(".")[0]) if k.split(".")[0] in _COMPONENTS else len(_COMPONENTS),
            k,
        ),
    )
    found = []
    for key in keys:
        values = [flat.get(key) for flat in flats]
        if any(v != values[0] for v in values):
            found.append(Difference(component=key.split(".")[0], key=key, values=values))
    return found


def _direction_samples(side: _Side, direction: str, column: str) -> list[float]:
    samples = []
    for result in side.results:
        for row in result.directions:
            value = getattr(row, column) if row.direction == direction else None
            if value is not None and math.isfinite(value):
                samples.append(float(value))
    return samples


def _cpu_samples(side: _Side, key: str) -> list[float]:
    return [float(r.cpu[key]) for r in side.results if isinstance((r.cpu or {}).get(key), int | float)]


def _moves(side: _Side, direction: str) -> bool:
    return any(row.direction == direction and row.io_bytes > 0 for r in side.results for row in r.directions)


def _verdict_out(v: Verdict) -> VerdictOut:
    return VerdictOut(
        kind=v.kind,
        test=v.test,
        test_reason=v.test_reason,
        p_value=v.p_value,
        ratio=v.ratio,
        ci_low=v.ci_low,
        ci_high=v.ci_high,
        n_reference=v.n_baseline,
        n=v.n_other,
        text=v.text,
    )


def _verdicts(
    table: list[list[list[float]]], higher_is_better: list[bool], references: list[int]
) -> dict[tuple[int, int], VerdictOut]:
    """(row, side) → the side's verdict against its reference (better or worse as the row's figure reads).

    Pairs whose repetitions have the same sizes (usually all of them) are tested together: one
    Welch (and, for values that cannot take a log, Mann–Whitney and bootstrap) call for the whole comparison.
    """
    batches: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for side, ref in enumerate(references):
        if ref == side:
            continue
        for row, samples in enumerate(table):
            if samples[side] and samples[ref]:
                batches[(len(samples[ref]), len(samples[side]))].append((row, side))
    found: dict[tuple[int, int], VerdictOut] = {}
    for pairs in batches.values():
        verdicts = compare_many(
            [table[row][references[side]] for row, side in pairs],
            [table[row][side] for row, side in pairs],
            [higher_is_better[row] for row, _ in pairs],
        )
        for pair, verdict in zip(pairs, verdicts, strict=True):
            found[pair] = _verdict_out(verdict)
    return found


def _cells(
    row: int,
    all_samples: list[list[float]],
    references: list[int],
    verdicts: dict[tuple[int, int], VerdictOut],
) -> list[Cell]:
    values = [statistics.median(s) if s else None for s in all_samples]
    cells = []
    for index, samples in enumerate(all_samples):
        value, ref_value = values[index], values[references[index]]
        delta = value - ref_value if value is not None and ref_value is not None else None
        delta_pct = delta / ref_value * 100 if delta is not None and ref_value else None
        verdict = verdicts.get((row, index))
        cells.append(Cell(value=value, samples=samples, delta=delta, delta_pct=delta_pct, verdict=verdict))
    return cells


def _rows(sides: list[_Side], references: list[int]) -> list[FigureRow]:
    figures: list[tuple[str, Figure, list[list[float]]]] = []
    for direction in DIRECTIONS:
        if not any(_moves(side, direction) for side in sides):
            continue
        for figure in _DIRECTION_FIGURES:
            samples = [_direction_samples(side, direction, figure.key) for side in sides]
            if any(samples):
                figures.append((direction, figure, samples))
    for figure in _JOB_FIGURES:
        samples = [_cpu_samples(side, figure.key) for side in sides]
        if any(samples):
            figures.append((JOB_DIRECTION, figure, samples))
    verdicts = _verdicts(
        [samples for _, _, samples in figures],
        [figure.higher_is_better for _, figure, _ in figures],
        references,
    )
    return [
        FigureRow(
            direction=direction,
            figure=figure,
            unit=figure.unit,
            higher_is_better=figure.higher_is_better,
            cells=_cells(row, samples, references, verdicts),
        )
        for row, (direction, figure, samples) in enumerate(figures)
    ]


def _title_key(side: _Side) -> tuple[str, str, str, int | None]:
    return (side.series, side.job_name, side.host_name, side.target_id)


def _title(side: _Side, sides: list[_Side]) -> str:
    # Only what tells the sides apart: the job and host when they differ between sides.
    parts = [side.series]
    if len({s.job_name for s in sides}) > 1:
        parts.append(side.job_name)
    if len({s.host_name for s in sides}) > 1:
        parts.append(side.host_name)
    if len({s.target_id for s in sides}) > 1 and side.target_id is not None:
        parts.append(f"target #{side.target_id}")
    twins = [s for s in sides if _title_key(s) == _title_key(side)]
    if len(twins) > 1:
        parts.append(f"variant {twins.index(side) + 1}")
    return " · ".join(parts)


def permalink(ids: Sequence[int], baseline: int, pooling: Pooling = Pooling.measured) -> str:
    """The web UI path that opens this comparison."""
    pool = "" if pooling is Pooling.measured else f"&pool={pooling.value}"
    return f"/compare?ids={','.join(str(i) for i in ids)}&baseline={baseline}{pool}"


def compare(
    db: Session,
    team_id: int,
    ids: Sequence[int],
    baseline: int | None = None,
    pooling: Pooling = Pooling.measured,
) -> ComparisonOut:
    """The results side by side against the baseline (the first id unless given)."""
    baseline = ids[0] if baseline is None else baseline
    if baseline not in ids:
        raise Invalid(
            f"baseline: result {baseline} is not among the ids compared; pick one of them",
            [{"field": "baseline", "value": str(baseline), "reason": "not among ids"}],
        )
    found = {result.id: (result, run) for result, run in repository.results_with_runs(db, team_id, ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        shown = ", ".join(str(i) for i in missing[:20])
        raise NotFound(
            f"no result {shown} in your team",
            [
                {"field": "ids", "value": str(i), "reason": "no such result in your team"}
                for i in missing[:20]
            ],
        )
    sides = _sides([found[i] for i in ids], pooling)
    baseline_side = next(i for i, s in enumerate(sides) if any(r.id == baseline for r in s.results))
    references = _references(sides, baseline_side)
    differences = _differences(sides)
    return ComparisonOut(
        baseline_result_id=baseline,
        result_ids=list(ids),
        pooling=pooling,
        identical=not differences,
        differences=differences,
        sides=[
            SideOut(
                index=index,
                title=_title(side, sides),
                series=side.series,
                job_name=side.job_name,
                host_name=side.host_name,
                fingerprint=side.results[0].fingerprint,
                result_ids=[r.id for r in side.results],
                n=len(side.results),
                storage_class=side.results[0].storage_class,
                target_id=side.results[0].target_id,
                run_ids=[run.id for run in side.runs],
                measured_from=side.results[0].measured_at,
                measured_to=side.results[-1].measured_at,
                reference=references[index],
                is_baseline=references[index] == index,
            )
            for index, side in enumerate(sides)
        ],
        rows=_rows(sides, references),
        permalink=permalink(ids, baseline, pooling),
    )


def compare_with_previous(db: Session, team_id: int, run_id: int) -> ComparisonOut:
    """A run's results against the previous run of the same plan on the same target (the baseline)."""
    run = repository.get_run(db, team_id, run_id)
    if run is None:
        raise NotFound(f"no run {run_id} in your team")
    current = repository.result_ids_of_run(db, run.id)
    if not current:
        raise Invalid(
            f"run {run_id} has no results yet; compare it once fio has reported",
            [{"field": "run_id", "value": str(run_id), "reason": "no results"}],
        )
    previous = repository.previous_run(db, run)
    if previous is None:
        raise NotFound(f"run {run_id} has no earlier run of the same plan on the same target")
    before = repository.result_ids_of_run(db, previous.id)
    ids = (before + current)[:MAX_COMPARE_IDS]
    return compare(db, team_id, ids, before[0], Pooling.run)


def compare_with_previous_import(db: Session, team_id: int, result_id: int) -> ComparisonOut:
    """An import against the previous import of the same host name and job, measured the same way."""
    current = repository.get_result(db, team_id, result_id)
    if current is None:
        raise NotFound(f"no result {result_id} in your team")
    previous = repository.previous_import(db, current)
    if previous is None:
        raise NotFound(
            f"result {result_id} has no earlier import of job '{current.job_name}' from "
            f"'{current.host_name}' measured the same way"
        )
    return compare(db, team_id, [previous.id, current.id], previous.id, Pooling.run)
