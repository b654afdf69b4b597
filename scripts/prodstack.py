"""The docker-compose stack `make prod-check` runs: Docker engine, base image, compose project, faults.

Everything here is about Docker and Compose; what the stack must do is in prod_check.py.
"""

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE_IMAGE = "storbench/debian:bookworm"
DOCKER_START_TIMEOUT_S = 60.0


def log(message: str) -> None:
    """Progress on stderr; stdout keeps only the checks and the final line."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(
    args: list[str], *, check: bool = True, timeout: float = 600.0, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing its output; on failure raise with what it printed."""
    environment = {**os.environ, **env} if env else None
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False, env=environment)
    if check and done.returncode != 0:
        said = (done.stdout.strip()[-1500:] + "\n" + done.stderr.strip()[-1500:]).strip()
        raise RuntimeError(f"{' '.join(args[:4])}… exited {done.returncode}: {said}")
    return done


def wait_for(what: str, condition: Callable[[], bool], timeout_s: float, every_s: float = 0.5) -> float:
    """Seconds until `condition()` held; raise TimeoutError naming `what` past `timeout_s`."""
    start = time.monotonic()
    while True:
        try:
            if condition():
                return time.monotonic() - start
        except Exception:  # a service that is down answers with errors until it is back
            pass
        if time.monotonic() - start > timeout_s:
            raise TimeoutError(f"{what}: not within {timeout_s:.0f} s")
        time.sleep(every_s)


class DockerEngine:
    """The Docker engine: used when running, else installed from Debian and started (and stopped after)."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.started: subprocess.Popen[bytes] | None = None

    def ensure(self) -> None:
        """A Docker engine answers, starting one when none does."""
        if run(["docker", "info"], check=False).returncode == 0:
            return
        if shutil.which("dockerd") is None:
            log("installing docker.io and docker-compose from Debian")
            run(["apt-get", "update", "-qq"])
            run(["apt-get", "install", "-y", "-qq", "docker.io", "docker-compose"])
        log(f"starting dockerd (log: {self.log_path})")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as out:
            self.started = subprocess.Popen(["dockerd"], stdout=out, stderr=out, start_new_session=True)
        wait_for(
            "dockerd", lambda: run(["docker", "info"], check=False).returncode == 0, DOCKER_START_TIMEOUT_S
        )

    def stop(self) -> None:
        """Stop the engine if this script started it (by its PID); a running one is left alone."""
        if self.started is None:
            return
        self.started.terminate()
        try:
            self.started.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.started.kill()
            self.started.wait()


def ensure_base_image() -> float:
    """Build storbench/debian:bookworm from Debian's packages when missing; seconds it took (0: cached)."""
    if run(["docker", "image", "inspect", BASE_IMAGE], check=False).returncode == 0:
        return 0.0
    log(f"building {BASE_IMAGE} with debootstrap (a few minutes, once)")
    start = time.monotonic()
    run([str(ROOT / "scripts" / "build-base-image.sh"), BASE_IMAGE], timeout=1800)
    return time.monotonic() - start


def local_ca_certificates() -> str:
    """This machine's own CAs (a TLS-intercepting proxy's), for builds that reach PyPI and npm through it."""
    folder = Path("/usr/local/share/ca-certificates")
    return "\n".join(p.read_text().strip() for p in sorted(folder.rglob("*.crt"))) if folder.is_dir() else ""


def compose_command() -> list[str]:
    """Compose v2 (`docker compose`) when installed, else v1 (`docker-compose`)."""
    if run(["docker", "compose", "version"], check=False).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"]


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Stack:
    """One compose project of docker-compose.yml, with its own generated env file of random secrets."""

    project: str
    env_file: Path
    settings: dict[str, str] = field(default_factory=dict)

    @classmethod
    def generate(cls, project: str, env_file: Path) -> "Stack":
        """A stack whose env file holds fresh random secrets and a free HTTP port."""
        settings = {
            "BASE_IMAGE": BASE_IMAGE,
            "POSTGRES_PASSWORD": secrets.token_hex(16),
            "REDIS_PASSWORD": secrets.token_hex(16),
            "STORBENCH_SECRET_KEY": secrets.token_hex(32),
            "STORBENCH_ADMIN_EMAIL": "admin@storbench.local",
            "STORBENCH_ADMIN_PASSWORD": secrets.token_urlsafe(18),
            "STORBENCH_HTTP_PORT": str(free_port()),
            "STORBENCH_WORKER_NAME": "compose-worker",
        }
        stack = cls(project, env_file, settings)
        stack.write_env()
        return stack

    @property
    def url(self) -> str:
        """The proxy's address on this machine."""
        return f"http://127.0.0.1:{self.settings['STORBENCH_HTTP_PORT']}"

    def write_env(self) -> None:
        """Write the env file, readable by its owner only."""
        self.env_file.touch(mode=0o600)
        self.env_file.write_text("".join(f"{key}={value}\n" for key, value in self.settings.items()))

    def compose(self, *args: str, timeout: float = 900.0) -> subprocess.CompletedProcess[str]:
        """Run compose on this project, with every profile's services."""
        base = [*compose_command(), "--project-name", self.project, "--env-file", str(self.env_file)]
        files = ["-f", str(ROOT / "docker-compose.yml"), "--profile", "worker"]
        # A multi-line value an env file cannot hold: from the environment, which compose reads first.
        extra = {"EXTRA_CA_CERTS": local_ca_certificates()}
        return run([*base, *files, *args], timeout=timeout, env=extra)

    def containers(self, service: str) -> list[str]:
        """Ids of the service's containers, running or not, in a stable order."""
        labels = [
            f"label=com.docker.compose.project={self.project}",
            f"label=com.docker.compose.service={service}",
        ]
        found = run(["docker", "ps", "-a", "-q", "--filter", labels[0], "--filter", labels[1]]).stdout.split()
        return sorted(found)

    def state(self, container: str) -> dict[str, object]:
        """`docker inspect`'s State of a container."""
        found = json.loads(run(["docker", "inspect", container]).stdout)
        state: dict[str, object] = found[0]["State"]
        return state

    def healthy(self, container: str) -> bool:
        """Running and its health check passing."""
        state = self.state(container)
        health = state.get("Health")
        return bool(state.get("Running")) and isinstance(health, dict) and health.get("Status") == "healthy"

    def all_healthy(self, services: list[str]) -> bool:
        """Every container of every named service is healthy."""
        ids = [c for service in services for c in self.containers(service)]
        return bool(ids) and all(self.healthy(c) for c in ids)

    def kill_and_restart(self, container: str) -> None:
        """SIGKILL the container (a crash), then start it again.

        `docker kill` counts as stopping it by hand, so its restart policy does not bring it back.
        """
        run(["docker", "kill", "--signal", "KILL", container])
        wait_for("container stopped", lambda: not self.state(container).get("Running"), 30, 0.1)
        run(["docker", "start", container])

    def logs(self, tail: int = 60) -> str:
        """The last lines of every service's log, to say why a check failed."""
        return self.compose("logs", "--no-color", "--tail", str(tail), timeout=120).stdout

    def down(self) -> None:
        """Remove the project's containers, networks and volumes (images stay cached)."""
        self.compose("down", "--volumes", "--remove-orphans", "--timeout", "20", timeout=300)

    def leftovers(self) -> list[str]:
        """Containers and volumes of the project still present."""
        label = f"label=com.docker.compose.project={self.project}"
        containers = run(["docker", "ps", "-a", "-q", "--filter", label]).stdout.split()
        volumes = run(["docker", "volume", "ls", "-q", "--filter", label]).stdout.split()
        return containers + volumes
