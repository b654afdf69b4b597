"""The run and assignment state machine: every status change, whoever causes it.

An assignment (one host's share of a run) moves queued → running → completed | failed | cancelled
as its worker reports, as a user cancels, or as the sweeper gives up on it; a run's status is only
ever derived from its assignments (refresh_run_status), except for a cancel, which ends both at
once. Functions here flush; the caller commits, then enqueues what they return.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, object_session

from storbench_api import live
from storbench_api.db import utcnow
from storbench_api.errors import Conflict
from storbench_api.hosts.service import is_online, offline_reason
from storbench_api.kit.logs import get_logger
from storbench_api.models import Assignment, FiringStatus, ProgressSample, Run, RunStatus
from storbench_api.runs import barrier, repository
from storbench_api.settings import get_settings
from storbench_api.webhooks import events as webhook_events
from storbench_api.webhooks import service as webhooks
from storbench_protocol.progress import WorkerProgressSample

_log = get_logger(__name__)


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


def finish_assignment(assignment: Assignment, status: RunStatus, error: str | None = None) -> None:
    """End one host's share with a terminal status (and why, when it did not complete)."""
    assignment.status = status
    assignment.finished_at = utcnow()
    if error:
        assignment.error = error


def refresh_run_status(run: Run) -> None:
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
        _tell_its_schedule(run)
    elif all(s == RunStatus.cancelled for s in states):
        run.status = RunStatus.cancelled
    else:
        run.status = RunStatus.completed
    run.finished_at = now
    if run.started_at is None:
        run.started_at = min((a.started_at for a in run.assignments if a.started_at), default=None)
    _log_end(run)


def _tell_its_schedule(run: Run) -> None:
    """A scheduled run that failed marks its slot run_failed and fires schedule.run_failed."""
    db = object_session(run)
    found = repository.firing_of_run(db, run.id) if db is not None else None
    if db is None or found is None:
        return
    firing, schedule = found
    firing.status = FiringStatus.run_failed
    firing.reason = f"the run failed: {run.error}"[:4000]
    payload = {
        "schedule_id": schedule.id,
        "schedule": schedule.name,
        "slot_at": firing.slot_at,
        "run_id": run.id,
        "target_id": run.target_id,
        "reason": run.error,
    }
    webhooks.enqueue_event(db, run.team_id, webhook_events.SCHEDULE_RUN_FAILED, payload)


def _log_end(run: Run) -> None:
    _log.info(
        "run ended",
        run_id=run.id,
        team_id=run.team_id,
        status=run.status.value,
        hosts=[a.host_id for a in run.assignments],
        error=run.error,
    )


def cancel(run: Run, by: str) -> None:
    """End a queued or running run and its unfinished assignments; its workers stop fio when they next ask."""
    if run.status.is_terminal:
        raise Conflict(f"run {run.id} is already {run.status}; only queued or running runs can be cancelled")
    for assignment in run.assignments:
        if not assignment.status.is_terminal:
            finish_assignment(assignment, RunStatus.cancelled, f"cancelled by {by}")
    run.status = RunStatus.cancelled
    run.error = f"cancelled by {by}"
    run.finished_at = utcnow()
    live.announce_after_commit(run)
    _log_end(run)


def stop_early(run: Run, reason: str) -> None:
    """End a running sweep that crossed its bound: cancelled with the reason; its workers stop fio."""
    if run.status.is_terminal:
        return
    for assignment in run.assignments:
        if not assignment.status.is_terminal:
            finish_assignment(assignment, RunStatus.cancelled, reason)
    run.status = RunStatus.cancelled
    run.error = reason
    run.finished_at = utcnow()
    live.announce_after_commit(run)
    _log_end(run)


def fail_undispatchable(db: Session, run: Run, reason: str) -> None:
    """Mark a run failed because its work could not be handed to the broker."""
    for assignment in run.assignments:
        if not assignment.status.is_terminal:
            finish_assignment(assignment, RunStatus.failed, reason)
    refresh_run_status(run)
    db.flush()


# ---- what workers report ------------------------------------------------------------------


def note_fetched(assignment: Assignment) -> None:
    """The worker has the assignment: its message arrived, so it is never sent again."""
    if assignment.fetched_at is None:
        assignment.fetched_at = utcnow()


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
        run.start_at = now + barrier.start_lead(len(run.assignments))
        live.announce_after_commit(run)  # the hosts waiting at the barrier hear it at once
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
    reported = {"fio_started_at": fio_started_at, "clock_offset_ms": clock_offset_ms}
    assignment.worker_info = assignment.worker_info.model_copy(
        update={name: value for name, value in reported.items() if value is not None}
    )
    run = assignment.run
    assignment.deadline_at = (
        now
        + expected_duration(run.jobs) * run.repetitions
        # A fill runs until done, at most as long as a job may.
        + (get_settings().max_runtime if run.precondition else timedelta())
        + get_settings().run_deadline_grace
    )
    refresh_run_status(assignment.run)
    db.flush()


def record_progress(db: Session, assignment: Assignment, samples: Sequence[WorkerProgressSample]) -> None:
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
                elapsed_s=sample.elapsed_s,
                eta_s=sample.eta_s,
                percent=sample.percent,
                directions=sample.directions,
                phase=sample.phase,
                measured_at=(
                    datetime.fromtimestamp(sample.timestamp_ms / 1000, UTC) if sample.timestamp_ms else None
                ),
            )
        )
    db.flush()


def finish_measured(
    assignment: Assignment,
    failed_jobs: Sequence[str],
    stopped_early: str | None = None,
    worker_cpu_percent: float | None = None,
) -> None:
    """fio's output is stored: the assignment completed, or failed saying which jobs or why it stopped."""
    if worker_cpu_percent is not None:
        assignment.worker_info = assignment.worker_info.model_copy(
            update={"worker_cpu_percent": worker_cpu_percent}
        )
    if assignment.status == RunStatus.running:
        if stopped_early:
            finish_assignment(assignment, RunStatus.failed, f"{stopped_early}; partial results kept")
        elif failed_jobs:
            finish_assignment(
                assignment, RunStatus.failed, f"fio reported errors in jobs: {', '.join(failed_jobs)}"
            )
        else:
            finish_assignment(assignment, RunStatus.completed)
    refresh_run_status(assignment.run)


def release_files(db: Session, assignment: Assignment) -> bool:
    """This host is done with the run's files; True when it should remove them.

    A host's own files are its to remove. Shared files are removed by the last host to let go:
    every other host has released them, or ended without ever starting fio. A host that died
    mid-run holds them until its worker comes back and releases them.
    """
    if not assignment.run.shared_files:
        return True
    assignment.worker_info = assignment.worker_info.model_copy(update={"files_released": True})
    db.flush()  # write first: on SQLite this takes the lock that serialises concurrent releases
    others = repository.other_assignments_of_run(db, assignment.run_id, assignment.id)
    return all(
        other.worker_info.files_released or (other.status.is_terminal and other.started_at is None)
        for other in others
    )


def record_failure(db: Session, assignment: Assignment, reason: str) -> None:
    """The worker could not run the assignment; keep its reason."""
    if assignment.status.is_terminal:
        return
    finish_assignment(assignment, RunStatus.failed, reason.strip()[:4000] or "worker reported a failure")
    run = assignment.run
    if run.start_at is None:
        # Before the barrier: a synchronized measurement without this host would not be the one asked for.
        for other in run.assignments:
            if other.status == RunStatus.queued:
                finish_assignment(
                    other,
                    RunStatus.failed,
                    f"not started: host '{assignment.host.name}' failed while preparing",
                )
    refresh_run_status(run)
    db.flush()


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


# ---- what the sweeper decides -------------------------------------------------------------


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
            finish_assignment(assignment, RunStatus.failed, reason)
            refresh_run_status(assignment.run)
            swept += 1
    db.flush()
    return swept


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
