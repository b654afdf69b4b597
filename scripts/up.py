"""Run storbench on its embedded default: SQLite, filesystem broker, one local worker, the SPA.

Started by `make up`. Ctrl-C stops everything it started, fio included.

`make up REMOTE=1` (STORBENCH_REMOTE=1) lets other machines join as hosts: the API listens on every
interface, tells workers this machine's address (or STORBENCH_PUBLIC_URL), and the broker is a Redis
they can reach: one started here (bound to every interface, port STORBENCH_REDIS_PORT, 6390 by
default, no anonymous user: the API has its own password and each host its own ACL user; at most
STORBENCH_REDIS_MAXMEMORY, 256mb by default, and writes fail rather than evict when full), unless
STORBENCH_BROKER_URL names one already (then STORBENCH_WORKER_BROKER_URL, or that URL with this
machine's address in place of a loopback one, is what workers get). The API refuses to listen
beyond loopback while the admin's stored password is the documented one (storbench_api.cli).
"""

import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
DATA = Path(os.environ.get("STORBENCH_DATA_DIR", ROOT / "var"))
REMOTE = os.environ.get("STORBENCH_REMOTE", "").strip().lower() not in ("", "0", "no", "false")
HOST = os.environ.get("STORBENCH_HOST", "0.0.0.0" if REMOTE else "127.0.0.1")
PORT = int(os.environ.get("STORBENCH_PORT", "8000"))
REDIS_PORT = int(os.environ.get("STORBENCH_REDIS_PORT", "6390"))
# The most memory that Redis may use (Redis's units: 256mb, 1gb).
REDIS_MAXMEMORY = os.environ.get("STORBENCH_REDIS_MAXMEMORY", "256mb")
# Where this machine's own processes (the health check, the local worker) reach the API.
URL = f"http://{'127.0.0.1' if HOST in ('0.0.0.0', '::') else HOST}:{PORT}"
LOCAL_HOST_NAME = "localhost"
REDIS_API_USER = "storbench-api"


# What the children up.py starts inherit of its environment: the basics any process needs and, for
# the local worker, its own fio setting. Never the API's secret key, admin password, database URL
# or broker URL (with the API's full-rights Redis password in remote mode): the worker gets its own
# broker credential from the server, and fio, run by it, would otherwise hold them too.
BASIC_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME")
WORKER_SETTINGS = ("STORBENCH_WORKER_FIO",)


def worker_environment(env: dict[str, str]) -> dict[str, str]:
    """The local worker's environment: the basics from env, nothing of the API's configuration."""
    return {name: env[name] for name in (*BASIC_ENVIRONMENT, *WORKER_SETTINGS) if name in env}


def redis_environment(env: dict[str, str]) -> dict[str, str]:
    """Redis's environment: the basics only (its password is in its own configuration file)."""
    return {name: env[name] for name in BASIC_ENVIRONMENT if name in env}


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


def ensure_port_free(port: int = PORT, what: str = "API", other: str = "STORBENCH_PORT=8001") -> None:
    """Refuse at once, saying why, when something already listens where the API (or Redis) would."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            raise SystemExit(
                f"port {port} on {HOST} is already in use (another `make up`?): stop that, "
                f"or choose another port for the {what} with {other} make up"
            ) from None


def this_machines_address() -> str:
    """The address other machines most likely reach this one by (of the interface of the default route)."""
    for probe in ("192.0.2.1", "10.255.255.255", "8.8.8.8"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))  # UDP: nothing is sent, only a route is chosen
                address = str(udp.getsockname()[0])
            except OSError:
                continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    raise SystemExit(
        "cannot tell this machine's network address: set STORBENCH_PUBLIC_URL=http://ADDRESS:PORT "
        "(the address other hosts reach this machine by) and run make up REMOTE=1 again"
    )


def _is_loopback(host: str | None) -> bool:
    if host in (None, "localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host)).is_loopback
    except ValueError:
        return False


def _secret(path: Path, length: int = 32) -> str:
    """A secret kept in a file only this user reads, made on first use."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(length))
    return path.read_text().strip()


def redis_config(folder: Path, password: str) -> str:
    """The configuration of the Redis started for remote hosts (written at every start)."""
    return "\n".join(
        [
            "# written by make up REMOTE=1 at every start",
            "bind * -::*",
            f"port {REDIS_PORT}",
            # Nobody gets in without a user and password: the API's, and each host's own.
            "protected-mode no",
            "user default off",
            f"user {REDIS_API_USER} on >{password} ~* &* +@all",
            # Hosts can write into their own keys: bounded in total, and when full a write fails
            # rather than a queued assignment being evicted. One value is at most 1 MiB (messages
            # carry ids only).
            f"maxmemory {REDIS_MAXMEMORY}",
            "maxmemory-policy noeviction",
            "proto-max-bulk-len 1mb",
            f"dir {folder}",
            "appendonly yes",
            'save ""',
            f"logfile {folder / 'redis.log'}",
            "",
        ]
    )


def start_redis(public_host: str) -> tuple[subprocess.Popen[bytes], str, str]:
    """A Redis other hosts can reach: every interface, no anonymous user, the API's own password.

    Returns the process, the API's broker URL and the one workers get (the API adds each host's user).
    """
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit(
            "make up REMOTE=1 needs redis-server: apt-get install redis-server (make up REMOTE=1 "
            "installs it), or set STORBENCH_BROKER_URL to a Redis other hosts can reach"
        )
    folder = DATA / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    password = _secret(folder / "api-password")
    config = folder / "redis.conf"
    fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(redis_config(folder, password))
    ensure_port_free(REDIS_PORT, "Redis", "STORBENCH_REDIS_PORT=6391")
    redis = start(
        f"Redis for remote hosts on port {REDIS_PORT}",
        [server, str(config)],
        redis_environment(dict(os.environ)),
    )
    api_url = f"redis://{REDIS_API_USER}:{password}@127.0.0.1:{REDIS_PORT}/0"
    deadline = time.monotonic() + 15
    while not _redis_answers(REDIS_PORT, password):
        if redis.poll() is not None or time.monotonic() > deadline:
            stop([redis])
            raise SystemExit(f"Redis did not start on port {REDIS_PORT}; see {folder / 'redis.log'}")
        time.sleep(0.2)
    return redis, api_url, f"redis://{public_host}:{REDIS_PORT}/0"


def _redis_answers(port: int, password: str) -> bool:
    """PING as the API's user over a plain socket (no client library needed here)."""
    user, secret = REDIS_API_USER.encode(), password.encode()
    auth = b"*3\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(user), user, len(secret), secret)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(auth + b"*1\r\n$4\r\nPING\r\n")
            time.sleep(0.05)
            return b"+PONG" in conn.recv(256)
    except OSError:
        return False


def remote_environment(env: dict[str, str], brokers: list[subprocess.Popen[bytes]]) -> None:
    """Make env the remote mode's: a public URL, a reachable broker, a secret of this installation."""
    public_url = env.get("STORBENCH_PUBLIC_URL") or f"http://{this_machines_address()}:{PORT}"
    env["STORBENCH_PUBLIC_URL"] = public_url.rstrip("/")
    public_host = urlsplit(public_url).hostname or this_machines_address()
    env.setdefault("STORBENCH_SECRET_KEY", _secret(DATA / "secret-key"))
    if not env.get("STORBENCH_BROKER_URL"):
        redis, env["STORBENCH_BROKER_URL"], worker_url = start_redis(public_host)
        brokers.append(redis)
        env.setdefault("STORBENCH_WORKER_BROKER_URL", worker_url)
    elif not env.get("STORBENCH_WORKER_BROKER_URL"):
        given = urlsplit(env["STORBENCH_BROKER_URL"])
        if given.scheme.startswith("redis") and _is_loopback(given.hostname):
            # Workers get the same Redis by this machine's address (the API adds each host's user).
            netloc = f"{public_host}:{given.port}" if given.port else public_host
            env["STORBENCH_WORKER_BROKER_URL"] = urlunsplit(
                (given.scheme, netloc, given.path, given.query, given.fragment)
            )
            if not _reachable(public_host, given.port or 6379):
                say(
                    f"warning: the Redis of STORBENCH_BROKER_URL does not answer on {public_host}:"
                    f"{given.port or 6379}; remote hosts cannot reach it (bind it beyond loopback, "
                    "or leave STORBENCH_BROKER_URL unset and make up starts one)"
                )


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def start_local_worker(env: dict[str, str], token_file: Path, scratch: Path) -> subprocess.Popen[bytes]:
    """This machine's worker, as host 'localhost', allowed to write in the scratch directory."""
    return start(
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
        worker_environment(env),
    )


def announce(env: dict[str, str], scratch: Path) -> None:
    """Where storbench is running, how to sign in and, with REMOTE, how other hosts join."""
    email = env.get("STORBENCH_ADMIN_EMAIL", "admin@storbench.local")
    password = env.get("STORBENCH_ADMIN_PASSWORD", "storbench")
    shown = env.get("STORBENCH_PUBLIC_URL", URL)
    print(
        f"\n  storbench is running at {shown}\n"
        f"  sign in as {email} / {password}\n"
        f"  a scratch target 'scratch on localhost' ({scratch}) is ready for a first run\n"
        f"  API docs: {shown}/docs    stop: Ctrl-C\n",
        flush=True,
    )
    if REMOTE:
        broker = urlsplit(env.get("STORBENCH_WORKER_BROKER_URL") or env["STORBENCH_BROKER_URL"])
        print(
            f"  remote hosts: this server listens on {HOST}:{PORT}; workers reach it at {shown} "
            f"and the broker at {broker.scheme}://{broker.hostname}:{broker.port}{broker.path}\n"
            "  Hosts -> Enrollment tokens gives the command to run on each new host.\n",
            flush=True,
        )


def main() -> None:
    ensure_port_free()
    env = {**os.environ, "STORBENCH_DATA_DIR": str(DATA)}
    if "STORBENCH_DATABASE_URL" in env or "STORBENCH_BROKER_URL" in env:
        say("using STORBENCH_DATABASE_URL / STORBENCH_BROKER_URL from the environment")
    DATA.mkdir(parents=True, exist_ok=True)
    children: list[subprocess.Popen[bytes]] = []
    brokers: list[subprocess.Popen[bytes]] = []

    def on_signal(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        if REMOTE:
            remote_environment(env, brokers)
            children.extend(brokers)
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
        api = start(
            "the API on " + URL,
            [str(BIN / "storbench-api"), "serve", "--host", HOST, "--port", str(PORT)],
            env,
        )
        children.append(api)
        wait_for_api(api)
        children.append(start_local_worker(env, token_file, scratch))
        announce(env, scratch)
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        dead = next(child for child in children if child.poll() is not None)
        say(f"a process exited (pid {dead.pid}, code {dead.returncode}); stopping the rest")
    except KeyboardInterrupt:
        say("stopping")
    finally:
        # Redis last: the API and workers leave it cleanly first.
        stop([child for child in children if child not in brokers])
        stop(brokers)
        say("stopped")


if __name__ == "__main__":
    main()
