"""What a host's worker reports about its assignments, and what the server answers it.

A host only ever sees its own assignments: another host's answer 404. Each request also counts as a
sign of life of the host (deps.current_host records it). The caller commits.
"""

from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.errors import NotFound
from storbench_api.kit.logs import bind
from storbench_api.models import Assignment, Host
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from storbench_api.runs import early_stop, lifecycle, presenters, repetitions, repository, steadiness
from storbench_api.runs.sweep import repetition_of_sweep_results
from storbench_fio.precondition import without_fill
from storbench_protocol.assignments import (
    AssignmentState,
    BarrierState,
    FailureReport,
    FilesReleased,
    Interrupted,
    RestartReport,
    StartReport,
    WorkerAssignment,
)
from storbench_protocol.progress import ProgressReport
from storbench_protocol.results import ResultStored, ResultUpload


def _assignment_of(db: Session, host: Host, assignment_id: int) -> Assignment:
    """An assignment of this host with its run locked, or 404 (another host's work is invisible)."""
    assignment = repository.get_assignment_for_host(db, host.id, assignment_id)
    if assignment is None:
        raise NotFound(f"assignment {assignment_id} not found for this host")
    bind(run_id=assignment.run_id, assignment_id=assignment.id)
    return assignment


def _state(assignment: Assignment) -> AssignmentState:
    return AssignmentState(id=assignment.id, status=assignment.status)


def fetch(db: Session, host: Host, assignment_id: int) -> WorkerAssignment:
    """The jobs and target of one of the host's assignments; fetched, it is never sent again."""
    assignment = _assignment_of(db, host, assignment_id)
    lifecycle.note_fetched(assignment)
    return presenters.worker_assignment(assignment)


def report_progress(db: Session, host: Host, assignment_id: int, report: ProgressReport) -> AssignmentState:
    """Keep the samples (shown live, kept with the result); the answer says whether fio goes on."""
    assignment = _assignment_of(db, host, assignment_id)
    lifecycle.record_progress(db, assignment, report.samples)
    if report.samples and assignment.run.sweep:
        early_stop.check(db, assignment)
    return _state(assignment)


def ready(db: Session, host: Host, assignment_id: int) -> tuple[int, BarrierState]:
    """The host laid its files out: (its run's id, the answer, with the start once everyone is ready)."""
    assignment = _assignment_of(db, host, assignment_id)
    start_at = lifecycle.mark_ready(db, assignment)
    state = BarrierState(id=assignment.id, status=assignment.status, start_at=start_at, server_time=utcnow())
    return assignment.run_id, state


def barrier_state(db: Session, host_id: int, assignment_id: int) -> BarrierState:
    """The host's barrier state now, read without locking (between waits at the barrier)."""
    row = repository.barrier_of(db, host_id, assignment_id)
    if row is None:
        raise NotFound(f"assignment {assignment_id} not found for this host")
    status, start_at = row
    return BarrierState(id=assignment_id, status=status, start_at=start_at, server_time=utcnow())


def start(db: Session, host: Host, assignment_id: int, report: StartReport | None) -> WorkerAssignment:
    """fio started on the host; 409 if the assignment was cancelled meanwhile."""
    assignment = _assignment_of(db, host, assignment_id)
    report = report or StartReport()
    lifecycle.mark_started(db, assignment, report.fio_started_at, report.clock_offset_ms)
    return presenters.worker_assignment(assignment)


def store_result(db: Session, host: Host, assignment_id: int, upload: ResultUpload) -> ResultStored:
    """Store fio's output once; the same upload again is acknowledged, not stored twice."""
    assignment = _assignment_of(db, host, assignment_id)
    stored = [
        r for r in repository.results_of_runs(db, [assignment.run_id]) if r.assignment_id == assignment.id
    ]
    if not stored:
        run = assignment.run
        parsed = results_service.parse_output(upload.fio_output)
        planned_jobs = run.sweep["planned_jobs"] if run.sweep else run.jobs
        added = run.repetitions > 1 or run.sweep is not None or run.precondition
        measured = without_fill(parsed) if run.precondition else parsed
        report = repetitions.without_added_stonewalls(measured, planned_jobs, added)
        source = Provenance.of_assignment(
            assignment,
            partial=upload.stopped_early is not None,
            repetitions=repetition_of_sweep_results(report, run.sweep, run.repetitions)
            if run.sweep
            else repetitions.repetition_of_results(report, run.jobs, run.repetitions),
        )
        stored = results_service.store_report(db, source, report, upload.fio_output)
        if upload.stopped_early is not None:
            repetitions.keep_whole_groups(stored, report)
        steadiness.assess(
            db,
            assignment,
            stored,
            report,
            repetitions=run.repetitions,
            ran=parsed.jobs,
            groups_before=1 if run.precondition else 0,
        )
        lifecycle.finish_measured(
            assignment,
            failed_jobs=[job.name for job in report.jobs if job.error],
            stopped_early=upload.stopped_early,
            worker_cpu_percent=upload.worker_cpu_percent,
        )
        db.flush()
    return ResultStored(results=len(stored))


def release_files(db: Session, host: Host, assignment_id: int) -> FilesReleased:
    """The host is done with the run's files; shared ones are removed by the last host to let go."""
    assignment = _assignment_of(db, host, assignment_id)
    return FilesReleased(remove=lifecycle.release_files(db, assignment))


def report_failure(db: Session, host: Host, assignment_id: int, report: FailureReport) -> AssignmentState:
    """The assignment could not run; its run fails with this reason."""
    assignment = _assignment_of(db, host, assignment_id)
    lifecycle.record_failure(db, assignment, report.reason)
    return _state(assignment)


def restarted(db: Session, host: Host, report: RestartReport) -> Interrupted:
    """A fresh worker process runs nothing: what this host had begun failed with it, said at once.

    Assignments whose output waits in the host's spool are left alone: they will be delivered.
    """
    reason = (
        f"the worker on host '{host.name}' restarted while this was running; fio stopped with it "
        "(start the run again)"
    )
    failed = lifecycle.fail_host_assignments(
        db, host.id, reason, started_only=True, except_ids=set(report.spooled)
    )
    return Interrupted(failed=failed)
