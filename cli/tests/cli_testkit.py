"""Helpers shared by the CLI tests (imported by a name unique in the repository, like fio_testkit)."""

import importlib.util
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

BACKEND_SUPPORT = Path(__file__).resolve().parents[2] / "backend" / "tests" / "support"


def _backend_support(name: str) -> ModuleType:
    """A module of the backend's test harness, loaded by path.

    `from tests.support import ...` cannot work here: pytest's importlib mode registers this very
    folder as the module `tests` before conftest runs, hiding the backend's package of that name.
    """
    spec = importlib.util.spec_from_file_location(
        f"backend_test_support_{name}", BACKEND_SUPPORT / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


fresh_database = _backend_support("postgres").fresh_database
_stack = _backend_support("stack")
Stack = _stack.Stack
running_stack = _stack.running_stack
free_port = _stack.free_port

# Overridable so that several developers' test runs share one PostgreSQL and Redis.
DATABASE = os.environ.get("STORBENCH_CLI_TEST_DB", "storbench_cli_test")
BROKER_URL = os.environ.get(
    "STORBENCH_CLI_TEST_REDIS_URL", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/7"
)
STORBENCH = Path(sys.executable).parent / "storbench"
HOST_NAME = "cli-host"
TARGET_NAME = "cli-scratch"
TERMINAL = ("completed", "failed", "cancelled")

# A second of 4 KiB random reads over an 8 MiB file: enough to measure, quick to run.
TINY_JOB: dict[str, Any] = {
    "name": "r",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 1,
    "time_based": True,
    "ioengine": "psync",
}

CliRunner = Callable[..., subprocess.CompletedProcess[str]]
JobsFile = Callable[..., Path]


@dataclass
class Service:
    """The running service as the CLI tests see it."""

    stack: Any  # the backend harness's Stack
    token: str
    host: dict[str, Any]
    target: dict[str, Any]
    scratch: Path

    @property
    def url(self) -> str:
        """Base URL of the API process."""
        return str(self.stack.url)

    def api(self) -> httpx.Client:
        """A client of /api/v1 for the tests' own checks, signed in as the admin."""
        return httpx.Client(
            base_url=f"{self.url}/api/v1", headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )

    def wait_for_run(self, run_id: int, statuses: tuple[str, ...] = TERMINAL) -> dict[str, Any]:
        """The run once its status is one of `statuses`."""
        with self.api() as api:

            def reached() -> dict[str, Any] | None:
                run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
                return run if run["status"] in statuses else None

            found: dict[str, Any] = self.stack.wait_for(reached, 60, f"run {run_id} to be {statuses}")
            return found


def cli_env(service: Service, **overrides: str) -> dict[str, str]:
    """The environment of the storbench command: the service URL and a token, no other STORBENCH_*."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("STORBENCH_")}
    return {**env, "STORBENCH_URL": service.url, "STORBENCH_TOKEN": service.token, **overrides}


def sigint_default() -> None:
    """In the child before exec: Ctrl-C as a terminal delivers it, whatever the test runner inherited.

    A runner started as a background job of a script ignores SIGINT, and an ignored (or blocked)
    signal stays so across exec: the CLI would never see the test's Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@dataclass
class HeldAnswer:
    """A proxy in front of the API that holds its answer to one request until `release`."""

    url: str
    answered: threading.Event  # the API has answered the held request (its effect is done)
    release: threading.Event  # pass the held answer on to the client


@contextmanager
def answer_held(upstream: str, method: str, path: str) -> Iterator[HeldAnswer]:
    """Forward every request to `upstream`; hold the answer to `method path` as a slow network would."""
    held = HeldAnswer(url="", answered=threading.Event(), release=threading.Event())

    class Proxy(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            answer = httpx.request(
                self.command, upstream + self.path, headers=headers, content=body, timeout=60
            )
            if (self.command, self.path) == (method, path):
                held.answered.set()
                held.release.wait(60)
            self.send_response(answer.status_code)
            self.send_header("Content-Type", answer.headers.get("content-type", "application/json"))
            self.send_header("Content-Length", str(len(answer.content)))
            self.end_headers()
            self.wfile.write(answer.content)

        def do_GET(self) -> None:
            self._forward()

        def do_POST(self) -> None:
            self._forward()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    held.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield held
    finally:
        held.release.set()
        server.shutdown()
        server.server_close()
