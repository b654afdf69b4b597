"""Processes of the load and fault benches: a private Redis, several API processes, real workers.

Every process starts in its own process group and is registered with a Fleet, which stops them
all (SIGTERM, then SIGKILL, by PID) on the way out, whatever happened. Everything listens on
loopback only.
"""

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from benchstack import ADMIN_EMAIL, BIN, _kill_leftovers_in, free_port

STOP_GRACE_S = 10.0
START_TIMEOUT_S = 120.0


def wait_until(ready: Callable[[], bool], what: str, timeout_s: float = START_TIMEOUT_S) -> float:
    """Poll until ready() is true; returns the seconds it took."""
    started = time.monotonic()
    while not ready():
        if time.monotonic() - started > timeout_s:
            raise SystemExit(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.1)
    return time.monotonic() - started


def stop_process(process: subprocess.Popen[bytes], grace_s: float = STOP_GRACE_S) -> None:
    """SIGTERM the process group, SIGKILL it after the grace period, reap it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=grace_s)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def kill_process(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group at once (a crash, not a shutdown) and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@dataclass
class Fleet:
    """What a bench started: API processes by port, workers by host name, the private Redis."""

    work: Path
    env: dict[str, str]
    log: Path
    apis: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    others: list[subprocess.Popen[bytes]] = field(default_factory=list)
    redis: subprocess.Popen[bytes] | None = None

    def spawn(self, argv: list[str]) -> subprocess.Popen[bytes]:
        with self.log.open("ab") as log:
            return subprocess.Popen(
                argv, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def start_redis(self, port: int | None = None) -> str:
        """A redis-server of the bench's own on a loopback port (a free one unless told); its URL."""
        port = port or free_port()
        argv = ["redis-server", "--bind", "127.0.0.1", "--port", str(port)]
        self.redis = self.spawn([*argv, "--save", "", "--appendonly", "no"])
        self.others.append(self.redis)
        url = f"redis://127.0.0.1:{port}"
        wait_until(lambda: _redis_answers(port), "the bench's Redis")
        return url

    def run(self, argv: list[str]) -> None:
        with self.log.open("ab") as log:
            subprocess.run(argv, env=self.env, check=True, stdout=log, stderr=subprocess.STDOUT)

    def bootstrap_host(self, name: str) -> tuple[Path, Path]:
        """Register a host with a scratch target under the work dir; returns (scratch, token file)."""
        scratch, token = self.work / "scratch" / name, self.work / "tokens" / name
        scratch.mkdir(parents=True)
        self.run(
            [
                str(BIN / "storbench-api"),
                "bootstrap-host",
                "--name",
                name,
                "--scratch",
                str(scratch),
                "--token-file",
                str(token),
            ]
        )
        return scratch, token

    def start_api(self, port: int | None = None) -> str:
        """One API process (`storbench-api serve`); returns its URL once /health answers."""
        port = port or free_port()
        process = self.spawn([str(BIN / "storbench-api"), "serve", "--port", str(port)])
        self.apis[port] = process
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _healthy(url, process), f"the API on port {port}")
        return url

    def start_worker(self, name: str, server: str) -> subprocess.Popen[bytes]:
        """The real worker of host `name` (bootstrapped before), allowed only its scratch dir."""
        scratch, token = self.work / "scratch" / name, self.work / "tokens" / name
        process = self.spawn(
            [
                str(BIN / "storbench-worker"),
                "--server",
                server,
                "--token-file",
                str(token),
                "--allow",
                str(scratch),
                "--state-dir",
                str(self.work / "state" / name),
            ]
        )
        self.workers[name] = process
        return process

    def stop_all(self) -> None:
        """Workers first (they still report), then the APIs, then Redis and the rest."""
        for process in [*self.workers.values(), *self.apis.values(), *reversed(self.others)]:
            stop_process(process)


def _redis_answers(port: int) -> bool:
    done = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, check=False)
    return done.stdout.strip() == "PONG"


def _healthy(url: str, process: subprocess.Popen[bytes]) -> bool:
    if process.poll() is not None:
        raise SystemExit(f"the API process exited with code {process.returncode}")
    try:
        return httpx.get(f"{url}/api/v1/health", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def sign_in(url: str, password: str) -> str:
    """A bearer token of the first admin."""
    answer = httpx.post(f"{url}/api/v1/auth/token", data={"username": ADMIN_EMAIL, "password": password})
    answer.raise_for_status()
    return str(answer.json()["access_token"])


@contextmanager
def fleet(work: Path, env: dict[str, str]) -> Iterator[Fleet]:
    """A Fleet whose processes are all stopped on the way out (SIGTERM to the script too)."""
    started = Fleet(work=work, env=env, log=work / "fleet.log")
    with ExitStack() as cleanup:
        cleanup.callback(_kill_leftovers_in, work)
        cleanup.callback(started.stop_all)
        cleanup.callback(signal.signal, signal.SIGTERM, signal.getsignal(signal.SIGTERM))
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        yield started


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
