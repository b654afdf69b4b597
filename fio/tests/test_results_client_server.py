"""Client/server runs: two local fio servers driven by one fio client."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.results import parse_fio_output

pytestmark = requires_fio

SERVERS = [("127.0.0.1", 8765), ("127.0.0.2", 8766)]


def _wait_listening(proc: subprocess.Popen[bytes], host: str, port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"fio server {host}:{port} exited with {proc.returncode}")
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
    servers = [(host, _port_for(host, port)) for host, port in SERVERS]
    try:
        for host, port in servers:
            procs.append(
                subprocess.Popen(
                    [FIO, f"--server=ip:{host},{port}"],
                    cwd=tmp_path,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    # Own session: fio servers fork workers, and the group is stopped whole.
                    start_new_session=True,
                )
            )
        deadline = time.monotonic() + 10
        for proc, (host, port) in zip(procs, servers, strict=True):
            _wait_listening(proc, host, port, deadline)
        yield servers
    finally:
        for proc in procs:
            _signal_group(proc, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                _signal_group(proc, signal.SIGKILL)
                proc.wait()
            _signal_group(proc, signal.SIGKILL)  # forked workers outliving the server


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)


def _port_for(host: str, preferred: int) -> int:
    """The preferred port when it is free on host, else any free one (others may hold it)."""
    for port in (preferred, 0):
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError(f"no free port on {host}")


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
