"""Starting a run: its jobs, its hosts, every safety check, then one queued assignment per host."""

from typing import Any

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, Invalid
from storbench_api.fio_tools.schemas import jobs_in
from storbench_api.fio_tools.service import ensure_safe_on_target, normalise_jobs
from storbench_api.hosts import repository as hosts_repository
from storbench_api.hosts.mounts import mount_for
from storbench_api.hosts.service import is_online, offline_reason
from storbench_api.models import Assignment, Host, Plan, Run, RunStatus, Target, TargetKind
from storbench_api.models.run import WorkerInfo
from storbench_api.plans import service as plans_service
from storbench_api.runs import precheck
from storbench_api.runs.repetitions import ensure_repetitions_fit
from storbench_api.runs.schemas import RunCreate
from storbench_api.settings import get_settings
from storbench_api.targets import repository as targets_repository
from storbench_api.targets import service as targets_service
from storbench_fio.presets import get_preset


def start_run(db: Session, principal: Principal, body: RunCreate) -> Run:
    """A queued run and one assignment per host; the caller commits, then enqueues."""
    target = targets_repository.get_target(db, principal.team_id, body.target_id)
    if target is None:
        raise Invalid(
            f"target {body.target_id} does not exist in this team",
            [{"field": "target_id", "value": str(body.target_id), "reason": "unknown target"}],
        )
    jobs, plan, plan_name = _jobs_for(db, principal.team_id, body)
    precheck.ensure_preset_runs_on(body.preset_id, [target.host])
    ensure_safe_on_target(
        jobs,
        kind=target.kind,
        path=target.path,
        destructive=target.destructive,
        confirmed_destructive=body.confirm_destructive,
    )
    ensure_repetitions_fit(jobs, body.repetitions)
    hosts = _participants(db, principal.team_id, target.host, body)
    for host in hosts:
        targets_service.ensure_placeable(host, target.kind, target.path, roots_must_be_known=True)
    precheck.ensure_preset_runs_on(body.preset_id, hosts)
    # Again with what the hosts tell: the smallest one's memory, and how many run at once.
    memories = [m for h in hosts if isinstance(m := (h.facts or {}).get("memory_bytes"), int) and m > 0]
    ensure_safe_on_target(
        jobs,
        kind=target.kind,
        path=target.path,
        destructive=target.destructive,
        confirmed_destructive=body.confirm_destructive,
        host_memory_bytes=min(memories) if memories else None,
        host_count=len(hosts),
        free_bytes=precheck.free_bytes_of(hosts, target),
    )
    run = Run(
        team_id=principal.team_id,
        target_id=target.id,
        plan_id=plan.id if plan is not None else None,
        plan_name=plan_name,
        plan_version=plan.version if plan is not None else None,
        label=body.label,
        note=body.note,
        created_by_id=principal.user_id,
        jobs=jobs,
        confirmed_destructive=body.confirm_destructive,
        shared_files=_shared_files(body, target, plan),
        status=RunStatus.queued,
        repetitions=body.repetitions,
    )
    run.target = target
    run.assignments = []
    for host in hosts:
        assignment = Assignment(
            host_id=host.id,
            status=RunStatus.queued,
            dispatched_at=utcnow(),
            # The mount as the host reported it now: the result keeps what it ran on.
            worker_info=WorkerInfo(mount=mount_for(host.facts, target.path)),
        )
        assignment.host = host
        run.assignments.append(assignment)
    db.add(run)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="run.started",
        resource_type="run",
        resource_id=run.id,
        hosts=[h.name for h in hosts],
        target=target.name,
        plan=plan_name,
        confirmed_destructive=body.confirm_destructive,
    )
    return run


def _jobs_for(
    db: Session, team_id: int, body: RunCreate
) -> tuple[list[dict[str, Any]], Plan | None, str | None]:
    """The normalised jobs to run, with the saved plan and the plan or preset name they came from."""
    if body.plan_id is not None:
        plan = plans_service.get_plan(db, team_id, body.plan_id)
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


def _participants(db: Session, team_id: int, primary: Host, body: RunCreate) -> list[Host]:
    """The target's host plus the hosts named or labelled; each online, with a usable clock."""
    hosts = {primary.id: primary}
    for host_id in body.host_ids:
        host = hosts_repository.get_host(db, team_id, host_id)
        if host is None:
            raise Invalid(
                f"host {host_id} does not exist in this team",
                [{"field": "host_ids", "value": str(host_id), "reason": "unknown host"}],
            )
        hosts[host.id] = host
    if body.host_label:
        labelled = [h for h in hosts_repository.all_hosts(db, team_id) if body.host_label in (h.labels or [])]
        if not labelled:
            raise Invalid(
                f"no host carries the label '{body.host_label}'",
                [{"field": "host_label", "value": body.host_label, "reason": "no such label"}],
            )
        hosts.update({h.id: h for h in labelled})
    settings = get_settings()
    if len(hosts) > settings.max_hosts_per_run:
        raise Invalid(f"a run may use at most {settings.max_hosts_per_run} hosts; {len(hosts)} were named")
    for host in hosts.values():
        if not is_online(host):
            raise Conflict(offline_reason(host))
    if len(hosts) > 1:
        _ensure_clocks_agree(list(hosts.values()), settings.max_clock_offset.total_seconds() * 1000)
    return sorted(hosts.values(), key=lambda h: (h.id != primary.id, h.name))


def _ensure_clocks_agree(hosts: list[Host], limit_ms: float) -> None:
    """No host of a synchronized run is known to be more than limit_ms off the server's clock.

    An offset measured over a slow round trip is only known within half of it (a loaded host or API
    stretches round trips to hundreds of ms while the clocks agree): a host is refused when even the
    nearest value its measurement allows is past the limit, not for the uncertainty of the estimate.
    """
    for host in hosts:
        facts = host.facts or {}
        offset = facts.get("clock_offset_ms")
        if offset is None:
            raise Conflict(
                f"host '{host.name}' has not reported its clock offset yet; retry in a few seconds"
            )
        uncertainty = float(facts.get("clock_uncertainty_ms") or 0.0)
        if abs(float(offset)) - uncertainty > limit_ms:
            raise Conflict(
                f"host '{host.name}' clock is {float(offset):.0f} ms (± {uncertainty:.0f} ms) off the "
                f"server's; a synchronized run needs it within {limit_ms:.0f} ms: synchronise its clock "
                "(chrony/NTP) first"
            )


def _shared_files(body: RunCreate, target: Target, plan: Plan | None) -> bool:
    """Whether the hosts share one set of files: as asked, else as the plan says; directories only."""
    if body.shared_files is not None:
        if body.shared_files and target.kind != TargetKind.directory:
            raise Invalid(
                "shared_files applies to directory targets: on a block device every host of the "
                "run already uses the same device",
                [{"field": "shared_files", "value": "true", "reason": "target is a block device"}],
            )
        return body.shared_files
    return plan is not None and plan.shared_files and target.kind == TargetKind.directory
