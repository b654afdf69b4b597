"""The whole service as separate real processes: uvicorn API and storbench-worker(s)."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

BIN = Path(sys.executable).parent


def fio_working_in(path: Path | str, prefix: str = "") -> list[str]:
    """fio processes working in a directory under path whose name starts with prefix, as 'pid cwd cmdline'.

    fio is told its files by descriptor (/proc/self/fd/N/), so its command line no longer names
    the directory; its current directory does.
    """
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "fio":
                continue
            cwd = os.readlink(entry / "cwd")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if cwd.startswith(f"{str(path).rstrip('/')}/{prefix}"):
            found.append(f"{entry.name} {cwd} {cmdline}")
    return found


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(process: subprocess.Popen[bytes], timeout_s: float = 15) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@dataclass
class Stack:
    """A running API with helpers to sign in and start workers."""

    url: str
    env: dict[str, str]
    workdir: Path
    admin_email: str
    admin_password: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    token: str = ""
    port: int = 0
    bind: str = "127.0.0.1"
    api: subprocess.Popen[bytes] | None = None

    def start_api(self) -> None:
        """Start (or restart) the API on the stack's port and wait until it answers."""
        log = (self.workdir / "api.log").open("ab")
        api = subprocess.Popen(
            [str(BIN / "storbench-api"), "serve", "--host", self.bind, "--port", str(self.port)],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.api = api
        self.processes.append(api)

        def healthy() -> bool:
            if api.poll() is not None:
                raise AssertionError((self.workdir / "api.log").read_text())
            try:
                return httpx.get(f"{self.url}/api/v1/health", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        # Migrating and importing the app take seconds on an idle machine and over a minute on a
        # loaded one (100 s measured at a load average of 24 on 2 cores); the bound is only a backstop.
        self.wait_for(healthy, 240, "the API to answer")

    def stop_api(self) -> None:
        """Stop the API process, as an outage would."""
        if self.api is not None:
            _stop(self.api)

    def client(self) -> httpx.Client:
        """An HTTP client signed in as the first admin."""
        if not self.token:
            response = httpx.post(
                f"{self.url}/api/v1/auth/token",
                data={"username": self.admin_email, "password": self.admin_password},
            )
            response.raise_for_status()
            self.token = response.json()["access_token"]
        return httpx.Client(
            base_url=f"{self.url}/api/v1", headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )

    def start_worker(
        self, token: str, name: str, allow: Path, prefix: tuple[str, ...] = ()
    ) -> subprocess.Popen[bytes]:
        """A storbench-worker process for a registered host (prefix: e.g. `ip netns exec NS`)."""
        log = (self.workdir / f"worker-{name}.log").open("wb")
        # The token goes in a file (never on the command line, where `ps` shows it).
        token_file = self.workdir / f"worker-{name}.token"
        token_file.write_text(token)
        token_file.chmod(0o600)
        process = subprocess.Popen(
            [
                *prefix,
                str(BIN / "storbench-worker"),
                "--server",
                self.url,
                "--token-file",
                str(token_file),
                "--name",
                name,
                "--allow",
                str(allow),
                "--state-dir",
                str(self.workdir / f"worker-{name}"),
            ],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def stop_worker(self, process: subprocess.Popen[bytes]) -> None:
        """Stop one worker the way an operator would (SIGTERM, then SIGKILL)."""
        _stop(process)

    def wait_for(self, predicate: Any, timeout_s: float, what: str) -> Any:
        """Poll predicate until it returns something truthy."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.2)
        logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in self.workdir.glob("*.log"))
        raise AssertionError(f"timed out after {timeout_s} s waiting for {what}\n{logs}")


@contextmanager
def running_stack(
    database_url: str,
    broker_url: str,
    workdir: Path,
    bind: str = "127.0.0.1",
    settings: dict[str, str] | None = None,
) -> Iterator[Stack]:
    """Start the API (migrating the database) on `bind` and stop everything afterwards.

    `settings`: more STORBENCH_* variables for the API and its workers.
    """
    port = free_port()
    env = {
        **os.environ,
        "STORBENCH_DATABASE_URL": database_url,
        "STORBENCH_BROKER_URL": broker_url,
        "STORBENCH_DATA_DIR": str(workdir / "data"),
        "STORBENCH_SECRET_KEY": "integration-secret",
        "STORBENCH_ADMIN_EMAIL": "admin@example.com",
        "STORBENCH_ADMIN_PASSWORD": "integration-password",
        "STORBENCH_HEARTBEAT_INTERVAL": "1",
        "STORBENCH_SWEEP_INTERVAL": "1",
        **(settings or {}),
    }
    stack = Stack(
        url=f"http://{bind}:{port}",
        env=env,
        workdir=workdir,
        admin_email="admin@example.com",
        admin_password="integration-password",
    )
    stack.port = port
    stack.bind = bind
    try:
        stack.start_api()
        yield stack
    finally:
        for process in reversed(stack.processes):
            _stop(process)
