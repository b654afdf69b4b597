"""Run storbench on its embedded default: SQLite, filesystem broker, one local worker, the SPA.

Started by `make up`. Ctrl-C stops everything it started, fio included.
"""

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
DATA = Path(os.environ.get("STORBENCH_DATA_DIR", ROOT / "var"))
HOST = os.environ.get("STORBENCH_HOST", "127.0.0.1")
PORT = int(os.environ.get("STORBENCH_PORT", "8000"))
URL = f"http://{HOST}:{PORT}"
LOCAL_HOST_NAME = "localhost"


def say(message: str) -> None:
    print(f"\033[1m==> {message}\033[0m", flush=True)


def start(name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A child in its own process group, so stopping it stops its children too."""
    say(f"starting {name}")
    return subprocess.Popen(argv, env=env, start_new_session=True)


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each group, wait, then SIGKILL what is left."""
    for child in children:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for child in children:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()


def wait_for_api(api: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if api.poll() is not None:
            raise SystemExit(f"the API exited with code {api.returncode}; see the messages above")
        try:
            with urllib.request.urlopen(f"{URL}/api/v1/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the API did not answer on {URL} within {timeout_s:.0f} s")


def ensure_port_free() -> None:
    """Refuse at once, saying why, when something already listens where the API would."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, PORT))
        except OSError:
            raise SystemExit(
                f"port {PORT} on {HOST} is already in use (another `make up`?): stop that, "
                f"or choose another port with STORBENCH_PORT=8001 make up"
            ) from None


def main() -> None:
    ensure_port_free()
    env = {**os.environ, "STORBENCH_DATA_DIR": str(DATA)}
    if "STORBENCH_DATABASE_URL" in env or "STORBENCH_BROKER_URL" in env:
        say("using STORBENCH_DATABASE_URL / STORBENCH_BROKER_URL from the environment")
    DATA.mkdir(parents=True, exist_ok=True)
    scratch = DATA / "scratch"
    token_file = DATA / "localhost-worker.token"
    say("preparing the database, the first admin and this machine as host 'localhost'")
    subprocess.run(
        [
            str(BIN / "storbench-api"),
            "bootstrap-host",
            "--name",
            LOCAL_HOST_NAME,
            "--scratch",
            str(scratch),
            "--token-file",
            str(token_file),
        ],
        env=env,
        check=True,
    )
    children: list[subprocess.Popen[bytes]] = []

    def on_signal(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        api = start(
            "the API on " + URL,
            [str(BIN / "storbench-api"), "serve", "--host", HOST, "--port", str(PORT)],
            env,
        )
        children.append(api)
        wait_for_api(api)
        worker = start(
            "the local worker (host 'localhost')",
            [
                str(BIN / "storbench-worker"),
                "--server",
                URL,
                "--token-file",
                str(token_file),
                "--name",
                LOCAL_HOST_NAME,
                "--allow",
                str(scratch),
                "--state-dir",
                str(DATA / "worker"),
            ],
            env,
        )
        children.append(worker)
        email = env.get("STORBENCH_ADMIN_EMAIL", "admin@storbench.local")
        password = env.get("STORBENCH_ADMIN_PASSWORD", "storbench")
        print(
            f"\n  storbench is running at {URL}\n"
            f"  sign in as {email} / {password}\n"
            f"  a scratch target 'scratch on localhost' ({scratch}) is ready for a first run\n"
            f"  API docs: {URL}/docs    stop: Ctrl-C\n",
            flush=True,
        )
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        dead = next(child for child in children if child.poll() is not None)
        say(f"a process exited (pid {dead.pid}, code {dead.returncode}); stopping the rest")
    except KeyboardInterrupt:
        say("stopping")
    finally:
        stop(children)
        say("stopped")


if __name__ == "__main__":
    main()
