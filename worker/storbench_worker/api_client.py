"""The worker's HTTP client to the storbench API, authenticated as its host."""

import gzip
import json as jsonlib
import random
import time
from datetime import UTC, datetime
from typing import Any

import httpx

from storbench_worker.clock import ClockOffset


class ServerRefused(Exception):
    """The server answered with an error that retrying will not fix."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(f"server answered {status_code}: {message}")
        self.status_code = status_code
        self.message = message


class ApiClient:
    """Calls /api/v1/worker/* with the host credential."""

    def __init__(
        self, server: str, token: str, timeout_s: float = 30.0, clock: ClockOffset | None = None
    ) -> None:
        self.clock = clock or ClockOffset()
        self._http = httpx.Client(
            base_url=server.rstrip("/") + "/api/v1/worker",
            headers={"User-Agent": "storbench-worker"}
            | ({"Authorization": f"Bearer {token}"} if token else {}),
            timeout=timeout_s,
        )

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def _call(self, method: str, path: str, json: Any = None, compress: bool = False) -> Any:
        sent = time.time()
        if compress:
            # fio's JSON shrinks about tenfold: large outputs fit the upload limit.
            body = gzip.compress(jsonlib.dumps(json).encode(), compresslevel=6)
            headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
            response = self._http.request(method, path, content=body, headers=headers)
        else:
            response = self._http.request(method, path, json=json)
        received = time.time()
        if response.status_code >= 400:
            try:
                message = response.json().get("message", response.text)
            except ValueError:
                message = response.text
            if response.status_code >= 500 or response.status_code == 429:
                raise httpx.HTTPStatusError(message, request=response.request, response=response)
            raise ServerRefused(response.status_code, message)
        body = response.json()
        if isinstance(body, dict) and isinstance(body.get("server_time"), str):
            self.clock.observe(sent, received, body["server_time"])
        return body

    def call_with_retry(
        self, method: str, path: str, json: Any = None, retry_for_s: float = 60.0, compress: bool = False
    ) -> Any:
        """A call retried with backoff (and jitter) while the server is unreachable or failing."""
        deadline = time.monotonic() + retry_for_s
        delay = 0.5
        while True:
            try:
                return self._call(method, path, json, compress=compress)
            except (httpx.TransportError, httpx.HTTPStatusError):
                if time.monotonic() >= deadline:
                    raise
                time.sleep(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, 10.0)

    def enroll(self, enrollment_token: str, name: str) -> dict[str, Any]:
        """Exchange an enrollment token for this host's own credential."""
        result: dict[str, Any] = self.call_with_retry(
            "POST", "/enroll", {"token": enrollment_token, "name": name}, retry_for_s=60
        )
        return result

    def whoami(self, retry_for_s: float = 60.0) -> dict[str, Any]:
        """This host's identity, queue and broker settings."""
        result: dict[str, Any] = self.call_with_retry("GET", "/me", retry_for_s=retry_for_s)
        return result

    def heartbeat(self, fio_version: str | None, facts: dict[str, Any]) -> dict[str, Any]:
        """Report liveness and host facts."""
        result: dict[str, Any] = self._call(
            "POST", "/heartbeat", {"fio_version": fio_version, "facts": facts}
        )
        return result

    def assignment(self, assignment_id: int) -> dict[str, Any]:
        """The jobs and target of an assignment."""
        result: dict[str, Any] = self.call_with_retry("GET", f"/assignments/{assignment_id}")
        return result

    def progress(self, assignment_id: int, samples: list[dict[str, Any]]) -> str:
        """Report progress samples (single quick try); returns the assignment's status."""
        result: dict[str, Any] = self._call(
            "POST", f"/assignments/{assignment_id}/progress", {"samples": samples}
        )
        return str(result["status"])

    def ready(self, assignment_id: int) -> dict[str, Any]:
        """Say the files are laid out; the answer carries the start time once every host is ready."""
        result: dict[str, Any] = self.call_with_retry("POST", f"/assignments/{assignment_id}/ready")
        return result

    def started(self, assignment_id: int, fio_started_at: float) -> dict[str, Any]:
        """Tell the server fio started at this moment (epoch seconds in the server's clock)."""
        body = {
            "fio_started_at": datetime.fromtimestamp(fio_started_at, UTC).isoformat(),
            "clock_offset_ms": self.clock.offset_s * 1000,
        }
        result: dict[str, Any] = self.call_with_retry("POST", f"/assignments/{assignment_id}/start", body)
        return result

    def upload(
        self,
        assignment_id: int,
        fio_output: str,
        stopped_early: str | None,
        retry_for_s: float,
        worker_cpu_percent: float | None = None,
    ) -> int:
        """Upload fio's output until acknowledged; returns how many results were stored."""
        body = {
            "fio_output": fio_output,
            "stopped_early": stopped_early,
            "worker_cpu_percent": worker_cpu_percent,
        }
        result = self.call_with_retry(
            "POST", f"/assignments/{assignment_id}/result", body, retry_for_s, compress=True
        )
        return int(result["results"])

    def restarted(self, spooled: list[int]) -> int:
        """Tell the server this worker (re)started: what it had begun died with its predecessor.

        spooled: assignments whose output waits in the spool (measured, to be delivered).
        """
        result: dict[str, Any] = self.call_with_retry(
            "POST", "/restarted", {"spooled": spooled[:1000]}, retry_for_s=60
        )
        return int(result["failed"])

    def release_files(self, assignment_id: int, retry_for_s: float = 60.0) -> bool:
        """Say this host is done with the run's files; True when it should remove them."""
        answer = self.call_with_retry(
            "POST", f"/assignments/{assignment_id}/files-released", None, retry_for_s
        )
        return bool(answer["remove"])

    def fail(self, assignment_id: int, reason: str) -> None:
        """Report why the assignment could not run."""
        self.call_with_retry("POST", f"/assignments/{assignment_id}/failure", {"reason": reason[:8000]})
