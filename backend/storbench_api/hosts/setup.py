"""How a new host joins: whether this server can take remote hosts at all, and the commands to run.

The commands are the one place the Hosts page, the enrollment-token response and the docs take
them from: one installs fio and the worker (from this server's own wheels), one puts the token in
a file only root reads (never on the command line, where `ps` shows it to every user), one starts
the worker lending the directory the user names in place of <DIRECTORY>.
"""

import ipaddress
import shlex
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from storbench_api.hosts.schemas import WorkerSetup
from storbench_api.settings import get_settings

TOKEN_FILE = "/etc/storbench-token"
DIRECTORY_PLACEHOLDER = "<DIRECTORY>"
INSTALL_DIR = "/opt/storbench-worker"
REMOTE_SWITCH = "make up REMOTE=1"


def server_url(scope: Mapping[str, Any]) -> str:
    """The address hosts reach this server by: the configured public URL, else the address of the
    socket the request (an ASGI scope) came in on. Never the request's Host header: the client
    writes that, and whoever sends one would choose where the install command fetches the worker."""
    configured = get_settings().public_url
    if configured:
        return configured.rstrip("/")
    scheme = str(scope.get("scheme", "http"))
    host, port = scope.get("server") or ("127.0.0.1", 8000)
    netloc = f"[{host}]" if ":" in host else host
    if (scheme, port) not in (("http", 80), ("https", 443)):
        netloc = f"{netloc}:{port}"
    return f"{scheme}://{netloc}"


def _is_loopback(host: str | None) -> bool:
    if host is None or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def broker_address() -> str:
    """The broker workers are given, as an address without any credential."""
    settings = get_settings()
    url = settings.worker_broker_url or settings.effective_broker_url
    if url.startswith("filesystem://"):
        return f"folder {settings.broker_folder} on this machine"
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc = f"{netloc}:{parts.port}"
    return f"{parts.scheme}://{netloc}{parts.path}"


def remote_problems(url: str) -> list[str]:
    """Why a host on another machine could not join this server, each with what to do."""
    settings = get_settings()
    problems: list[str] = []
    broker = settings.worker_broker_url or settings.effective_broker_url
    if broker.startswith("filesystem://"):
        problems.append(
            "This server runs the embedded broker, a folder on this machine: only the worker on this "
            f"machine can use it. Restart storbench with `{REMOTE_SWITCH}` to use a Redis broker that "
            "other hosts can reach (or set STORBENCH_BROKER_URL to one)."
        )
    elif _is_loopback(urlsplit(broker).hostname):
        problems.append(
            f"Workers are given the broker at {broker_address()}, which only this machine can reach. "
            f"Restart storbench with `{REMOTE_SWITCH}`, or set STORBENCH_WORKER_BROKER_URL to an "
            "address of that Redis other hosts can reach."
        )
    if _is_loopback(urlsplit(url).hostname):
        problems.append(
            f"This server's address, {url}, is reachable only from this machine. Restart storbench with "
            f"`{REMOTE_SWITCH}` (it listens beyond loopback and tells hosts this machine's address), or "
            "set STORBENCH_PUBLIC_URL to the address hosts reach it by."
        )
    return problems


def install_command(url: str) -> str:
    """One command that installs fio and the worker on a Debian or Ubuntu host (as root)."""
    return (
        f"apt-get install -y fio python3-venv && python3 -m venv {INSTALL_DIR} && "
        f"{INSTALL_DIR}/bin/pip install -r {url}/api/v1/worker/requirements.txt && "
        f"ln -sf {INSTALL_DIR}/bin/storbench-worker /usr/local/bin/storbench-worker"
    )


def token_file_command(token: str) -> str:
    """Puts the token in a file only root reads (echo is a shell builtin: no process shows it)."""
    return f"install -m 600 /dev/null {TOKEN_FILE} && echo {shlex.quote(token)} > {TOKEN_FILE}"


def start_command(url: str, host_name: str | None = None) -> str:
    """Starts the worker; the user replaces <DIRECTORY> with what the host lends to benchmarks."""
    name = shlex.quote(host_name) if host_name else '"$(hostname)"'
    return (
        f"storbench-worker --server {url} --token-file {TOKEN_FILE} --name {name} "
        f"--allow {DIRECTORY_PLACEHOLDER}"
    )


def enroll_commands(url: str, token: str, host_name: str | None = None) -> str:
    """Everything to run on a new host, one command per line, with what each does."""
    return "\n".join(
        [
            "# 1. install fio and the storbench worker (Debian or Ubuntu, as root)",
            install_command(url),
            "# 2. the enrollment token, in a file only root can read",
            token_file_command(token),
            f"# 3. start the worker: replace {DIRECTORY_PLACEHOLDER} with the directory (or block device) "
            "it may benchmark",
            start_command(url, host_name),
        ]
    )


def worker_setup(url: str) -> WorkerSetup:
    """What the Hosts page shows about adding a host reaching this server at url."""
    problems = remote_problems(url)
    return WorkerSetup(
        mode=get_settings().mode,
        accepts_remote_hosts=not problems,
        problems=problems,
        remote_switch=REMOTE_SWITCH,
        server_url=url,
        broker=broker_address(),
        install_command=install_command(url),
        token_file=TOKEN_FILE,
        start_command=start_command(url),
        directory_placeholder=DIRECTORY_PLACEHOLDER,
    )
