"""The Celery task a host runs for each assignment: fetch, check, run fio, upload, clean up."""

import logging
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from celery import Celery
from celery.signals import worker_shutting_down

from storbench_fio.command import build_command
from storbench_worker import prepare
from storbench_worker.api_client import ApiClient, ServerRefused
from storbench_worker.config import WorkerConfig
from storbench_worker.fio_runner import fio_version, run_fio
from storbench_worker.progress import ProgressReporter, StatusStream, last_report
from storbench_worker.spool import Spool

log = logging.getLogger(__name__)

EXECUTE_ASSIGNMENT_TASK = "storbench.execute_assignment"
# fio appends a full report every second; the last one is the result, the others are progress.
STATUS_ARGS = ("--status-interval=1",)

app = Celery("storbench-worker")


@dataclass
class WorkerContext:
    """What the task needs, set once by the command line before the worker starts."""

    config: WorkerConfig
    api: ApiClient
    host_name: str
    spool: Spool


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
    """Fetch, check, run, upload and clean up one assignment."""
    assignment = ctx.api.assignment(assignment_id)
    if assignment["status"] != "queued":
        log.info("assignment %s is %s; skipping", assignment_id, assignment["status"])
        return
    target = assignment["target"]
    target_path = Path(target["path"])
    jobs = prepare.validated_jobs(assignment["jobs"])
    prepare.check_allowed(target_path, ctx.config.allowed_roots, ctx.host_name)
    if fio_version(ctx.config.fio_binary) is None:
        raise prepare.CannotRun(
            f"fio is not installed on host '{ctx.host_name}': install it (apt-get install fio)"
        )
    if target["kind"] == "directory":
        prepare.check_directory_target(target_path, ctx.host_name)
        prepare.check_safety(jobs, target, ctx.config.limits)
        workdir = target_path / f"storbench-run{assignment['run_id']}-a{assignment_id}"
        workdir.mkdir(exist_ok=True)
        argv = build_command(
            jobs, directory=str(workdir), fio_binary=ctx.config.fio_binary, extra_args=STATUS_ARGS
        )
    else:
        prepare.check_block_device_target(target_path, ctx.host_name)
        prepare.check_safety(jobs, target, ctx.config.limits)
        workdir = None
        argv = build_command(
            jobs, filename=str(target_path), fio_binary=ctx.config.fio_binary, extra_args=STATUS_ARGS
        )
    output_dir = ctx.config.state_dir / "runs" / str(assignment_id)
    reporter = ProgressReporter(StatusStream(output_dir / "fio-stdout.json"))
    try:
        ctx.api.start(assignment_id)
        outcome = run_fio(
            argv,
            cwd=workdir or output_dir,
            output_dir=output_dir,
            should_stop=lambda: _report_and_check(ctx, assignment_id, reporter),
            poll_s=ctx.config.cancel_poll_s,
        )
        _report_and_check(ctx, assignment_id, reporter)
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
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
    ctx.spool.put(assignment_id, output, stopped_early)
    shutil.rmtree(output_dir, ignore_errors=True)
    ctx.spool.upload(ctx.api, assignment_id, ctx.config.upload_retry_for_s)


def _report_and_check(ctx: WorkerContext, assignment_id: int, reporter: ProgressReporter) -> bool:
    """Send the last second's progress; True when the server says this assignment should stop.

    One request a second does both, so watching a run costs the host as little as possible;
    an unreachable server means go on (samples wait for the next try).
    """
    if _shutting_down.is_set():
        return True
    samples = reporter.collect()
    try:
        status = ctx.api.progress(assignment_id, samples)
    except ServerRefused:
        return True
    except Exception:
        return False
    reporter.sent(len(samples))
    return status in ("cancelled", "failed")
