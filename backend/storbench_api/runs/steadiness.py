"""Whether each result of a run was measured in steady state (SNIA PTS rule, curves.steady_state).

A result's rounds are its host's per-second samples while its reporting group ran. Stonewalled
groups (repetitions, a sweep's points, a preconditioning fill) run one after the other in one fio
invocation and a sample is only taken while fio's runtime clock advances, so a group's samples are
the next `runtime / interval` samples in order; the one straddling two groups may mix them, which
a 5-round window tolerates. Samples are the host's jobs summed (clones of a group run together), so
a result's verdict is its group's. When a point has too few seconds for a window (short sweep
points) but the run repeats it 5 times or more, its rounds are the repetitions' IOPS instead.
A figure measured outside steady state gets the advisor's finding (advisor.rules_steady).
"""

import json
import statistics
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.advisor.advice import most_serious_first
from storbench_api.advisor.findings import Finding
from storbench_api.advisor.rules_steady import steady_state_findings
from storbench_api.curves.steady_state import WINDOW_ROUNDS, find_steady_state
from storbench_api.models import Assignment, ProgressSample, Result
from storbench_api.runs import repository
from storbench_fio.models import FioReport, JobResult

Verdicts = dict[str, dict[str, Any]]


def verdict(values: Sequence[float], basis: str) -> dict[str, Any]:
    """The steady-state verdict of one series of rounds, as results.steady_state keeps it."""
    found = find_steady_state(values)
    status = "steady" if found.reached else "too_short" if len(values) < WINDOW_ROUNDS else "not_steady"
    return {
        "basis": basis,
        "figure": "iops",
        "status": status,
        "rounds": len(values),
        "window": WINDOW_ROUNDS,
        "reached_at": found.start + 1 if found.start is not None else None,
        "range_share": found.range_share,
        "excursion_share": found.excursion_share,
        "reason": found.reason,
    }


def _interval_s(samples: Sequence[ProgressSample]) -> float:
    """The samples' spacing in seconds (fio's status interval), from their report times."""
    gaps = [
        (b.measured_at - a.measured_at).total_seconds()
        for a, b in pairwise(samples)
        if a.measured_at is not None and b.measured_at is not None
    ]
    gaps = [g for g in gaps if g > 0]
    return statistics.median(gaps) if gaps else 1.0


def samples_per_group(
    samples: Sequence[ProgressSample], jobs: Sequence[JobResult]
) -> dict[int, list[ProgressSample]]:
    """Each reporting group's samples (by fio's group id), in the order the groups ran.

    `jobs` are every job fio ran, a preconditioning fill included, so later groups' samples line up.
    """
    runtime_ms: dict[int, float] = defaultdict(float)
    for job in jobs:
        group = job.groupid or 0
        longest = max((d.runtime_ms for d in job.directions.values()), default=0)
        runtime_ms[group] = max(runtime_ms[group], float(longest))
    interval = _interval_s(samples)
    cursor = 0
    groups: dict[int, list[ProgressSample]] = {}
    for group in sorted(runtime_ms):
        count = round(runtime_ms[group] / 1000 / interval)
        groups[group] = list(samples[cursor : cursor + count])
        cursor += count
    return groups


def _per_second(samples: Sequence[ProgressSample], direction: str) -> list[float]:
    return [s.directions[direction].iops for s in samples if direction in s.directions]


def _measured_directions(result: Result) -> list[str]:
    return [name for name, d in (result.detail or {}).items() if int(d.get("io_bytes") or 0) > 0]


def _repetition_rounds(results: Sequence[Result]) -> dict[int, list[Result]]:
    """For each result, the same job (same options, same clone) in every repetition, in order."""
    occurrence: dict[tuple[int, str, str], int] = defaultdict(int)
    same_job: dict[tuple[str, str, int], list[Result]] = defaultdict(list)
    for result in sorted(results, key=lambda r: (r.repetition, r.job_index)):
        shape = json.dumps(result.options, sort_keys=True, default=str)
        nth = occurrence[(result.repetition, result.job_name, shape)]
        occurrence[(result.repetition, result.job_name, shape)] += 1
        same_job[(result.job_name, shape, nth)].append(result)
    return {r.id: rounds for rounds in same_job.values() for r in rounds}


def _iops(result: Result, direction: str) -> float:
    return float(((result.detail or {}).get(direction) or {}).get("iops") or 0.0)


def assess(
    db: Session,
    assignment: Assignment,
    stored: Sequence[Result],
    report: FioReport,
    *,
    repetitions: int,
    ran: Sequence[JobResult] | None = None,
    groups_before: int = 0,
) -> None:
    """Give each stored result its steady-state verdict per direction, and the advisor's finding.

    `stored` are the results of `report`'s jobs in order; `ran` every job fio ran (default: those),
    of which the first `groups_before` groups were taken out of `report` (a preconditioning fill).
    """
    samples = repository.progress_samples(db, [assignment.id])
    groups = samples_per_group(samples, ran if ran is not None else report.jobs) if samples else {}
    rounds = _repetition_rounds(stored) if repetitions >= WINDOW_ROUNDS else {}
    for result, job in zip(stored, report.jobs, strict=False):
        verdicts: Verdicts = {}
        for direction in _measured_directions(result):
            per_second = _per_second(groups.get((job.groupid or 0) + groups_before, []), direction)
            if len(per_second) < WINDOW_ROUNDS and len(rounds.get(result.id, [])) >= WINDOW_ROUNDS:
                verdicts[direction] = {
                    **verdict([_iops(r, direction) for r in rounds[result.id]], "repetitions"),
                    "round": result.repetition + 1,
                }
            elif per_second:
                verdicts[direction] = verdict(per_second, "per_second")
        if not verdicts:
            continue
        result.steady_state = verdicts
        found = steady_state_findings(verdicts)
        if found:
            findings = [Finding.model_validate(f) for f in result.findings or []] + found
            result.findings = [f.model_dump(mode="json") for f in most_serious_first(findings)]
