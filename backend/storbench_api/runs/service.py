"""Runs: starting, cancelling, and every status transition of runs and assignments."""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api import live
from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.fio_tools.service import ensure_safe_on_target, normalise_jobs
from storbench_api.hosts import repository as hosts_repository
from storbench_api.hosts.service import is_online, offline_reason
from storbench_api.models import (
    Assignment,
    Host,
    Plan,
    ProgressSample,
    Result,
    Run,
    RunStatus,
    Target,
    TargetKind,
)
from storbench_api.plans import service as plans_service
from storbench_api.results import service as results_service
from storbench_api.runs import repository
from storbench_api.runs.aggregate import aggregate_run
from storbench_api.runs.schemas import (
    AssignmentOut,
    HostProgress,
    HostRef,
    ProgressSampleOut,
    RunCreate,
    RunOut,
    RunProgress,
    TargetRef,
)
from storbench_api.security import keyed_name
from storbench_api.settings import get_settings
from storbench_api.targets import repository as targets_repository
from storbench_api.targets import service as targets_service
from storbench_fio.presets import get_preset


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
    return normalise_jobs(body.jobs or []), None, None


def expected_duration(jobs: Sequence[dict[str, Any]]) -> timedelta:
    """How long fio should take for these jobs, run one after another."""
    max_runtime = get_settings().max_runtime
    total = timedelta()
    for job in jobs:
        runtime = job.get("runtime")
        seconds = (
            (runtime if runtime is not None else max_runtime.total_seconds())
            + (job.get("ramp_time") or 0)
            + (job.get("startdelay") or 0)
        )
        total += timedelta(seconds=seconds)
    return total


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
        limit_ms = settings.max_clock_offset.total_seconds() * 1000
        for host in hosts.values():
            offset = (host.facts or {}).get("clock_offset_ms")
            if offset is None:
                raise Conflict(
                    f"host '{host.name}' has not reported its clock offset yet; retry in a few seconds"
                )
            if abs(float(offset)) > limit_ms:
                raise Conflict(
                    f"host '{host.name}' clock is {float(offset):.0f} ms off the server's; a synchronized "
                    f"run needs it within {limit_ms:.0f} ms: synchronise its clock (chrony/NTP) first"
                )
    return sorted(hosts.values(), key=lambda h: (h.id != primary.id, h.name))


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


def start_run(db: Session, principal: Principal, body: RunCreate) -> tuple[Run, list[Assignment]]:
    """A queued run and one assignment per host; the caller commits, then enqueues."""
    target = targets_repository.get_target(db, principal.team_id, body.target_id)
    if target is None:
        raise Invalid(
            f"target {body.target_id} does not exist in this team",
            [{"field": "target_id", "value": str(body.target_id), "reason": "unknown target"}],
        )
    jobs, plan, plan_name = _jobs_for(db, principal.team_id, body)
    ensure_safe_on_target(
        jobs,
        kind=target.kind,
        path=target.path,
        destructive=target.destructive,
        confirmed_destructive=body.confirm_destructive,
    )
    hosts = _participants(db, principal.team_id, target.host, body)
    for host in hosts:
        targets_service.ensure_placeable(host, target.kind, target.path, roots_must_be_known=True)
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
    )
    shared_files = _shared_files(body, target, plan)
    run = Run(
        team_id=principal.team_id,
        target_id=target.id,
        plan_id=plan.id if plan is not None else None,
        plan_name=plan_name,
        created_by_id=principal.user_id,
        jobs=jobs,
        confirmed_destructive=body.confirm_destructive,
        shared_files=shared_files,
        status=RunStatus.queued,
    )
    run.target = target
    run.assignments = []
    for host in hosts:
        assignment = Assignment(
            host_id=host.id, status=RunStatus.queued, worker_info={}, dispatched_at=utcnow()
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
    return run, list(run.assignments)


def get_run(db: Session, team_id: int, run_id: int) -> Run:
    """The team's run, or 404."""
    run = repository.get_run(db, team_id, run_id)
    if run is None:
        raise NotFound(f"run {run_id} not found")
    return run


def _note_worker_info(assignment: Assignment, **values: Any) -> None:
    """Keep what the worker reported about its share (the JSON column is replaced, so the change is seen)."""
    assignment.worker_info = {**(assignment.worker_info or {}), **values}


def _finish_assignment(assignment: Assignment, status: RunStatus, error: str | None = None) -> None:
    assignment.status = status
    assignment.finished_at = utcnow()
    if error:
        assignment.error = error


def _refresh_run_status(run: Run) -> None:
    """Derive a run's status from its assignments: the one place a run changes state."""
    live.announce_after_commit(run)
    if run.status.is_terminal:
        return
    states = [a.status for a in run.assignments]
    now = utcnow()
    if any(s == RunStatus.running for s in states) or (
        any(s.is_terminal for s in states) and not all(s.is_terminal for s in states)
    ):
        if run.status == RunStatus.queued:
            run.status = RunStatus.running
            run.started_at = min((a.started_at for a in run.assignments if a.started_at), default=now)
        return
    if not all(s.is_terminal for s in states):
        return
    failed = [a for a in run.assignments if a.status == RunStatus.failed]
    if failed:
        run.status = RunStatus.failed
        run.error = "; ".join(f"{a.host.name}: {a.error}" for a in failed)
    elif all(s == RunStatus.cancelled for s in states):
        run.status = RunStatus.cancelled
    else:
        run.status = RunStatus.completed
    run.finished_at = now
    if run.started_at is None:
        run.started_at = min((a.started_at for a in run.assignments if a.started_at), default=None)


def cancel_run(db: Session, principal: Principal, run_id: int) -> Run:
    """Cancel a queued or running run; its workers stop fio when they next check."""
    run = repository.get_run(db, principal.team_id, run_id, for_update=True)
    if run is None:
        raise NotFound(f"run {run_id} not found")
    if run.status.is_terminal:
        raise Conflict(f"run {run_id} is already {run.status}; only queued or running runs can be cancelled")
    for assignment in run.assignments:
        if not assignment.status.is_terminal:
            _finish_assignment(assignment, RunStatus.cancelled, "cancelled by " + principal.email)
    run.status = RunStatus.cancelled
    run.error = f"cancelled by {principal.email}"
    run.finished_at = utcnow()
    live.announce_after_commit(run)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="run.cancelled",
        resource_type="run",
        resource_id=run.id,
        hosts=[a.host.name for a in run.assignments],
    )
    db.flush()
    return run


def fail_undispatchable(db: Session, run: Run, reason: str) -> None:
    """Mark a run failed because its work could not be handed to the broker."""
    for assignment in run.assignments:
        if not assignment.status.is_terminal:
            _finish_assignment(assignment, RunStatus.failed, reason)
    _refresh_run_status(run)
    db.flush()


def describe_runs(db: Session, runs: Sequence[Run], with_results: bool) -> list[RunOut]:
    """Runs as the API shows them, with results (and the multi-host aggregate) when asked."""
    results_by_run: dict[int, list[Result]] = {}
    if with_results:
        for result in repository.results_of_runs(db, [r.id for r in runs]):
            results_by_run.setdefault(result.run_id or 0, []).append(result)
    described = []
    for run in runs:
        out = _describe(run, results_by_run.get(run.id, []))
        if with_results and len(run.assignments) > 1 and run.status.is_terminal:
            samples = repository.progress_samples(db, [a.id for a in run.assignments])
            out.aggregate = aggregate_run(run.assignments, results_by_run.get(run.id, []), samples)
        described.append(out)
    return described


def _assignment_out(assignment: Assignment) -> AssignmentOut:
    info = assignment.worker_info or {}
    fio_started = info.get("fio_started_at")
    cpu_percent = info.get("worker_cpu_percent")
    return AssignmentOut(
        host=HostRef(id=assignment.host.id, name=assignment.host.name),
        status=assignment.status,
        ready_at=assignment.ready_at,
        started_at=assignment.started_at,
        fio_started_at=datetime.fromisoformat(fio_started) if isinstance(fio_started, str) else None,
        finished_at=assignment.finished_at,
        worker_cpu_percent=float(cpu_percent) if isinstance(cpu_percent, int | float) else None,
        error=assignment.error,
    )


def _describe(run: Run, results: Sequence[Result]) -> RunOut:
    target: Target = run.target
    return RunOut(
        id=run.id,
        status=run.status,
        plan_id=run.plan_id,
        plan_name=run.plan_name,
        target=TargetRef(id=target.id, name=target.name, path=target.path, kind=target.kind),
        host=HostRef(id=target.host.id, name=target.host.name),
        jobs=run.jobs,
        shared_files=run.shared_files,
        created_at=run.created_at,
        started_at=run.started_at,
        finished_at=run.finished_at,
        error=run.error,
        start_at=run.start_at,
        assignments=[_assignment_out(a) for a in run.assignments],
        results=[results_service.describe(r) for r in results],
    )


def run_progress(db: Session, run: Run, after_id: int = 0) -> RunProgress:
    """The run's per-second series per host (only samples newer than after_id)."""
    samples = repository.progress_samples(db, [a.id for a in run.assignments], after_id)
    by_assignment: dict[int, list[ProgressSampleOut]] = {}
    for sample in samples:
        by_assignment.setdefault(sample.assignment_id, []).append(
            ProgressSampleOut.model_validate(sample, from_attributes=True)
        )
    return RunProgress(
        run_id=run.id,
        status=run.status,
        hosts=[
            HostProgress(
                host_name=a.host.name,
                assignment_id=a.id,
                status=a.status,
                samples=by_assignment.get(a.id, []),
            )
            for a in run.assignments
        ],
    )


# ---- transitions reported by workers -------------------------------------------------


def assignment_for_host(db: Session, host_id: int, assignment_id: int) -> Assignment:
    """An assignment of this host, or 404 (another host's work is invisible)."""
    assignment = repository.get_assignment_for_host(db, host_id, assignment_id)
    if assignment is None:
        raise NotFound(f"assignment {assignment_id} not found for this host")
    return assignment


def mark_ready(db: Session, assignment: Assignment) -> datetime | None:
    """The host laid out its files; once every host is ready, fix the start time for all."""
    if assignment.status != RunStatus.queued:
        return assignment.run.start_at
    now = utcnow()
    if assignment.ready_at is None:
        assignment.ready_at = now
    run = assignment.run
    everyone_ready = all(a.status == RunStatus.queued and a.ready_at is not None for a in run.assignments)
    if run.start_at is None and everyone_ready:
        # A lone host starts at once; several need time to hear the start time before it comes.
        lead = get_settings().start_lead if len(run.assignments) > 1 else timedelta()
        run.start_at = now + lead
    db.flush()
    return run.start_at


def mark_started(
    db: Session,
    assignment: Assignment,
    fio_started_at: datetime | None = None,
    clock_offset_ms: float | None = None,
) -> None:
    """The worker started fio (at fio_started_at, server clock); set the deadline the sweeper enforces."""
    if assignment.status != RunStatus.queued:
        raise Conflict(f"assignment {assignment.id} is {assignment.status}; it cannot start")
    now = utcnow()
    assignment.status = RunStatus.running
    assignment.started_at = now
    if fio_started_at is not None:
        _note_worker_info(assignment, fio_started_at=fio_started_at.isoformat())
    if clock_offset_ms is not None:
        _note_worker_info(assignment, clock_offset_ms=clock_offset_ms)
    assignment.deadline_at = now + expected_duration(assignment.run.jobs) + get_settings().run_deadline_grace
    _refresh_run_status(assignment.run)
    db.flush()


def record_output(
    db: Session,
    assignment: Assignment,
    fio_output: str,
    stopped_early: str | None = None,
    worker_cpu_percent: float | None = None,
) -> list[Result]:
    """Store fio's output for an assignment, once; repeated uploads are acknowledged."""
    existing = repository.results_of_runs(db, [assignment.run_id])
    already = [r for r in existing if r.assignment_id == assignment.id]
    if already:
        return list(already)
    report = results_service.parse_output(fio_output)
    run = assignment.run
    results = results_service.store_report(
        db,
        team_id=run.team_id,
        raw_text=fio_output,
        report=report,
        run_id=run.id,
        assignment_id=assignment.id,
        host_id=assignment.host_id,
        host_name=assignment.host.name,
        target_id=run.target_id,
        partial=stopped_early is not None,
        storage_class=run.target.storage_class,
        label=run.target.name,
    )
    if worker_cpu_percent is not None:
        _note_worker_info(assignment, worker_cpu_percent=worker_cpu_percent)
    failed_jobs = [j.name for j in report.jobs if j.error]
    if assignment.status == RunStatus.running:
        if stopped_early:
            _finish_assignment(assignment, RunStatus.failed, f"{stopped_early}; partial results kept")
        elif failed_jobs:
            _finish_assignment(
                assignment, RunStatus.failed, f"fio reported errors in jobs: {', '.join(failed_jobs)}"
            )
        else:
            _finish_assignment(assignment, RunStatus.completed)
    _refresh_run_status(run)
    db.flush()
    return results


def record_progress(db: Session, assignment: Assignment, samples: list[dict[str, Any]]) -> None:
    """Keep the samples of a running assignment (late ones of a stopped one too: they were measured).

    With no samples it only answers whether to go on (a host laying out files asks so).
    """
    if assignment.status == RunStatus.queued and samples:
        raise Conflict(f"assignment {assignment.id} has not started")
    for sample in samples:
        live.announce_after_commit(assignment.run)
        db.add(
            ProgressSample(
                assignment_id=assignment.id,
                elapsed_s=sample["elapsed_s"],
                eta_s=sample["eta_s"],
                percent=sample["percent"],
                directions=sample["directions"],
                measured_at=(
                    datetime.fromtimestamp(sample["timestamp_ms"] / 1000, UTC)
                    if sample.get("timestamp_ms")
                    else None
                ),
            )
        )
    db.flush()


def scratch_name(assignment: Assignment) -> str:
    """The run directory's name: fresh per host (or one per run with shared files), not guessable.

    Anyone who can write in the target could plant links under a name known in advance; this one
    is derived from the service's secret.
    """
    run = assignment.run
    own = "shared" if run.shared_files else f"a{assignment.id}"
    token = keyed_name(get_settings().secret_key, f"run-directory:{run.id}:{own}")
    return f"storbench-run{run.id}-{own}-{token}"


def lays_out_files(assignment: Assignment) -> bool:
    """Whether this host creates the files: every host its own, or the first host the shared set."""
    run = assignment.run
    return not run.shared_files or assignment.id == min(a.id for a in run.assignments)


def release_files(db: Session, assignment: Assignment) -> bool:
    """This host is done with the run's files; True when it should remove them.

    A host's own files are its to remove. Shared files are removed by the last host to let go:
    every other host has released them, or ended without ever starting fio. A host that died
    mid-run holds them until its worker comes back and releases them.
    """
    if not assignment.run.shared_files:
        return True
    _note_worker_info(assignment, files_released=True)
    db.flush()  # write first: on SQLite this takes the lock that serialises concurrent releases
    others = db.scalars(
        select(Assignment)
        .where(Assignment.run_id == assignment.run_id, Assignment.id != assignment.id)
        .execution_options(populate_existing=True)
    ).all()
    return all(
        (other.worker_info or {}).get("files_released")
        or (other.status.is_terminal and other.started_at is None)
        for other in others
    )


def record_failure(db: Session, assignment: Assignment, reason: str) -> None:
    """The worker could not run the assignment; keep its reason."""
    if assignment.status.is_terminal:
        return
    _finish_assignment(assignment, RunStatus.failed, reason.strip()[:4000] or "worker reported a failure")
    run = assignment.run
    if run.start_at is None:
        # Before the barrier: a synchronized measurement without this host would not be the one asked for.
        for other in run.assignments:
            if other.status == RunStatus.queued:
                _finish_assignment(
                    other,
                    RunStatus.failed,
                    f"not started: host '{assignment.host.name}' failed while preparing",
                )
    _refresh_run_status(run)
    db.flush()


def sweep_stuck_assignments(db: Session, now: datetime | None = None, judge_liveness: bool = True) -> int:
    """Fail assignments no worker will finish: never picked up, host lost, or past deadline.

    judge_liveness is off while hosts had no chance to reach the server (it just started).
    """
    settings = get_settings()
    now = now or utcnow()
    swept = 0
    for assignment in repository.unfinished_assignments(db):
        reason = None
        host = assignment.host
        silent = judge_liveness and not is_online(host, now)
        if assignment.status == RunStatus.queued:
            waited = now - assignment.created_at
            if waited > settings.dispatch_timeout and silent:
                reason = (
                    f"no worker picked the run up within {int(waited.total_seconds())} s: "
                    + offline_reason(host)
                )
        elif silent:
            reason = f"lost contact with the worker on host '{host.name}' while fio was running"
        elif assignment.deadline_at is not None and now > assignment.deadline_at:
            reason = "the run exceeded its deadline (expected duration plus grace) and was abandoned"
        if reason:
            _finish_assignment(assignment, RunStatus.failed, reason)
            _refresh_run_status(assignment.run)
            swept += 1
    db.flush()
    return swept


def fail_host_assignments(
    db: Session, host_id: int, reason: str, *, started_only: bool = False, except_ids: set[int] | None = None
) -> int:
    """Fail a host's unfinished assignments with the reason (only those it had begun, if asked)."""
    failed = 0
    for assignment in repository.unfinished_assignments(db, host_id):
        begun = assignment.status == RunStatus.running or assignment.fetched_at is not None
        if (started_only and not begun) or assignment.id in (except_ids or set()):
            continue
        record_failure(db, assignment, reason)
        failed += 1
    db.flush()
    return failed


def note_fetched(assignment: Assignment) -> None:
    """The worker has the assignment: its message arrived, so it is never sent again."""
    if assignment.fetched_at is None:
        assignment.fetched_at = utcnow()


def assignments_to_redispatch(db: Session, now: datetime | None = None) -> list[Assignment]:
    """Queued assignments whose message seems lost: never fetched, their host online and idle.

    Marked dispatched now; the caller commits, then sends each again (the worker skips an
    assignment that is no longer queued, so a duplicate message costs nothing).
    """
    now = now or utcnow()
    wait = get_settings().redispatch_after
    unfinished = repository.unfinished_assignments(db)
    busy = {a.host_id for a in unfinished if a.status == RunStatus.running or a.fetched_at is not None}
    chosen = []
    for assignment in unfinished:
        sent = assignment.dispatched_at or assignment.created_at
        if (
            assignment.status == RunStatus.queued
            and assignment.fetched_at is None
            and assignment.host_id not in busy
            and is_online(assignment.host, now)
            and now - sent > wait
        ):
            assignment.dispatched_at = now
            busy.add(assignment.host_id)  # one at a time per host: it runs one assignment at a time
            chosen.append(assignment)
    db.flush()
    return chosen
