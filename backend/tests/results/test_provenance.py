"""Imported outputs keep fio's own date and host name, and the same output imported twice is one."""

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import Caller, make_caller
from tests.support.fio import quick_randread

GOLDEN = Path(__file__).resolve().parents[3] / "fio" / "tests" / "golden"


def golden(name: str) -> str:
    return (GOLDEN / name).read_bytes().decode()


def _import(
    client: TestClient, caller: Caller, content: str | bytes, name: str = "out.json", **form: str
) -> Any:
    data = content.encode() if isinstance(content, str) else content
    files = {"file": (name, data, "application/octet-stream")}
    return client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-json"))


def test_an_old_json_output_is_dated_by_fios_timestamp_not_the_upload(
    client: TestClient, owner: Caller
) -> None:
    response = _import(client, owner, golden("fio-2.2.10.json"), name="2016.json")
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    # "timestamp" : 1467884400 in the output: 2016-07-07 09:40 UTC.
    assert _when(result["measured_at"]) == datetime.fromtimestamp(1467884400, UTC)
    assert _when(result["created_at"]) > datetime(2026, 1, 1, tzinfo=UTC)
    listed = client.get("/api/v1/results", headers=owner.headers).json()["items"]
    assert [r["measured_at"] for r in listed] == [result["measured_at"]]


def test_a_json_plus_output_keeps_its_timestamp(client: TestClient, owner: Caller) -> None:
    response = _import(client, owner, golden("fio-2.14-jsonplus.json"), name="plus.json")
    assert response.status_code == 201, response.text
    assert response.json()["source_format"] == "json+"
    (result,) = response.json()["results"]
    assert _when(result["measured_at"]) == datetime.fromtimestamp(1475000000, UTC)


def test_a_fresh_real_fio_output_is_dated_when_fio_finished(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    (result,) = _import(client, owner, fio_json).json()["results"]
    stamp = int(fio_json.split('"timestamp" : ', 1)[1].split(",", 1)[0])
    assert _when(result["measured_at"]) == datetime.fromtimestamp(stamp, UTC)


def test_a_text_output_is_dated_by_its_job_header(client: TestClient, owner: Caller) -> None:
    response = _import(client, owner, golden("fio-2.2.10.txt"), name="terminal.txt")
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    # "pid=3122: Thu Jul  7 10:00:00 2016": fio prints no zone, read as UTC.
    assert _when(result["measured_at"]) == datetime(2016, 7, 7, 10, 0, tzinfo=UTC)


def test_a_text_output_without_a_date_is_dated_now(client: TestClient, owner: Caller) -> None:
    text = golden("fio-2.2.10.txt").replace(": Thu Jul  7 10:00:00 2016", "")
    (result,) = _import(client, owner, text, name="nodate.txt").json()["results"]
    assert datetime.now(UTC) - _when(result["measured_at"]) < timedelta(minutes=10)


def test_a_json_output_from_a_clock_never_set_is_dated_now(client: TestClient, owner: Caller) -> None:
    text = golden("fio-2.2.10.json").replace('"timestamp" : 1467884400', '"timestamp" : 12')
    (result,) = _import(client, owner, text, name="1970.json").json()["results"]
    assert _when(result["measured_at"]).year >= 2026


def test_the_same_output_imported_again_is_recognised_and_not_stored_twice(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    first = _import(client, owner, fio_json, name="a.json", label="first")
    assert first.status_code == 201
    again = _import(client, owner, fio_json, name="copy-of-a.json", label="second")
    assert again.status_code == 200, again.text
    body = again.json()
    assert body["duplicate"] is True
    assert [r["id"] for r in body["results"]] == [r["id"] for r in first.json()["results"]]
    assert body["results"][0]["label"] == "first"
    assert _when(body["first_stored_at"]) <= datetime.now(UTC)
    assert first.json()["duplicate"] is False
    assert client.get("/api/v1/results", headers=owner.headers).json()["total"] == 1


def test_a_changed_output_is_not_a_duplicate(client: TestClient, owner: Caller, fio_json: str) -> None:
    assert _import(client, owner, fio_json).status_code == 201
    assert _import(client, owner, fio_json + "\n").status_code == 201
    assert client.get("/api/v1/results", headers=owner.headers).json()["total"] == 2


def test_another_teams_copy_does_not_make_an_import_a_duplicate(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    assert _import(client, owner, fio_json).status_code == 201
    stranger = make_caller(db)
    response = _import(client, stranger, fio_json)
    assert response.status_code == 201
    assert response.json()["duplicate"] is False


def test_a_deleted_import_can_be_imported_again(client: TestClient, owner: Caller, fio_json: str) -> None:
    (result,) = _import(client, owner, fio_json).json()["results"]
    assert client.delete(f"/api/v1/results/{result['id']}", headers=owner.headers).status_code == 204
    response = _import(client, owner, fio_json)
    assert response.status_code == 201
    assert response.json()["duplicate"] is False


# ---- client/server output: one result per client, named by fio's hostname ----------------------


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _wait_listening(proc: subprocess.Popen[bytes], host: str, port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"fio server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
            return
        time.sleep(0.05)
    raise TimeoutError("fio server did not start")


@pytest.fixture(scope="module")
def client_server_output(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real fio client/server output: two servers on loopback addresses, one client."""
    workdir = tmp_path_factory.mktemp("fio-cs")
    servers = [(host, _free_port(host)) for host in ("127.0.0.1", "127.0.0.2")]
    procs = [
        subprocess.Popen(
            ["fio", f"--server=ip:{host},{port}"],
            cwd=workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for host, port in servers
    ]
    try:
        for proc, (host, port) in zip(procs, servers, strict=True):
            _wait_listening(proc, host, port)
        job = workdir / "cs.fio"
        job.write_text(
            "[global]\nrw=randread\nbs=4k\nsize=4m\nruntime=1\ntime_based\nioengine=psync\n"
            f"directory={workdir}\n[cs]\n"
        )
        clients = [f"--client=ip:{host},{port}" for host, port in servers]
        done = subprocess.run(
            ["fio", *clients, "--output-format=json", str(job)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        yield done.stdout
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_client_server_output_keeps_each_clients_host_name_and_the_date(
    client: TestClient, owner: Caller, client_server_output: str
) -> None:
    response = _import(client, owner, client_server_output, name="cs.json")
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["source_format"] == "client_server"
    per_client = sorted(r["host_name"] for r in body["results"] if r["job_name"] == "cs")
    assert per_client == ["127.0.0.1", "127.0.0.2"]
    stamp = int(client_server_output.split('"timestamp" : ', 1)[1].split(",", 1)[0])
    assert {_when(r["measured_at"]) for r in body["results"]} == {datetime.fromtimestamp(stamp, UTC)}


def test_an_output_without_host_names_takes_the_uploaders_or_unknown(
    client: TestClient, owner: Caller
) -> None:
    (named,) = _import(client, owner, golden("fio-2.2.10.json"), host_name="nas-client-07").json()["results"]
    assert named["host_name"] == "nas-client-07"
    (unnamed,) = _import(client, owner, golden("fio-3.33-stalled.json")).json()["results"]
    assert unnamed["host_name"] == "unknown"
