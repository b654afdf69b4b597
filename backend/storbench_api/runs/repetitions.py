"""Repetitions of a run: the budget they may take, and which repetition each measured job was.

The worker runs the jobs N times in one fio invocation, each repetition behind a stonewall
(storbench_fio.repetitions), so repetitions never overlap and reuse the files laid out once. fio's
reporting-group ids tell the repetitions apart exactly (numjobs clones stay in their job's group,
reported one by one or together), so results are never mapped by their position alone.
"""

from collections.abc import Sequence
from typing import Any

from storbench_api.errors import Invalid
from storbench_api.runs.lifecycle import expected_duration
from storbench_api.settings import get_settings
from storbench_fio.models import FioReport
from storbench_fio.repetitions import groups_per_repetition, repetition_of_group

# fio runs at most this many jobs (numjobs clones counted) in one invocation.
FIO_MAX_JOBS = 4096


def ensure_repetitions_fit(jobs: Sequence[dict[str, Any]], repetitions: int, *, swept: bool = False) -> None:
    """Invalid (naming `repetitions`) when N repetitions would exceed what one run may take.

    A sweep's points are checked even without repetitions: every point's jobs are in `jobs`.
    """
    if repetitions == 1 and not swept:
        return
    settings = get_settings()
    longest = settings.max_runtime * settings.max_jobs_per_plan
    one = expected_duration(jobs)
    if swept and repetitions == 1 and one > longest:
        raise Invalid(
            f"the sweep's points (and their repetitions) would take about {_hours(one)}; a run may take "
            f"at most {_hours(longest)}",
            [{"field": "sweep", "reason": "fewer points or repetitions, or a shorter runtime per point"}],
        )
    if swept and repetitions == 1 and sum(int(job.get("numjobs") or 1) for job in jobs) > FIO_MAX_JOBS:
        raise Invalid(
            f"the sweep's points make more than {FIO_MAX_JOBS} fio jobs (numjobs counted); fio runs at "
            f"most {FIO_MAX_JOBS} in one run",
            [{"field": "sweep", "reason": "fewer points, or fewer numjobs"}],
        )
    if one * repetitions > longest:
        raise Invalid(
            f"{repetitions} repetitions of these jobs would take about {_hours(one * repetitions)}; "
            f"a run may take at most {_hours(longest)}",
            [
                {
                    "field": "repetitions",
                    "value": str(repetitions),
                    "reason": f"at most {max(int(longest / one), 1)} repetitions of these jobs "
                    "(runtime, ramp_time and startdelay counted)",
                }
            ],
        )
    clones = sum(int(job.get("numjobs") or 1) for job in jobs)
    if clones * repetitions > FIO_MAX_JOBS:
        raise Invalid(
            f"{repetitions} repetitions make {clones * repetitions} fio jobs (numjobs counted); fio runs at "
            f"most {FIO_MAX_JOBS} in one run",
            [
                {
                    "field": "repetitions",
                    "value": str(repetitions),
                    "reason": f"at most {max(FIO_MAX_JOBS // clones, 1)} repetitions of these jobs",
                }
            ],
        )


def _hours(delta: Any) -> str:
    seconds = delta.total_seconds()
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def repetition_of_results(
    report: FioReport, run_jobs: Sequence[dict[str, Any]], repetitions: int
) -> list[int]:
    """The 0-based repetition of each job result of the report, from fio's group ids."""
    if repetitions <= 1:
        return [0] * len(report.jobs)
    groups = groups_per_repetition(run_jobs)
    return [
        repetition_of_group(job.groupid if job.groupid is not None else 0, groups, repetitions)
        for job in report.jobs
    ]


def without_added_stonewalls(
    report: FioReport, planned_jobs: Sequence[dict[str, Any]], added: bool
) -> FioReport:
    """The report with the stonewall storbench added (between repetitions or sweep points) removed
    from job options.

    So every repetition's or point's result carries the options of the job as planned, and compares
    equal to a single run of it.
    """
    if not added:
        return report
    planned = {job.get("name"): bool(job.get("stonewall")) for job in planned_jobs}
    jobs = [
        job.model_copy(update={"job_options": {k: v for k, v in job.job_options.items() if k != "stonewall"}})
        if "stonewall" in job.job_options and not planned.get(job.name, True)
        else job
        for job in report.jobs
    ]
    return report.model_copy(update={"jobs": jobs})


def keep_whole_groups(stored: Sequence[Any], report: FioReport) -> None:
    """On a stopped fio, only the results of its last reporting group with I/O (and later) are partial.

    Stonewalled groups run one after the other: every group before the last one that did I/O had
    finished when fio stopped (a sweep's earlier points, a run's earlier repetitions).
    """
    active = [
        job.groupid or 0
        for job in report.jobs
        if any(direction.io_bytes > 0 for direction in job.directions.values())
    ]
    if not active:
        return
    last = max(active)
    for result, job in zip(stored, report.jobs, strict=False):
        result.partial = (job.groupid or 0) >= last
