"""The Celery task a host runs for each assignment: fetch, check, run fio, upload, clean up."""

import logging
import shutil
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import worker_shutting_down

from storbench_fio.command import build_command
from storbench_fio.job import FioJob
from storbench_worker import prepare
from storbench_worker.api_client import ApiClient, ServerRefused
from storbench_worker.config import WorkerConfig
from storbench_worker.fio_runner import FioOutcome, fio_version, run_fio
from storbench_worker.progress import ProgressReporter, StatusStream, last_report
from storbench_worker.spool import ScratchRecord, Spool

log = logging.getLogger(__name__)

EXECUTE_ASSIGNMENT_TASK = "storbench.execute_assignment"
# fio appends a full report every second; the last one is the result, the others are progress.
STATUS_ARGS = ("--status-interval=1",)
# How long a host waits at the barrier for the others, and how often it asks.
BARRIER_TIMEOUT_S = 600.0
BARRIER_POLL_S = 0.1

app = Celery("storbench-worker")


@dataclass
class WorkerContext:
    """What the task needs, set once by the command line before the worker starts."""

    config: WorkerConfig
    api: ApiClient
    host_name: str
    spool: Spool
    scratch: ScratchRecord


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
    if assignment["status"] != "queued":
        log.info("assignment %s is %s; skipping", assignment_id, assignment["status"])
        return
    jobs, argv, workdir = _prepare(ctx, assignment)
    output_dir = ctx.config.state_dir / "runs" / str(assignment_id)
    reporter = ProgressReporter(
        StatusStream(output_dir / "fio-stdout.json"), clock_offset_s=lambda: ctx.api.clock.offset_s
    )
    link = ProgressLink(reporter)
    try:
        if workdir is not None and assignment.get("lays_out", True):
            _lay_out(ctx, jobs, workdir, output_dir / "layout")
        start_at = _wait_for_start(ctx, assignment_id)
        if start_at is None:
            return
        outcome = run_fio(
            argv,
            start_at=start_at,
            cwd=workdir or output_dir,
            output_dir=output_dir,
            should_stop=lambda: _report_and_check(ctx, assignment_id, link),
            poll_s=ctx.config.cancel_poll_s,
            on_started=lambda wall: _tell_started(ctx, assignment_id, wall),
            next_check_in=lambda: reporter.seconds_to_next_report(time.time(), ctx.config.cancel_poll_s),
        )
        _report_and_check(ctx, assignment_id, link, force=True)
    finally:
        if workdir is not None:
            _release(ctx, assignment, workdir)
    _upload(ctx, assignment_id, outcome, output_dir)


def _prepare(ctx: WorkerContext, assignment: dict[str, Any]) -> tuple[list[FioJob], list[str], Path | None]:
    """Check everything this host can check, and build fio's command line."""
    target = assignment["target"]
    target_path = Path(target["path"])
    jobs = prepare.validated_jobs(assignment["jobs"])
    prepare.check_allowed(target_path, ctx.config.allowed_roots, ctx.host_name)
    if fio_version(ctx.config.fio_binary) is None:
        raise prepare.CannotRun(
            f"fio is not installed on host '{ctx.host_name}': install it (apt-get install fio)"
        )
    if target["kind"] != "directory":
        prepare.check_block_device_target(target_path, ctx.host_name)
        prepare.check_safety(jobs, target, ctx.config.limits)
        argv = build_command(
            jobs, filename=str(target_path), fio_binary=ctx.config.fio_binary, extra_args=STATUS_ARGS
        )
        return jobs, argv, None
    prepare.check_directory_target(target_path, ctx.host_name)
    shared = bool(assignment.get("shared_files"))
    # Only the host that lays the files out needs the room for them.
    prepare.check_safety(jobs, target, ctx.config.limits, check_free_space=assignment.get("lays_out", True))
    if shared:
        # The plan asked for it: every host of the run works on one set of files.
        workdir = target_path / f"storbench-run{assignment['run_id']}-shared"
    else:
        # Each host writes its own files, so hosts sharing a file system never measure each other's cache.
        workdir = target_path / f"storbench-run{assignment['run_id']}-a{assignment['id']}"
    ctx.scratch.claim(assignment["id"], workdir, shared=shared)
    workdir.mkdir(exist_ok=True)
    argv = build_command(
        jobs, directory=str(workdir), fio_binary=ctx.config.fio_binary, extra_args=STATUS_ARGS
    )
    return jobs, argv, workdir


def _release(ctx: WorkerContext, assignment: dict[str, Any], workdir: Path) -> None:
    """Remove this host's files; shared ones only when the server says no other host still uses them."""
    remove = True
    if assignment.get("shared_files"):
        try:
            remove = ctx.api.release_files(assignment["id"], ctx.config.upload_retry_for_s)
        except Exception as exc:
            # Kept on record: the next start of this worker asks again.
            log.warning("assignment %s: shared files kept, server unreachable (%s)", assignment["id"], exc)
            return
    ctx.scratch.release(assignment["id"], workdir, remove)


def _lay_out(ctx: WorkerContext, jobs: list[FioJob], workdir: Path, output_dir: Path) -> None:
    """Create the job files before the start, so laying them out is never part of the measurement."""
    argv = build_command(
        jobs, directory=str(workdir), fio_binary=ctx.config.fio_binary, extra_args=("--create_only=1",)
    )
    outcome = run_fio(argv, cwd=workdir, output_dir=output_dir, should_stop=_shutting_down.is_set, poll_s=0.5)
    shutil.rmtree(output_dir, ignore_errors=True)
    if outcome.exit_code != 0 and not outcome.cancelled:
        raise prepare.CannotRun(
            f"fio could not lay out its files: {outcome.stderr_tail.strip() or 'no message'}"
        )


def _wait_for_start(ctx: WorkerContext, assignment_id: int) -> float | None:
    """The barrier: report ready until the server names the start; returns it in this host's clock."""
    deadline = time.monotonic() + BARRIER_TIMEOUT_S
    while not _shutting_down.is_set():
        state = ctx.api.ready(assignment_id)
        if state["status"] != "queued":
            log.info("assignment %s is %s at the barrier; not starting", assignment_id, state["status"])
            return None
        if state.get("start_at"):
            return datetime.fromisoformat(state["start_at"]).timestamp() - ctx.api.clock.offset_s
        if time.monotonic() > deadline:
            raise prepare.CannotRun(
                f"the other hosts of this run were not ready within {BARRIER_TIMEOUT_S:.0f} s"
            )
        time.sleep(BARRIER_POLL_S)
    return None


def _tell_started(ctx: WorkerContext, assignment_id: int, wall: float) -> None:
    """Report fio's start (server clock); a refusal means cancelled, which the progress check handles."""
    try:
        ctx.api.started(assignment_id, wall + ctx.api.clock.offset_s)
    except ServerRefused as exc:
        log.info("assignment %s: start refused (%s); stopping fio", assignment_id, exc.message)


def _upload(ctx: WorkerContext, assignment_id: int, outcome: FioOutcome, output_dir: Path) -> None:
    """Keep fio's final report on disk, then upload it until the server acknowledges it."""
    output = last_report(outcome.stdout()) or ""
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
    except ServerRefused:
        return True
    except Exception:
        return False
    link.reporter.sent(len(samples))
    return status in ("cancelled", "failed")
