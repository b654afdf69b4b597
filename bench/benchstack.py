"""The stack a benchmark script measures: its own API and one worker, started and stopped by the script.

Embedded default (SQLite and the filesystem broker in the script's temp dir), or whatever
STORBENCH_DATABASE_URL / STORBENCH_BROKER_URL name. fio writes only in that temp dir's scratch folder.
"""

import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
ADMIN_EMAIL = "admin@storbench.local"
START_TIMEOUT_S = 60.0
STOP_GRACE_S = 15.0


@dataclass
class BenchStack:
    """A running API with one online worker host and its scratch-directory target."""

    url: str
    token: str
    api: httpx.Client
    target_id: int
    scratch: Path
    worker: subprocess.Popen[bytes]
    log_path: Path
    api_process: subprocess.Popen[bytes]


def nearest_rank(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank (q=0.95: the 95th percentile), one of the values measured."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def randread_4k_job(name: str, runtime: int) -> dict[str, object]:
    """A small direct-I/O 4k random-read job, time based (64 MiB file)."""
    return {
        "name": name,
        "rw": "randread",
        "bs": "4k",
        "iodepth": 16,
        "size": "64m",
        "runtime": runtime,
        "time_based": True,
        "direct": True,
        "ioengine": "libaio",
    }


@contextmanager
def bench_workdir(prefix: str) -> Iterator[Path]:
    """A fresh temp dir, removed afterwards; kept (and named on stderr) when the benchmark failed."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield work
    except BaseException:
        print(f"kept {work} (stack.log has the API and worker output)", file=sys.stderr)
        raise
    shutil.rmtree(work, ignore_errors=True)


def _wait_until(ready: Callable[[], bool], what: str, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}; see {log_path}")
        time.sleep(0.3)


def _api_healthy(url: str, api: subprocess.Popen[bytes], log_path: Path) -> bool:
    if api.poll() is not None:
        raise SystemExit(f"the API exited with code {api.returncode}; see {log_path}")
    try:
        return httpx.get(f"{url}/api/v1/health", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Newest first (a stopping worker still reports to the API): SIGTERM each group, then SIGKILL."""
    for process in reversed(processes):
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def _kill_leftovers_in(work: Path) -> None:
    """SIGKILL any of our processes still working in the temp dir (fio runs in a process group of its own)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
            if entry.stat().st_uid == os.getuid() and cwd.is_relative_to(work):
                os.kill(int(entry.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def running_stack(work: Path, host_name: str = "bench-host") -> Iterator[BenchStack]:
    """API and worker in their own process groups, all stopped on the way out whatever happened."""
    scratch = work / "scratch"
    scratch.mkdir()
    token_file = work / "worker.token"
    log_path = work / "stack.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "STORBENCH_DATA_DIR": str(work / "data"),
        "STORBENCH_ADMIN_PASSWORD": os.environ.get("STORBENCH_ADMIN_PASSWORD", "bench-password"),
        "STORBENCH_SECRET_KEY": os.environ.get("STORBENCH_SECRET_KEY", "bench-secret"),
    }
    processes: list[subprocess.Popen[bytes]] = []
    with ExitStack() as cleanup, log_path.open("wb") as log:
        cleanup.callback(_kill_leftovers_in, work)
        cleanup.callback(_stop, processes)
        # A plain `kill` of the script must stop the stack too, as Ctrl-C does.
        cleanup.callback(signal.signal, signal.SIGTERM, signal.getsignal(signal.SIGTERM))
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        subprocess.run(
            [
                *(str(BIN / "storbench-api"), "bootstrap-host", "--name", host_name),
                *("--scratch", str(scratch), "--token-file", str(token_file)),
            ],
            env=env,
            check=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        api_process = subprocess.Popen(
            [str(BIN / "storbench-api"), "serve", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        processes.append(api_process)
        _wait_until(lambda: _api_healthy(url, api_process, log_path), "the API", log_path)
        worker = subprocess.Popen(
            [
                *(str(BIN / "storbench-worker"), "--server", url, "--token-file", str(token_file)),
                *("--allow", str(scratch), "--state-dir", str(work / "worker")),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        processes.append(worker)
        signed_in = httpx.post(
            f"{url}/api/v1/auth/token",
            data={"username": ADMIN_EMAIL, "password": env["STORBENCH_ADMIN_PASSWORD"]},
        )
        signed_in.raise_for_status()
        token = str(signed_in.json()["access_token"])
        api = cleanup.enter_context(
            httpx.Client(base_url=f"{url}/api/v1", headers={"Authorization": f"Bearer {token}"})
        )

        def host_online() -> bool:
            if worker.poll() is not None:
                raise SystemExit(f"the worker exited with code {worker.returncode}; see {log_path}")
            hosts = api.get("/hosts").json()["items"]
            return any(h["name"] == host_name and h["status"] == "online" for h in hosts)

        _wait_until(host_online, "the worker to come online", log_path)
        # bootstrap-host names the target after the host (the database may hold others).
        targets = api.get("/targets").json()["items"]
        target_id = next(int(t["id"]) for t in targets if t["name"] == f"scratch on {host_name}")
        yield BenchStack(url, token, api, target_id, scratch, worker, log_path, api_process)
