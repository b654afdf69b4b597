"""The real service for the CLI tests: API and worker processes, PostgreSQL, Redis and fio.

Everything runs in database storbench_cli_test and Redis DB 7, so other suites can run meanwhile.
"""

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

# Tests import cli_testkit by a name unique in the repository, so this folder need not be a package.
sys.path.insert(0, str(Path(__file__).parent))

from cli_testkit import (
    BROKER_URL,
    DATABASE,
    HOST_NAME,
    STORBENCH,
    TARGET_NAME,
    CliRunner,
    JobsFile,
    Service,
    cli_env,
    fresh_database,
    running_stack,
)


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """API and one worker allowed to use a scratch directory, with a directory target in it."""
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("stack")
    scratch = workdir / "scratch"
    scratch.mkdir()
    with running_stack(fresh_database(DATABASE), BROKER_URL, workdir) as stack:
        signed_in = httpx.post(
            f"{stack.url}/api/v1/auth/token",
            data={"username": stack.admin_email, "password": stack.admin_password},
        )
        signed_in.raise_for_status()
        token = signed_in.json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=f"{stack.url}/api/v1", headers=headers, timeout=30) as api:
            host = api.post("/hosts", json={"name": HOST_NAME}).json()
            stack.start_worker(host["worker_token"], HOST_NAME, allow=scratch)
            stack.wait_for(
                lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "the worker"
            )
            target = api.post(
                "/targets",
                json={"name": TARGET_NAME, "host_id": host["id"], "path": str(scratch), "kind": "directory"},
            ).json()
        yield Service(stack=stack, token=token, host=host, target=target, scratch=scratch)


@pytest.fixture
def storbench(service: Service) -> CliRunner:
    """Run the installed `storbench` executable against the service and capture what it printed."""

    def run(
        *args: str, env: dict[str, str] | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(STORBENCH), *args],
            env=env or cli_env(service),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
            check=False,
        )
        # Expected failures are explained in a sentence, never with a traceback.
        assert "Traceback" not in done.stderr, done.stderr
        return done

    return run


@pytest.fixture
def jobs_file(tmp_path: Path) -> JobsFile:
    """Write jobs as a JSON file for `run --jobs-json`."""

    def write(*jobs: dict[str, Any]) -> Path:
        path = tmp_path / f"jobs-{time.monotonic_ns()}.json"
        path.write_text(json.dumps(list(jobs)))
        return path

    return write
