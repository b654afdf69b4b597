"""The assignment task, as a host runs it: real fio in a scratch directory, the server at the wire.

The server is a scripted stand-in speaking the worker protocol over httpx's transport (the worker
never imports the backend; the backend's integration tests run the real pair).
"""

import gzip
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from storbench_protocol.common import RunStatus
from storbench_worker import tasks
from storbench_worker.api_client import ApiClient
from storbench_worker.config import WorkerConfig
from storbench_worker.context import WorkerContext
from storbench_worker.spool import ScratchRecord, Spool

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

ASSIGNMENT_ID = 9
SCRATCH_NAME = "storbench-run9-a1b2"
QUICK_READ = {"name": "quick-read", "rw": "randread", "bs": "4k", "size": "1m", "runtime": 1, "time_based": 1}


@dataclass
class ScriptedServer:
    """The server's side of one assignment; with cancel, it cancels once fio has measured something."""

    target: Path
    jobs: list[dict[str, Any]]
    lays_out: bool = True
    cancel: bool = False
    status: RunStatus = RunStatus.queued
    uploads: list[dict[str, Any]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # Called at each ready report (the barrier), to look at the host as it waits there.
    on_ready: Callable[[], None] | None = None
    ready_calls: int = 0
    # What the barrier answers: the run goes on (queued) or was cancelled/failed elsewhere.
    barrier_status: RunStatus = RunStatus.queued

    def assignment(self) -> dict[str, Any]:
        return {
            "id": ASSIGNMENT_ID,
            "run_id": 4,
            "status": self.status,
            "target": {
                "path": str(self.target),
                "kind": "directory",
                "destructive": False,
                "confirmed_destructive": False,
            },
            "jobs": self.jobs,
            "lays_out": self.lays_out,
            "scratch_name": SCRATCH_NAME,
        }

    def state(self, **extra: object) -> dict[str, Any]:
        return {"id": ASSIGNMENT_ID, "status": self.status, **extra}

    def answer(self, request: httpx.Request) -> httpx.Response:
        step = request.url.path.rsplit("/", 1)[-1]
        now = datetime.now(UTC).isoformat()
        if request.method == "GET":
            return httpx.Response(200, json=self.assignment())
        if step == "ready":
            self.ready_calls += 1
            if self.on_ready is not None:
                self.on_ready()
            self.status = self.barrier_status
            return httpx.Response(200, json=self.state(start_at=now, server_time=now))
        if step == "start":
            self.status = RunStatus.running
            return httpx.Response(200, json=self.assignment())
        if step == "progress":
            if self.cancel and json.loads(request.content)["samples"]:
                self.status = RunStatus.cancelled
            return httpx.Response(200, json=self.state())
        if step == "result":
            self.uploads.append(json.loads(gzip.decompress(request.content)))
            self.status = RunStatus.completed if self.status is RunStatus.running else self.status
            return httpx.Response(200, json={"results": 1})
        if step == "failure":
            self.failures.append(json.loads(request.content)["reason"])
            self.status = RunStatus.failed
            return httpx.Response(200, json=self.state())
        if step == "files-released":
            return httpx.Response(200, json={"remove": True})
        return httpx.Response(404, json={"message": f"no {request.url.path}"})


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """The directory the worker is allowed to benchmark in, with the target inside."""
    target = tmp_path / "allowed" / "target"
    target.mkdir(parents=True)
    return target


@pytest.fixture
def run_task(tmp_path: Path) -> Iterator[Any]:
    """Run the task for ASSIGNMENT_ID against a scripted server, as a configured worker would."""
    clients: list[ApiClient] = []

    def run(server: ScriptedServer) -> None:
        config = WorkerConfig(
            server="http://server",
            token="sbh_token",
            allowed_roots=(tmp_path / "allowed",),
            state_dir=tmp_path / "state",
            cancel_poll_s=0.2,
            upload_retry_for_s=5,
        )
        api = ApiClient(config.server, config.token, transport=httpx.MockTransport(server.answer))
        clients.append(api)
        tasks.configure(
            WorkerContext(
                config=config,
                api=api,
                host_name="bench-01",
                spool=Spool(tmp_path / "state" / "spool"),
                scratch=ScratchRecord(tmp_path / "state" / "scratch"),
            )
        )
        tasks.execute_assignment(ASSIGNMENT_ID)

    yield run
    for api in clients:
        api.close()


def test_a_good_assignment_runs_fio_uploads_its_report_and_leaves_no_files(
    scratch: Path, run_task: Any, tmp_path: Path
) -> None:
    server = ScriptedServer(target=scratch, jobs=[QUICK_READ])
    run_task(server)

    assert server.failures == []
    [upload] = server.uploads
    assert upload["stopped_early"] is None
    report = json.loads(upload["fio_output"])
    [job] = report["jobs"]
    assert job["jobname"] == "quick-read" and job["error"] == 0
    assert job["read"]["io_bytes"] > 0
    assert list(scratch.iterdir()) == [], "the run directory and fio's files are removed"
    assert Spool(tmp_path / "state" / "spool").pending() == [], "the acknowledged output is not kept"


@pytest.mark.parametrize(
    ("where", "job", "reason"),
    [
        pytest.param(
            "outside", QUICK_READ, r"target .*outside.* refused by host 'bench-01'", id="target-not-allowed"
        ),
        pytest.param(
            "target",
            {**QUICK_READ, "exec_prerun": "rm -rf /"},
            r"job 'quick-read' refused by the worker: .*exec_prerun",
            id="job-runs-a-program",
        ),
        pytest.param(
            "target",
            {**QUICK_READ, "size": "1p"},
            r"refused by the worker's safety checks: .*size",
            id="files-larger-than-the-target",
        ),
    ],
)
def test_a_bad_assignment_is_reported_failed_with_its_reason_and_fio_never_runs(
    scratch: Path, run_task: Any, tmp_path: Path, where: str, job: dict[str, Any], reason: str
) -> None:
    target = scratch if where == "target" else tmp_path / "outside"
    target.mkdir(exist_ok=True)
    server = ScriptedServer(target=target, jobs=[job])
    run_task(server)

    [failure] = server.failures
    assert re.search(reason, failure), failure
    assert server.uploads == []
    assert list(target.iterdir()) == [], "nothing was laid out"


def test_a_cancel_stops_fio_and_uploads_what_it_measured_marked_cancelled(
    scratch: Path, run_task: Any
) -> None:
    long_read = {**QUICK_READ, "name": "long-read", "runtime": 300}
    server = ScriptedServer(target=scratch, jobs=[long_read], cancel=True)
    run_task(server)

    assert server.failures == []
    [upload] = server.uploads
    assert upload["stopped_early"] == "cancelled"
    [job] = json.loads(upload["fio_output"])["jobs"]
    assert job["jobname"] == "long-read"
    assert job["job_runtime"] < 300_000, "fio was stopped before the end of its runtime"
    assert list(scratch.iterdir()) == []


def test_fio_failing_is_reported_with_what_fio_said(scratch: Path, run_task: Any) -> None:
    # A CPU this host does not have: fio refuses the job when it starts, with no report. The files
    # were laid out by the run's first host (lays_out false), so this is the measurement itself.
    (scratch / SCRATCH_NAME).mkdir(mode=0o700)
    server = ScriptedServer(target=scratch, jobs=[{**QUICK_READ, "cpus_allowed": "1000"}], lays_out=False)
    run_task(server)

    [failure] = server.failures
    assert failure.startswith("fio ended while setting up its jobs, before the start (exit code 1)")
    assert "cpus_allowed" in failure
    assert server.uploads == []


def _fio_in(directory: Path) -> list[int]:
    """fio processes (main and job processes) working in a directory."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (
                entry.name.isdigit()
                and (entry / "comm").read_text().strip() == "fio"
                and os.readlink(entry / "cwd") == str(directory)
            ):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_at_the_barrier_the_files_are_laid_out_and_fio_waits_set_up(scratch: Path, run_task: Any) -> None:
    seen: dict[str, Any] = {}
    run_dir = scratch / SCRATCH_NAME

    def look() -> None:
        if not seen:
            seen["files"] = {f.name: f.stat().st_size for f in run_dir.iterdir()}
            seen["fio"] = len(_fio_in(run_dir))

    job = {**QUICK_READ, "name": "two-readers", "numjobs": 2}
    server = ScriptedServer(target=scratch, jobs=[job], on_ready=look)
    run_task(server)

    assert server.failures == []
    assert seen["files"] == {"two-readers.0.0": 1 << 20, "two-readers.1.0": 1 << 20}
    assert seen["fio"] == 3, "fio and its two job processes are started before the barrier"
    [upload] = server.uploads
    assert [j["read"]["io_bytes"] > 0 for j in json.loads(upload["fio_output"])["jobs"]] == [True, True]
    assert list(scratch.iterdir()) == []


def test_a_layout_that_fails_is_reported_before_the_barrier(scratch: Path, run_task: Any) -> None:
    server = ScriptedServer(target=scratch, jobs=[{**QUICK_READ, "cpus_allowed": "1000"}])
    run_task(server)

    [failure] = server.failures
    assert failure.startswith("fio could not lay out its files") and "cpus_allowed" in failure
    assert server.ready_calls == 0, "a host that cannot lay out never reports ready"
    assert list(scratch.iterdir()) == []


def test_a_run_ended_elsewhere_at_the_barrier_stops_the_waiting_fio(scratch: Path, run_task: Any) -> None:
    server = ScriptedServer(target=scratch, jobs=[QUICK_READ], barrier_status=RunStatus.failed)
    run_task(server)

    assert server.ready_calls == 1
    assert server.failures == [] and server.uploads == [], "nothing measured, nothing to report"
    assert _fio_in(scratch / SCRATCH_NAME) == []
    assert list(scratch.iterdir()) == []
