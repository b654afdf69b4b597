"""A run planned once: its target, jobs, hosts and files, and every reason it may not start.

POST /runs starts what the plan says or refuses with its first problem; POST /runs/check shows the
plan's figures and lists all of its problems. One function plans both, so a check never says ok
to a run the start refuses.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.errors import Conflict, DomainError, Invalid
from storbench_api.fio_tools.schemas import jobs_in
from storbench_api.fio_tools.service import ensure_safe_on_target, normalise_jobs
from storbench_api.hosts import repository as hosts_repository
from storbench_api.hosts.mounts import free_bytes_for, platform_of
from storbench_api.hosts.service import is_online, offline_reason
from storbench_api.models import Host, Plan, Target, TargetKind
from storbench_api.plans import repository as plans_repository
from storbench_api.runs.repetitions import ensure_repetitions_fit
from storbench_api.runs.schemas import RunCreate, SweepAxis, SweepStop
from storbench_api.runs.sweep import plan_sweep
from storbench_api.settings import get_settings
from storbench_api.targets import repository as targets_repository
from storbench_api.targets import service as targets_service
from storbench_fio.precondition import fill_jobs
from storbench_fio.presets import get_preset

_PLATFORM_NAMES = {"linux": "Linux", "windows": "Windows", "other": "neither Linux nor Windows"}


@dataclass(frozen=True)
class RunPlan:
    """What starting a run would queue, and why it may not (no problems: it may start)."""

    target: Target
    # The normalised jobs (sizes in bytes, times in seconds), as every host would run them.
    jobs: list[dict[str, Any]]
    # The saved plan they come from, and the plan's or preset's name (None for inline jobs).
    plan: Plan | None
    source_name: str | None
    # The target's host first, then the others by name.
    hosts: list[Host]
    shared_files: bool
    repetitions: int
    # What runs.sweep keeps (axes, points in order, jobs as planned, early stop); None: no sweep.
    sweep: dict[str, Any] | None
    precondition: bool
    confirmed_destructive: bool
    # The least free space and memory the hosts reported (None: unknown, or a block device's space).
    free_bytes: int | None
    memory_bytes: int | None
    # Each as POST /runs answers it; the first is the one it answers.
    problems: tuple[DomainError, ...]

    def ensure_startable(self) -> None:
        """Raise the first problem, as POST /runs refuses the run."""
        if self.problems:
            raise self.problems[0]


def plan_run(db: Session, team_id: int, body: RunCreate) -> RunPlan:
    """The plan of the run the body asks for, with every problem found.

    Raises Invalid only when there is nothing to plan: an unknown target, plan or preset, or jobs
    fio would not read.
    """
    target = targets_repository.get_target(db, team_id, body.target_id)
    if target is None:
        raise Invalid(
            f"target {body.target_id} does not exist in this team",
            [{"field": "target_id", "value": str(body.target_id), "reason": "unknown target"}],
        )
    jobs, plan, source_name = _jobs_for(db, team_id, body)
    body = with_plan_sweep(body, plan)
    planned_sweep = plan_sweep(jobs, body) if body.sweep else None
    # Each point must be safe on the target as a run of its own (the points share their files).
    each_point = planned_sweep.points_jobs if planned_sweep else [jobs]
    if body.precondition:
        # The fill writes the working set: safe on the target only where its writes are.
        each_point = [fill_jobs(jobs, int(get_settings().max_runtime.total_seconds())), *each_point]
    hosts, host_problems = _participants(db, team_id, target.host, body)
    for host in hosts:
        placeable = targets_service.ensure_placeable
        host_problems.extend(_caught(placeable, host, target.kind, target.path, roots_must_be_known=True))
    free = _free_bytes_of(hosts, target)
    memory = _memory_of(hosts)
    shared_files, sharing_problems = _shared_files(body, target, plan)
    run_jobs = planned_sweep.jobs if planned_sweep else jobs
    safety_problems = [
        problem
        for point_jobs in each_point
        for problem in _caught(
            ensure_safe_on_target,
            point_jobs,
            kind=target.kind,
            path=target.path,
            destructive=target.destructive,
            confirmed_destructive=body.confirm_destructive,
            host_memory_bytes=memory,
            host_count=len(hosts),
            free_bytes=free,
        )
    ]
    problems = [
        *(planned_sweep.problems if planned_sweep else []),
        *_preset_platform_problems(body.preset_id, hosts),
        *safety_problems[:1],
        *(
            _caught(ensure_repetitions_fit, run_jobs, 1, swept=True)
            if planned_sweep
            else _caught(ensure_repetitions_fit, jobs, body.repetitions)
        ),
        *sharing_problems,
        *host_problems,
    ]
    return RunPlan(
        target=target,
        jobs=run_jobs,
        plan=plan,
        source_name=source_name,
        hosts=hosts,
        shared_files=shared_files,
        repetitions=body.repetitions,
        sweep=planned_sweep.record if planned_sweep else None,
        precondition=body.precondition,
        confirmed_destructive=body.confirm_destructive,
        free_bytes=free,
        memory_bytes=memory,
        problems=tuple(problems),
    )


def _caught(check: Callable[..., None], *args: Any, **kwargs: Any) -> list[DomainError]:
    """The check's refusal as a problem (none when it passes)."""
    try:
        check(*args, **kwargs)
    except DomainError as exc:
        return [exc]
    return []


def _jobs_for(
    db: Session, team_id: int, body: RunCreate
) -> tuple[list[dict[str, Any]], Plan | None, str | None]:
    """The normalised jobs to run, with the saved plan and the plan or preset name they came from."""
    if body.plan_id is not None:
        plan = plans_repository.get_plan(db, team_id, body.plan_id)
        if plan is None:
            raise Invalid(
                f"plan {body.plan_id} does not exist in this team",
                [{"field": "plan_id", "value": str(body.plan_id), "reason": "unknown plan"}],
            )
        return normalise_jobs(plan.jobs), plan, plan.name
    if body.preset_id is not None:
        preset = get_preset(body.preset_id)
        if preset is None:
            raise Invalid(
                f"unknown preset '{body.preset_id}'",
                [{"field": "preset_id", "value": body.preset_id, "reason": "see GET /api/v1/presets"}],
            )
        jobs = [job.model_dump(mode="json", exclude_none=True) for job in preset.jobs]
        return normalise_jobs(jobs), None, preset.name
    return normalise_jobs(jobs_in(body.jobs or [])), None, None


def _participants(
    db: Session, team_id: int, primary: Host, body: RunCreate
) -> tuple[list[Host], list[DomainError]]:
    """The target's host plus the hosts named or labelled, and why any of them cannot take part."""
    hosts = {primary.id: primary}
    problems: list[DomainError] = []
    for host_id in body.host_ids:
        host = hosts_repository.get_host(db, team_id, host_id)
        if host is None:
            problems.append(
                Invalid(
                    f"host {host_id} does not exist in this team",
                    [{"field": "host_ids", "value": str(host_id), "reason": "unknown host"}],
                )
            )
            continue
        hosts[host.id] = host
    if body.host_label:
        labelled = [h for h in hosts_repository.all_hosts(db, team_id) if body.host_label in (h.labels or [])]
        if not labelled:
            problems.append(
                Invalid(
                    f"no host carries the label '{body.host_label}'",
                    [{"field": "host_label", "value": body.host_label, "reason": "no such label"}],
                )
            )
        hosts.update({h.id: h for h in labelled})
    settings = get_settings()
    if len(hosts) > settings.max_hosts_per_run:
        problems.append(
            Invalid(f"a run may use at most {settings.max_hosts_per_run} hosts; {len(hosts)} were named")
        )
    ordered = sorted(hosts.values(), key=lambda h: (h.id != primary.id, h.name))
    online = [h for h in ordered if is_online(h)]
    problems.extend(Conflict(offline_reason(h)) for h in ordered if h not in online)
    if len(ordered) > 1:
        limit_ms = settings.max_clock_offset.total_seconds() * 1000
        problems.extend(p for h in online if (p := _clock_problem(h, limit_ms)) is not None)
    return ordered, problems


def _clock_problem(host: Host, limit_ms: float) -> Conflict | None:
    """Why the host's clock may not join a synchronized run (None: it is known to be close enough).

    An offset measured over a slow round trip is only known within half of it (a loaded host or API
    stretches round trips to hundreds of ms while the clocks agree): a host is refused when even the
    nearest value its measurement allows is past the limit, not for the uncertainty of the estimate.
    """
    facts = host.facts or {}
    offset = facts.get("clock_offset_ms")
    if offset is None:
        return Conflict(f"host '{host.name}' has not reported its clock offset yet; retry in a few seconds")
    uncertainty = float(facts.get("clock_uncertainty_ms") or 0.0)
    if abs(float(offset)) - uncertainty <= limit_ms:
        return None
    return Conflict(
        f"host '{host.name}' clock is {float(offset):.0f} ms (± {uncertainty:.0f} ms) off the "
        f"server's; a synchronized run needs it within {limit_ms:.0f} ms: synchronise its clock "
        "(chrony/NTP) first"
    )


def _shared_files(body: RunCreate, target: Target, plan: Plan | None) -> tuple[bool, list[DomainError]]:
    """Whether the hosts share one set of files: as asked, else as the plan says; directories only."""
    if body.shared_files is None:
        return plan is not None and plan.shared_files and target.kind == TargetKind.directory, []
    if body.shared_files and target.kind != TargetKind.directory:
        refused = Invalid(
            "shared_files applies to directory targets: on a block device every host of the "
            "run already uses the same device",
            [{"field": "shared_files", "value": "true", "reason": "target is a block device"}],
        )
        return False, [refused]
    return body.shared_files, []


def _preset_platform_problems(preset_id: str | None, hosts: Sequence[Host]) -> list[DomainError]:
    """Invalid naming each host whose platform (from its facts) the preset's recipe is not written for."""
    preset = get_preset(preset_id) if preset_id else None
    if preset is None:
        return []
    items = []
    for host in hosts:
        platform = platform_of(host.facts)
        if platform is None or platform == preset.platform:
            continue
        items.append(
            {
                "field": "preset_id",
                "value": preset.id,
                "reason": f"preset '{preset.id}' ({preset.name}) is a {_PLATFORM_NAMES[preset.platform]} "
                f"recipe; host '{host.name}' runs {_PLATFORM_NAMES[platform]}: choose a "
                f"{_PLATFORM_NAMES[platform]} preset or a host that runs {_PLATFORM_NAMES[preset.platform]}",
            }
        )
    return [Invalid(items[0]["reason"], items)] if items else []


def _free_bytes_of(hosts: Sequence[Host], target: Target) -> int | None:
    """The least free space any of the hosts reported for the target's path (None: unknown)."""
    if target.kind != TargetKind.directory:
        return None
    known = [b for h in hosts if (b := free_bytes_for(h.facts, target.path)) is not None]
    return min(known) if known else None


def _memory_of(hosts: Sequence[Host]) -> int | None:
    """The least memory any of the hosts reported (None: none did)."""
    memories = [m for h in hosts if isinstance(m := (h.facts or {}).get("memory_bytes"), int) and m > 0]
    return min(memories) if memories else None


def with_plan_sweep(body: RunCreate, plan: Plan | None) -> RunCreate:
    """The body with its plan's sweep (unless it sweeps on its own) and preconditioning."""
    if plan is None or (not plan.sweep and not plan.precondition):
        return body
    update: dict[str, Any] = {"precondition": body.precondition or plan.precondition}
    if plan.sweep and body.sweep is None:
        update |= {
            "sweep": [SweepAxis.model_validate(axis) for axis in plan.sweep["axes"]],
            "sweep_shuffle": bool(plan.sweep.get("shuffle")),
            "sweep_seed": int(plan.sweep.get("seed") or 0),
            "sweep_stop": SweepStop.model_validate(plan.sweep["stop"]) if plan.sweep.get("stop") else None,
        }
    return body.model_copy(update=update)
