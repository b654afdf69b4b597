"""Before a run starts: whether its preset runs on its hosts, and what it needs of them.

The figures come from the fio package's own budget (files laid out, fio's buffers), the same
computation the API's safety checks and each host's worker use, with the free space hosts report.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.errors import Conflict, DomainError, ErrorItem, Invalid, NotFound
from storbench_api.fio_tools.service import ensure_safe_on_target, safety_limits
from storbench_api.hosts.mounts import free_bytes_for, platform_of
from storbench_api.models import Host, Target, TargetKind
from storbench_api.runs.schemas import RunCheckOut, RunCreate
from storbench_api.targets import repository as targets_repository
from storbench_api.targets import service as targets_service
from storbench_fio.budget import footprint_bytes, human_bytes, run_memory_bytes
from storbench_fio.command import format_value
from storbench_fio.errors import FioJobError
from storbench_fio.job import validate_job_dict
from storbench_fio.presets import get_preset
from storbench_fio.safety import SafetyTarget, memory_budget_bytes

_PLATFORM_NAMES = {"linux": "Linux", "windows": "Windows", "other": "neither Linux nor Windows"}


def preset_platform_problems(preset_id: str | None, hosts: Sequence[Host]) -> list[dict[str, Any]]:
    """One error per host whose platform (from its facts) the preset's recipe is not written for."""
    preset = get_preset(preset_id) if preset_id else None
    if preset is None:
        return []
    problems = []
    for host in hosts:
        platform = platform_of(host.facts)
        if platform is None or platform == preset.platform:
            continue
        problems.append(
            {
                "field": "preset_id",
                "value": preset.id,
                "reason": f"preset '{preset.id}' ({preset.name}) is a {_PLATFORM_NAMES[preset.platform]} "
                f"recipe; host '{host.name}' runs {_PLATFORM_NAMES[platform]}: choose a "
                f"{_PLATFORM_NAMES[platform]} preset or a host that runs {_PLATFORM_NAMES[preset.platform]}",
            }
        )
    return problems


def ensure_preset_runs_on(preset_id: str | None, hosts: Sequence[Host]) -> None:
    """Invalid naming the preset and the host's platform when the recipe is not for that platform."""
    problems = preset_platform_problems(preset_id, hosts)
    if problems:
        raise Invalid(problems[0]["reason"], problems)


def free_bytes_of(hosts: Sequence[Host], target: Target) -> int | None:
    """The least free space any of the hosts reported for the target's path (None: unknown)."""
    if target.kind != TargetKind.directory:
        return None
    known = [b for h in hosts if (b := free_bytes_for(h.facts, target.path)) is not None]
    return min(known) if known else None


def _memory_of(hosts: Sequence[Host]) -> int | None:
    memories = [m for h in hosts if isinstance(m := (h.facts or {}).get("memory_bytes"), int) and m > 0]
    return min(memories) if memories else None


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


def check_run(db: Session, principal: Principal, body: RunCreate) -> RunCheckOut:
    """What starting this run would need and whether it would be refused, without starting it."""
    # Imported here: start imports this module for its checks.
    from storbench_api.runs import start

    target = targets_repository.get_target(db, principal.team_id, body.target_id)
    if target is None:
        raise Invalid(
            f"target {body.target_id} does not exist in this team",
            [{"field": "target_id", "value": str(body.target_id), "reason": "unknown target"}],
        )
    try:
        jobs, _, _ = start._jobs_for(db, principal.team_id, body)
    except NotFound as exc:
        raise Invalid(
            exc.message, [{"field": "plan_id", "value": str(body.plan_id), "reason": "unknown plan"}]
        ) from exc
    problems: list[dict[str, Any]] = []
    hosts: list[Host] = [target.host]
    try:
        hosts = start._participants(db, principal.team_id, target.host, body)
    except (Conflict, Invalid) as exc:
        problems.extend(_as_problems(exc))
    for host in hosts:
        try:
            targets_service.ensure_placeable(host, target.kind, target.path, roots_must_be_known=True)
        except DomainError as exc:
            problems.extend(_as_problems(exc))
    problems.extend(preset_platform_problems(body.preset_id, hosts))

    memory = _memory_of(hosts)
    free = free_bytes_of(hosts, target)
    limits = safety_limits()
    try:
        ensure_safe_on_target(
            jobs,
            kind=target.kind,
            path=target.path,
            destructive=target.destructive,
            confirmed_destructive=body.confirm_destructive,
            host_memory_bytes=memory,
            host_count=len(hosts),
            free_bytes=free,
        )
    except Invalid as exc:
        problems.extend(_as_problems(exc))

    try:
        options = _fio_text_options(jobs)
    except FioJobError:
        options = []
    needs = sum(footprint_bytes(o) or 0 for o in options) if target.kind == TargetKind.directory else None
    usable = int(free * (1 - limits.free_space_margin)) if free is not None else None
    memory_needs = run_memory_bytes(options)
    memory_limit = memory_budget_bytes(
        SafetyTarget(kind="directory", path=target.path, host_memory_bytes=memory), limits
    )
    platforms = {p for h in hosts if (p := platform_of(h.facts)) is not None}
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
    return RunCheckOut(
        ok=not problems,
        hosts=[h.name for h in hosts],
        platform=platforms.pop() if len(platforms) == 1 else None,
        needs_bytes=needs,
        free_bytes=free,
        usable_bytes=usable,
        memory_bytes=memory_needs,
        memory_limit_bytes=memory_limit,
        summary=summary,
        problems=[ErrorItem.model_validate(p) for p in problems],
    )


def _as_problems(exc: DomainError) -> list[dict[str, Any]]:
    return list(exc.errors) or [{"reason": exc.message}]
