"""Client/server runs: two local fio servers driven by one fio client."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from storbench_fio.results import parse_fio_output
from tests.conftest import FIO, requires_fio

pytestmark = requires_fio

SERVERS = [("127.0.0.1", 8765), ("127.0.0.2", 8766)]


def _wait_listening(host: str, port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"fio server {host}:{port} did not start")


@pytest.fixture
def fio_servers(tmp_path: Path) -> Iterator[list[tuple[str, int]]]:
    """Two fio servers on loopback addresses, always stopped afterwards."""
    assert FIO is not None
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for host, port in SERVERS:
            procs.append(
                subprocess.Popen(
                    [FIO, f"--server=ip:{host},{port}"],
                    cwd=tmp_path,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        deadline = time.monotonic() + 10
        for host, port in SERVERS:
            _wait_listening(host, port, deadline)
        yield SERVERS
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_client_server_json(fio_servers: list[tuple[str, int]], tmp_path: Path) -> None:
    assert FIO is not None
    job = tmp_path / "cs.fio"
    job.write_text(
        "[global]\nrw=randread\nbs=4k\nsize=8m\nruntime=1\ntime_based\nioengine=psync\n"
        f"directory={tmp_path}\n[cs]\n"
    )
    clients = [f"--client=ip:{host},{port}" for host, port in fio_servers]
    proc = subprocess.run(
        [FIO, *clients, "--output-format=json", str(job)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report = parse_fio_output(proc.stdout)
    assert report.source_format == "client_server"
    assert report.global_options["rw"] == "randread"
    per_client = [j for j in report.jobs if j.name == "cs"]
    assert sorted(j.hostname or "" for j in per_client) == ["127.0.0.1", "127.0.0.2"]
    [aggregate] = [j for j in report.jobs if j.name == "All clients"]
    assert aggregate.hostname is None
    total = sum(j.directions["read"].total_ios or 0 for j in per_client)
    assert aggregate.directions["read"].total_ios == total
