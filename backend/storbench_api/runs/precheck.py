"""Before a run starts: what its plan needs of its hosts, and every reason the start would refuse it.

The figures come from the fio package's own budget (files laid out, fio's buffers), the same
computation the API's safety checks and each host's worker use, with the free space hosts report.
The problems are the run's plan's (run_plan.py), the very ones POST /runs refuses with.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.errors import DomainError, ErrorItem
from storbench_api.fio_tools.service import safety_limits
from storbench_api.hosts.mounts import platform_of
from storbench_api.models import TargetKind
from storbench_api.runs.run_plan import RunPlan, plan_run
from storbench_api.runs.schemas import RunCheckOut, RunCreate, RunRefusal
from storbench_fio.budget import footprint_bytes, human_bytes, run_memory_bytes
from storbench_fio.command import format_value
from storbench_fio.errors import FioJobError
from storbench_fio.job import validate_job_dict
from storbench_fio.safety import SafetyTarget, memory_budget_bytes


def check_run(db: Session, team_id: int, body: RunCreate) -> RunCheckOut:
    """What starting this run would need and whether it would be refused, without starting it."""
    planned = plan_run(db, team_id, body)
    limits = safety_limits()
    free = planned.free_bytes
    try:
        options = _fio_text_options(planned.jobs)
    except FioJobError:
        options = []
    directory = planned.target.kind == TargetKind.directory
    needs = sum(footprint_bytes(o) or 0 for o in options) if directory else None
    usable = int(free * (1 - limits.free_space_margin)) if free is not None else None
    memory_needs = run_memory_bytes(options)
    memory_limit = memory_budget_bytes(
        SafetyTarget(kind="directory", path=planned.target.path, host_memory_bytes=planned.memory_bytes),
        limits,
    )
    platforms = {p for h in planned.hosts if (p := platform_of(h.facts)) is not None}
    summary = []
    if needs is not None:
        if free is not None:
            summary.append(
                f"needs {human_bytes(needs)}, the target has {human_bytes(free)} free "
                f"({human_bytes(usable)} usable: {limits.free_space_margin:.0%} is kept free)"
            )
        else:
            summary.append(
                f"needs {human_bytes(needs)}; the host has not reported the target's free space yet"
            )
    summary.append(
        f"fio's buffers need {human_bytes(memory_needs)} of the {human_bytes(memory_limit)} allowed"
    )
    refusals = _refusals(planned)
    return RunCheckOut(
        ok=not refusals,
        hosts=[h.name for h in planned.hosts],
        platform=platforms.pop() if len(platforms) == 1 else None,
        needs_bytes=needs,
        free_bytes=free,
        usable_bytes=usable,
        memory_bytes=memory_needs,
        memory_limit_bytes=memory_limit,
        summary=summary,
        problems=[item for r in refusals for item in r.errors or [ErrorItem(reason=r.message)]],
        refusals=refusals,
    )


def _refusals(planned: RunPlan) -> list[RunRefusal]:
    """The plan's problems, each as POST /runs would answer it."""
    return [_refusal(problem) for problem in planned.problems]


def _refusal(problem: DomainError) -> RunRefusal:
    return RunRefusal(
        status=problem.status_code,
        code=problem.code,
        message=problem.message,
        errors=[ErrorItem.model_validate(item) for item in problem.errors],
    )


def _fio_text_options(jobs: Sequence[Mapping[str, Any]]) -> list[dict[str, str | None]]:
    """Each job's options as fio text (what the fio package's budget reads)."""
    every = []
    for job in jobs:
        model = validate_job_dict(job)
        options: dict[str, str | None] = {}
        for key, value in model.fio_options().items():
            text = format_value(key, value, kb_base=model.kb_base)
            options[key] = "1" if text is None else text
        every.append(options)
    return every
