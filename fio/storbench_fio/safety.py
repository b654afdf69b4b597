"""Refuse fio options that could harm the host or data outside the benchmark target.

The rules come in two kinds: on each job's options alone (safety_options) and on what all of a
run's jobs need together (safety_resources), both against the target and the deployment's limits
(safety_scope). This module reads any shape of job into fio's text options and asks both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storbench_fio.command import format_value
from storbench_fio.errors import FioJobError, OptionError
from storbench_fio.job import FioJob
from storbench_fio.jobfile import RawJob, jobs_from_raw, parse_raw_fio_text
from storbench_fio.options import canonical_option_name
from storbench_fio.safety_options import LIMITS, job_option_problems, with_rule
from storbench_fio.safety_resources import resource_problems
from storbench_fio.safety_scope import SafetyLimits, SafetyTarget, memory_budget_bytes

__all__ = [
    "SafetyLimits",
    "SafetyTarget",
    "check_fio_text",
    "check_job_safety",
    "check_jobs_safety",
    "ensure_safe",
    "job_options",
    "memory_budget_bytes",
]

JobLike = FioJob | RawJob | Mapping[str, str | None]


def job_options(job: JobLike) -> dict[str, str | None]:
    """A job's options as fio text (what the budget and safety rules read)."""
    return _raw_options(job)[1]


def _raw_options(job: JobLike) -> tuple[str, dict[str, str | None]]:
    """(job name, options as fio text) for any of the accepted job shapes."""
    if isinstance(job, FioJob):
        options: dict[str, str | None] = {}
        for key, value in job.fio_options().items():
            text = format_value(key, value, kb_base=job.kb_base)
            options[key] = "1" if text is None else text
        return job.name, options
    if isinstance(job, RawJob):
        return job.name, job.as_dict()
    options = {canonical_option_name(str(k)): v for k, v in job.items()}
    return str(options.get("name") or ""), options


def check_job_safety(
    job_or_raw_options: JobLike, target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """Every reason this one job may not run on the target (empty when it may)."""
    name, options = _raw_options(job_or_raw_options)
    errors = job_option_problems(options, target, limits)
    return [e.model_copy(update={"job": name or None}) for e in errors]


def check_jobs_safety(
    jobs: Sequence[JobLike], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """check_job_safety for each job plus the space and memory all jobs need together."""
    errors: list[OptionError] = []
    every_options = []
    for job in jobs:
        errors.extend(check_job_safety(job, target, limits))
        every_options.append(_raw_options(job))
    errors.extend(with_rule(e, LIMITS) for e in resource_problems(every_options, target, limits))
    return errors


def check_fio_text(text: str, target: SafetyTarget, limits: SafetyLimits) -> list[FioJob]:
    """Parse a pasted job file or command line and check it; FioJobError lists all problems."""
    raw = parse_raw_fio_text(text)
    safety = check_jobs_safety(raw.jobs, target, limits)
    return jobs_from_raw(raw, extra_errors=safety)


def ensure_safe(jobs: Sequence[FioJob], target: SafetyTarget, limits: SafetyLimits) -> None:
    """Raise FioJobError unless every job may run on the target."""
    errors = check_jobs_safety(jobs, target, limits)
    if errors:
        raise FioJobError(errors)
