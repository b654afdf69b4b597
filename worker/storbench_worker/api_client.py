"""The worker's HTTP client to the storbench API, authenticated as its host.

Every body sent and read is a model of the shared worker protocol (storbench_protocol).
"""

import gzip
import time
from datetime import UTC, datetime
from typing import TypeVar

import httpx
import tenacity
from pydantic import BaseModel

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
from storbench_protocol.common import RunStatus
from storbench_protocol.facts import Heartbeat, HostFacts
from storbench_protocol.identity import Enrolled, EnrollRequest, ServerClock, WorkerIdentity
from storbench_protocol.progress import ProgressReport, WorkerProgressSample
from storbench_protocol.results import ResultStored, ResultUpload
from storbench_worker.clock import ClockOffset

Answer = TypeVar("Answer", bound=BaseModel)

# Retries while the server is unreachable or failing (5xx, 429): exponential backoff with full
# jitter, from half a second up to 10 s between tries, so hosts that lost the server together do
# not come back together.
RETRY_FIRST_S = 0.5
RETRY_LONGEST_S = 10.0


class ServerRefused(Exception):
    """The server answered with an error that retrying will not fix."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(f"server answered {status_code}: {message}")
        self.status_code = status_code
        self.message = message


def _retrying(retry_for_s: float) -> tenacity.Retrying:
    return tenacity.Retrying(
        retry=tenacity.retry_if_exception_type((httpx.TransportError, httpx.HTTPStatusError)),
        stop=tenacity.stop_after_delay(retry_for_s),
        wait=tenacity.wait_random_exponential(multiplier=RETRY_FIRST_S, max=RETRY_LONGEST_S),
        reraise=True,
    )


class ApiClient:
    """Calls /api/v1/worker/* with the host credential."""

    def __init__(
        self,
        server: str,
        token: str,
        timeout_s: float = 30.0,
        clock: ClockOffset | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.clock = clock or ClockOffset()
        self._http = httpx.Client(
            base_url=server.rstrip("/") + "/api/v1/worker",
            headers={"User-Agent": "storbench-worker"}
            | ({"Authorization": f"Bearer {token}"} if token else {}),
            timeout=timeout_s,
            transport=transport,
        )

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def _call(
        self,
        method: str,
        path: str,
        body: BaseModel | None,
        answer: type[Answer],
        compress: bool = False,
        timeout_s: float | None = None,
    ) -> Answer:
        """One request; the answer read as `answer`. 5xx and 429 raise HTTPStatusError (retryable).

        timeout_s overrides the client's timeout for this request.
        """
        # Only what was set: a fact the worker could not read is left out, never sent as null.
        content = body.model_dump_json(exclude_unset=True).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if content is not None else {}
        if compress and content is not None:
            # fio's JSON shrinks about tenfold: large outputs fit the upload limit.
            content = gzip.compress(content, compresslevel=6)
            headers["Content-Encoding"] = "gzip"
        sent = time.time()
        timeout = httpx.Timeout(timeout_s) if timeout_s is not None else httpx.USE_CLIENT_DEFAULT
        response = self._http.request(method, path, content=content, headers=headers, timeout=timeout)
        received = time.time()
        if response.status_code >= 400:
            try:
                message = response.json().get("message", response.text)
            except ValueError:
                message = response.text
            if response.status_code >= 500 or response.status_code == 429:
                raise httpx.HTTPStatusError(message, request=response.request, response=response)
            raise ServerRefused(response.status_code, message)
        result = answer.model_validate_json(response.content)
        server_time = getattr(result, "server_time", None)
        if isinstance(server_time, datetime):
            self.clock.observe(sent, received, server_time)
        return result

    def _call_with_retry(
        self,
        method: str,
        path: str,
        body: BaseModel | None,
        answer: type[Answer],
        retry_for_s: float = 60.0,
        compress: bool = False,
    ) -> Answer:
        """A call retried (with jitter) while the server is unreachable or failing, up to retry_for_s."""
        result: Answer = _retrying(retry_for_s)(self._call, method, path, body, answer, compress)
        return result

    def enroll(self, enrollment_token: str, name: str) -> Enrolled:
        """Exchange an enrollment token for this host's own credential."""
        body = EnrollRequest(token=enrollment_token, name=name)
        return self._call_with_retry("POST", "/enroll", body, Enrolled)

    def whoami(self, retry_for_s: float = 60.0) -> WorkerIdentity:
        """This host's identity, queue and broker settings."""
        return self._call_with_retry("GET", "/me", None, WorkerIdentity, retry_for_s)

    def measure_clock(self, samples: int = 5, timeout_s: float = 5.0) -> None:
        """Several quick exchanges with the server's clock: the estimate keeps the shortest round trip.

        Ordinary calls wait for the database on a loaded server (seconds); this one does not. A
        failed exchange is skipped: the estimate so far stands.
        """
        for _ in range(samples):
            try:
                self._call("GET", "/clock", None, ServerClock, timeout_s=timeout_s)
            except (httpx.HTTPError, ServerRefused, ValueError):  # ValueError: an answer not understood
                continue

    def heartbeat(
        self, fio_version: str | None, facts: HostFacts, timeout_s: float | None = None
    ) -> WorkerIdentity:
        """Report liveness and host facts (single try: the next beat is the retry).

        timeout_s: how long this beat may wait for its answer (the caller bounds it by its period).
        """
        body = Heartbeat(fio_version=fio_version, facts=facts)
        return self._call("POST", "/heartbeat", body, WorkerIdentity, timeout_s=timeout_s)

    def assignment(self, assignment_id: int) -> WorkerAssignment:
        """The jobs and target of an assignment."""
        return self._call_with_retry("GET", f"/assignments/{assignment_id}", None, WorkerAssignment)

    def progress(self, assignment_id: int, samples: list[WorkerProgressSample]) -> RunStatus:
        """Report progress samples (single quick try); returns the assignment's status."""
        report = ProgressReport(samples=samples)
        return self._call("POST", f"/assignments/{assignment_id}/progress", report, AssignmentState).status

    def ready(self, assignment_id: int) -> BarrierState:
        """Say the files are laid out; answered once every host is ready (with the start time), or
        after the server's hold (10 s) without it."""
        return self._call_with_retry("POST", f"/assignments/{assignment_id}/ready", None, BarrierState)

    def started(self, assignment_id: int, fio_started_at: float) -> WorkerAssignment:
        """Tell the server fio started at this moment (epoch seconds in the server's clock)."""
        report = StartReport(
            fio_started_at=datetime.fromtimestamp(fio_started_at, UTC),
            clock_offset_ms=self.clock.offset_s * 1000,
        )
        return self._call_with_retry("POST", f"/assignments/{assignment_id}/start", report, WorkerAssignment)

    def upload(self, assignment_id: int, upload: ResultUpload, retry_for_s: float) -> int:
        """Upload fio's output until acknowledged; returns how many results were stored."""
        path = f"/assignments/{assignment_id}/result"
        stored = self._call_with_retry("POST", path, upload, ResultStored, retry_for_s, compress=True)
        return stored.results

    def restarted(self, spooled: list[int]) -> int:
        """Tell the server this worker (re)started: what it had begun died with its predecessor.

        spooled: assignments whose output waits in the spool (measured, to be delivered).
        """
        report = RestartReport(spooled=spooled[:1000])
        return self._call_with_retry("POST", "/restarted", report, Interrupted).failed

    def release_files(self, assignment_id: int, retry_for_s: float = 60.0) -> bool:
        """Say this host is done with the run's files; True when it should remove them."""
        path = f"/assignments/{assignment_id}/files-released"
        return self._call_with_retry("POST", path, None, FilesReleased, retry_for_s).remove

    def fail(self, assignment_id: int, reason: str) -> None:
        """Report why the assignment could not run."""
        report = FailureReport(reason=reason[:8000] or "the worker reported a failure")
        self._call_with_retry("POST", f"/assignments/{assignment_id}/failure", report, AssignmentState)
