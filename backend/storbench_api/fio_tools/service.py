"""The backend's single door to the storbench_fio package: validation of jobs and texts."""

from collections.abc import Sequence
from typing import Any

from storbench_api.errors import Invalid
from storbench_api.settings import get_settings
from storbench_fio.confine import relative_name_problem
from storbench_fio.errors import Notice, OptionError
from storbench_fio.framing import frame_jobs
from storbench_fio.job import FioJob, FioJobError, validate_job_dict
from storbench_fio.jobfile import parse_fio_paste
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety


def _error_items(errors: Sequence[OptionError], field_prefix: str | None = None) -> list[dict[str, Any]]:
    """The fio package's option errors in the API's error shape (with the job and field when known)."""
    items = []
    for e in errors:
        item: dict[str, Any] = {"option": e.option, "value": e.value, "reason": e.reason}
        if e.job:
            item["job"] = e.job
        if field_prefix is not None:
            item["field"] = f"{field_prefix}{e.option}"
        items.append(item)
    return items


def _raise_invalid(errors: list[dict[str, Any]]) -> None:
    first = errors[0]
    shown = f"{first['option']}={first['value']}" if first.get("value") else first["option"]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    raise Invalid(f"fio job rejected: {shown}: {first['reason']}{more}", errors)


def jobs_from_text(text: str) -> tuple[list[dict[str, Any]], list[Notice]]:
    """Normalised jobs from a pasted job file or fio command line, and how the paste was read
    where that differs from its literal text; Invalid per offending option."""
    try:
        paste = parse_fio_paste(text)
    except FioJobError as exc:
        _raise_invalid(_error_items(exc.errors))
    # The jobs as storbench runs them: where the text ran fio is the target's business, a
    # size-bound job gets a time cap, logs are named by storbench; each change is a notice.
    framed, changed = frame_jobs(paste.jobs)
    jobs = normalise_jobs([job.model_dump(mode="json", exclude_none=True) for job in framed])
    return jobs, [*paste.notices, *changed]


def _limit_errors(job: FioJob, prefix: str) -> list[dict[str, Any]]:
    """Service-wide maxima, so a typo cannot tie a host up for days."""
    settings = get_settings()
    max_runtime_s = int(settings.max_runtime.total_seconds())
    checks = [
        ("numjobs", job.numjobs, settings.max_numjobs),
        ("iodepth", job.iodepth, settings.max_iodepth),
        ("runtime", job.runtime, max_runtime_s),
    ]
    return [
        {
            "option": option,
            "value": str(value),
            "reason": f"at most {limit} is allowed on this service",
            "field": f"{prefix}{option}",
        }
        for option, value, limit in checks
        if value is not None and value > limit
    ]


def _path_errors(job: FioJob, prefix: str) -> list[dict[str, Any]]:
    """directory/filename values no target could run: a plan never names a place on a host (the
    target does), except a block device's own node as filename."""
    found = []
    for option in ("directory", "filename"):
        value = getattr(job, option)
        if value is None or (option == "filename" and value.startswith("/dev/")):
            continue
        problem = relative_name_problem(value)
        if problem is not None:
            found.append({"option": option, "value": value, "reason": problem, "field": f"{prefix}{option}"})
    return found


def normalise_jobs(raw_jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validated, normalised job dicts; Invalid listing every offending option otherwise."""
    settings = get_settings()
    if not raw_jobs:
        raise Invalid("a plan needs at least one fio job", [{"field": "jobs", "reason": "empty"}])
    if len(raw_jobs) > settings.max_jobs_per_plan:
        raise Invalid(
            f"a plan may hold at most {settings.max_jobs_per_plan} jobs",
            [{"field": "jobs", "reason": f"{len(raw_jobs)} jobs given"}],
        )
    errors: list[dict[str, Any]] = []
    jobs: list[dict[str, Any]] = []
    seen_names: set[str] = set()
    for index, raw in enumerate(raw_jobs):
        prefix = f"jobs.{index}."
        try:
            # JSON null means "not set", as in the jobs GET /presets returns.
            job = validate_job_dict({k: v for k, v in raw.items() if v is not None})
        except FioJobError as exc:
            errors.extend(_error_items(exc.errors, prefix))
            continue
        errors.extend(_limit_errors(job, prefix))
        errors.extend(_path_errors(job, prefix))
        if job.name in seen_names:
            errors.append(
                {
                    "option": "name",
                    "value": job.name,
                    "reason": "job names must be unique in a plan",
                    "field": f"{prefix}name",
                }
            )
        seen_names.add(job.name)
        jobs.append(job.model_dump(mode="json", exclude_none=True))
    if errors:
        _raise_invalid(errors)
    return jobs


def safety_limits() -> SafetyLimits:
    """The service's ceilings, as the fio package's safety checks take them."""
    settings = get_settings()
    return SafetyLimits(
        max_numjobs=settings.max_numjobs,
        max_iodepth=settings.max_iodepth,
        max_runtime_s=int(settings.max_runtime.total_seconds()),
        max_nrfiles=settings.max_nrfiles,
        max_total_size_bytes=settings.max_total_size_bytes,
    )


def ensure_safe_on_target(
    jobs: list[dict[str, Any]],
    *,
    kind: str,
    path: str,
    destructive: bool,
    confirmed_destructive: bool,
    host_memory_bytes: int | None = None,
    host_count: int = 1,
    free_bytes: int | None = None,
) -> None:
    """Invalid listing every reason these jobs may not run on this target (the worker checks again)."""
    target = SafetyTarget(
        kind="block_device" if kind == "block_device" else "directory",
        path=path,
        destructive=destructive,
        confirmed_destructive=confirmed_destructive,
        host_memory_bytes=host_memory_bytes,
        host_count=host_count,
        free_bytes=free_bytes,
    )
    models = [validate_job_dict(job) for job in jobs]
    problems = check_jobs_safety(models, target, safety_limits())
    if problems:
        _raise_invalid(_error_items(problems))
