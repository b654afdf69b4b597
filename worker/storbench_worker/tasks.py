"""The Celery task a host runs for each assignment: fetch, check, run fio, upload, clean up."""

import logging
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from celery import Celery
from celery.signals import worker_shutting_down

from storbench_fio.budget import human_bytes
from storbench_protocol.assignments import WorkerAssignment
from storbench_protocol.common import RunStatus
from storbench_worker import prepare
from storbench_worker.api_client import ServerRefused
from storbench_worker.context import WorkerContext
from storbench_worker.fio_runner import FioOutcome, FioPlace, GatedStart, run_fio
from storbench_worker.preparation import Prepared, fio_argv, open_run_dir, prepare_assignment
from storbench_worker.progress import ProgressReporter, StatusStream
from storbench_worker.start_gate import StartGate, gate_available, jobs_at_first_gate

log = logging.getLogger(__name__)

EXECUTE_ASSIGNMENT_TASK = "storbench.execute_assignment"
# fio appends a full report every second; the last one is the result, the others are progress.
STATUS_ARGS = ("--status-interval=1",)
# How long a host waits at the barrier for the others. The server answers a ready report once the
# start is known (or after holding it 10 s): the worker asks again at once, but never more often
# than every BARRIER_POLL_S (a server that answers at once). Polled every 0.25 s by 20 hosts, the
# barrier cost the API 80 requests a second and /ready took 3.5 s (bench/start_skew.py --fleet).
BARRIER_TIMEOUT_S = 600.0
BARRIER_POLL_S = 0.25
# Round trips to the server's clock before reporting ready: the shortest gives the offset.
CLOCK_SAMPLES = 5
# Layout may take the files' size at the slowest acceptable rate, plus this.
LAYOUT_GRACE_S = 60.0

app = Celery("storbench-worker")


_context: WorkerContext | None = None
# Set when the worker is asked to stop, so a running fio is stopped and its partial report kept.
_shutting_down = threading.Event()


@worker_shutting_down.connect
def _on_shutdown(**_: object) -> None:
    _shutting_down.set()


def configure(context: WorkerContext) -> None:
    """Give the task its configuration and API client."""
    global _context
    _context = context


def _ctx() -> WorkerContext:
    if _context is None:
        raise RuntimeError("worker not configured: start it with storbench-worker")
    return _context


@app.task(name=EXECUTE_ASSIGNMENT_TASK, acks_late=True, ignore_result=True)
def execute_assignment(assignment_id: int) -> None:
    """Run one assignment; every failure is reported to the server, never left hanging."""
    ctx = _ctx()
    try:
        run_assignment(ctx, assignment_id)
    except ServerRefused as exc:
        # 404/409: cancelled, reassigned or unknown; nothing more to do here.
        log.info("assignment %s not run: %s", assignment_id, exc)
    except prepare.CannotRun as exc:
        log.warning("assignment %s cannot run: %s", assignment_id, exc)
        ctx.api.fail(assignment_id, str(exc))
    except Exception as exc:
        log.exception("assignment %s failed", assignment_id)
        ctx.api.fail(assignment_id, f"worker error on host '{ctx.host_name}': {type(exc).__name__}: {exc}")


def run_assignment(ctx: WorkerContext, assignment_id: int) -> None:
    """Fetch, check, lay out, wait for the common start, run, upload and clean up one assignment."""
    assignment = ctx.api.assignment(assignment_id)
    if assignment.status is not RunStatus.queued:
        log.info("assignment %s is %s; skipping", assignment_id, assignment.status)
        return
    prepared = prepare_assignment(ctx, assignment)
    output_dir = ctx.config.state_dir / "runs" / str(assignment_id)
    stream = StatusStream()
    reporter = ProgressReporter(stream, clock_offset_s=lambda: ctx.api.clock.offset_s)
    link = ProgressLink(reporter)
    lays_out = assignment.lays_out
    gate = StartGate(output_dir / "gate") if gate_available() else None
    try:
        if prepared.kind == "directory" and lays_out:
            open_run_dir(ctx, assignment, prepared, create=True)
            _lay_out(ctx, assignment_id, prepared, output_dir / "layout")
        start_at: float | None = None
        if prepared.kind == "directory" and not lays_out:
            # Another host lays the shared files out: they are there once the barrier names the start.
            start_at = _wait_for_start(ctx, assignment_id)
            if start_at is None:
                return
            open_run_dir(ctx, assignment, prepared, create=False)
        elif gate is None:
            start_at = _wait_for_start(ctx, assignment_id)
            if start_at is None:
                return
        gated = _gated_start(ctx, assignment_id, prepared, gate, start_at)
        extra_args = STATUS_ARGS + (gate.fio_args if gate is not None else ())
        argv = fio_argv(ctx, prepared, extra_args=extra_args, repetitions=assignment.repetitions)
        outcome = run_fio(
            argv,
            start_at=start_at,
            output_dir=output_dir,
            should_stop=lambda: _report_and_check(ctx, assignment_id, link),
            poll_s=ctx.config.cancel_poll_s,
            on_started=lambda wall: _tell_started(ctx, assignment_id, wall),
            next_check_in=lambda: reporter.seconds_to_next_report(time.time(), ctx.config.cancel_poll_s),
            place=FioPlace(prepared.run_dir.fd if prepared.run_dir else None, prepared.limits),
            stream=stream,
            gated=gated,
        )
        if not outcome.released:
            _never_started(outcome, output_dir)
            return
        _report_and_check(ctx, assignment_id, link, force=True)
    finally:
        if gate is not None:
            gate.close()
        prepared.close()
        if prepared.run_dir is not None:
            _release(ctx, assignment, prepared.run_dir.path)
    _upload(ctx, assignment_id, outcome, output_dir)


def _gated_start(
    ctx: WorkerContext,
    assignment_id: int,
    prepared: Prepared,
    gate: StartGate | None,
    start_at: float | None,
) -> GatedStart | None:
    """fio set up and waiting before the start: the barrier is asked once its jobs wait at the gate.

    A host joining another's shared files knows the start already (it waited for the files).
    """
    if gate is None:
        return None
    return GatedStart(
        gate=gate,
        jobs_waiting=jobs_at_first_gate(prepared.jobs),
        start_time=(lambda: start_at)
        if start_at is not None
        else lambda: _wait_for_start(ctx, assignment_id),
    )


def _never_started(outcome: FioOutcome, output_dir: Path) -> None:
    """fio was stopped at the barrier (nothing to report), or ended while setting up (a failure)."""
    shutil.rmtree(output_dir, ignore_errors=True)
    if outcome.cancelled:
        return
    message = outcome.stderr_tail.strip() or "no message"
    raise prepare.CannotRun(
        f"fio ended while setting up its jobs, before the start (exit code {outcome.exit_code}): {message}"
    )


def _lay_out(ctx: WorkerContext, assignment_id: int, prepared: Prepared, output_dir: Path) -> None:
    """Create the job files before the start, so laying them out is never part of the measurement.

    Layout stops when the run is cancelled, the worker is stopping, or it takes longer than the
    files' size at the slowest rate a benchmark target should manage (then the run fails saying so).
    """
    argv = fio_argv(ctx, prepared, extra_args=("--create_only=1",))
    allowed_s = LAYOUT_GRACE_S + prepared.footprint_bytes / ctx.config.layout_min_bytes_per_s
    deadline = time.monotonic() + allowed_s
    stop = LayoutStop()

    def should_stop() -> bool:
        if _shutting_down.is_set():
            stop.reason = "the worker is stopping"
        elif time.monotonic() > deadline:
            stop.reason = (
                f"laying out {human_bytes(prepared.footprint_bytes)} took longer than {allowed_s:.0f} s: "
                "the target is slower than any benchmark should need; lower size or check the storage"
            )
        else:
            try:
                if ctx.api.progress(assignment_id, []).stops_fio:
                    stop.reason = "cancelled"
            except ServerRefused as exc:
                if exc.status_code not in (401, 403):
                    stop.reason = "cancelled"
            except Exception:
                pass  # the server is unreachable: go on, the deadline still holds
        return stop.reason is not None

    assert prepared.run_dir is not None
    outcome = run_fio(
        argv,
        output_dir=output_dir,
        should_stop=should_stop,
        poll_s=ctx.config.cancel_poll_s,
        place=FioPlace(prepared.run_dir.fd, prepared.limits),
    )
    shutil.rmtree(output_dir, ignore_errors=True)
    if stop.reason is not None:
        raise prepare.CannotRun(f"file layout stopped: {stop.reason}")
    if outcome.exit_code != 0:
        raise prepare.CannotRun(
            f"fio could not lay out its files: {outcome.stderr_tail.strip() or 'no message'}"
        )


def _release(ctx: WorkerContext, assignment: WorkerAssignment, workdir: Path) -> None:
    """Remove this host's files; shared ones only when the server says no other host still uses them."""
    remove = True
    if assignment.shared_files:
        try:
            remove = ctx.api.release_files(assignment.id, ctx.config.upload_retry_for_s)
        except Exception as exc:
            # Kept on record: the next start of this worker asks again.
            log.warning("assignment %s: shared files kept, server unreachable (%s)", assignment.id, exc)
            return
    ctx.scratch.release(assignment.id, workdir, remove)


@dataclass
class LayoutStop:
    """Why a layout was stopped (None while it goes on)."""

    reason: str | None = None


def _wait_for_start(ctx: WorkerContext, assignment_id: int) -> float | None:
    """The barrier: report ready until the server names the start; returns it in this host's clock."""
    ctx.api.measure_clock(CLOCK_SAMPLES)
    deadline = time.monotonic() + BARRIER_TIMEOUT_S
    while not _shutting_down.is_set():
        asked = time.monotonic()
        state = ctx.api.ready(assignment_id)
        if state.status is not RunStatus.queued:
            log.info("assignment %s is %s at the barrier; not starting", assignment_id, state.status)
            return None
        if state.start_at is not None:
            start_at = state.start_at.timestamp() - ctx.api.clock.offset_s
            if start_at < time.time():
                log.warning(
                    "assignment %s: the start was announced %.0f ms after it came (server overloaded)",
                    assignment_id,
                    (time.time() - start_at) * 1000,
                )
            return start_at
        if time.monotonic() > deadline:
            raise prepare.CannotRun(
                f"the other hosts of this run were not ready within {BARRIER_TIMEOUT_S:.0f} s"
            )
        time.sleep(max(0.0, BARRIER_POLL_S - (time.monotonic() - asked)))
    return None


def _tell_started(ctx: WorkerContext, assignment_id: int, wall: float) -> None:
    """Report fio's start (server clock); a refusal means cancelled, which the progress check handles."""
    try:
        ctx.api.started(assignment_id, wall + ctx.api.clock.offset_s)
    except ServerRefused as exc:
        log.info("assignment %s: start refused (%s); stopping fio", assignment_id, exc.message)


def _upload(ctx: WorkerContext, assignment_id: int, outcome: FioOutcome, output_dir: Path) -> None:
    """Keep fio's final report on disk, then upload it until the server acknowledges it."""
    output = outcome.final_report or ""
    if not output:
        shutil.rmtree(output_dir, ignore_errors=True)
        if outcome.cancelled:
            return
        message = outcome.stderr_tail.strip() or "no message"
        raise prepare.CannotRun(f"fio exited with code {outcome.exit_code} without a report: {message}")
    stopped_early = None
    if outcome.cancelled:
        stopped_early = (
            f"the worker on host '{ctx.host_name}' was stopped while fio was running"
            if _shutting_down.is_set()
            else "cancelled"
        )
    ctx.spool.put(assignment_id, output, stopped_early, outcome.worker_cpu_percent)
    shutil.rmtree(output_dir, ignore_errors=True)
    ctx.spool.upload(ctx.api, assignment_id, ctx.config.upload_retry_for_s)


@dataclass
class ProgressLink:
    """A run's progress on its way to the server, and when the server was last asked about it."""

    reporter: ProgressReporter
    last_asked: float = 0.0


def _report_and_check(
    ctx: WorkerContext, assignment_id: int, link: ProgressLink, force: bool = False
) -> bool:
    """Send new progress; True when the server says this assignment should stop.

    One request does both, as soon as fio has written a report and at least every cancel_poll_s
    without one, so watching a run costs the host as little as possible; an unreachable server
    means go on (samples wait for the next try).
    """
    if _shutting_down.is_set():
        return True
    samples = link.reporter.collect()
    if not samples and not force and time.monotonic() - link.last_asked < ctx.config.cancel_poll_s:
        return False
    link.last_asked = time.monotonic()
    try:
        status = ctx.api.progress(assignment_id, samples)
    except ServerRefused as exc:
        # 401/403: this host's credential changed (rotated): the measurement goes on and its result
        # waits in the spool for the new one. Anything else (404, 409): the work was taken away.
        return exc.status_code not in (401, 403)
    except Exception:
        return False
    link.reporter.sent(len(samples))
    return status.stops_fio
