"""Importing fio outputs into the team's history."""

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.storage_classes.expected import LATENCY_CACHE, LATENCY_SLOWER
from tests.conftest import Caller, make_caller, make_host, make_target
from tests.support.fio import quick_randread


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-json"))


@pytest.fixture(scope="module")
def fio_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """fio's human-readable output, as users paste it from a terminal."""
    workdir = tmp_path_factory.mktemp("fio-text")
    argv = ["fio", f"--directory={workdir}", "--name=seqwrite", "--rw=write", "--bs=64k", "--size=8m"]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def _import(client: TestClient, caller: Caller, content: str, name: str = "out.json", **form: str) -> object:
    files = {"file": (name, content.encode(), "application/octet-stream")}
    return client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)


def test_an_imported_json_output_joins_the_history_marked_imported(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    response = _import(client, owner, fio_json, storage_class="NAS capacity", host_name="old-client")
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["source_format"] == "json+"
    (result,) = body["results"]
    assert result["imported"] is True
    assert result["host_name"] == "old-client"
    assert result["storage_class"] == "NAS capacity"
    assert result["directions"]["read"]["iops"] > 0
    history = client.get("/api/v1/results?imported=true", headers=owner.headers).json()
    assert [r["id"] for r in history["items"]] == [result["id"]]


def test_text_output_pasted_from_a_terminal_is_imported(
    client: TestClient, owner: Caller, fio_text: str
) -> None:
    response = _import(client, owner, fio_text, name="terminal.txt")
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    assert response.json()["source_format"] == "text"
    write = result["directions"]["write"]
    assert write["io_bytes"] == 8 * 1024 * 1024
    assert write["bw_bytes"] > 0


def test_an_unreadable_file_says_why_and_stores_nothing(client: TestClient, owner: Caller) -> None:
    response = _import(client, owner, '{"fio version": "fio-3.33", "jobs": [ {"jobname": ', name="cut.json")
    assert response.status_code == 422
    assert "line" in response.json()["message"]
    assert client.get("/api/v1/results", headers=owner.headers).json()["total"] == 0


def test_imports_label_with_the_target_they_belong_to(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="cfs-turbo")
    target.storage_class = "CFS turbo"
    db.commit()
    response = _import(client, owner, fio_json, target_id=str(target.id))
    assert response.status_code == 201
    assert response.json()["results"][0]["storage_class"] == "CFS turbo"
    assert client.get(f"/api/v1/results?target_id={target.id}", headers=owner.headers).json()["total"] == 1
    stranger = make_caller(db)
    assert _import(client, stranger, fio_json, target_id=str(target.id)).status_code == 404


def test_binary_garbage_is_refused_as_not_text(client: TestClient, owner: Caller, tmp_path: Path) -> None:
    files = {"file": ("x.bin", bytes([0xFF, 0xFE, 0x00, 0xD8, 0x00, 0xDC]) * 3, "application/octet-stream")}
    response = client.post("/api/v1/results/import", files=files, headers=owner.headers)
    assert response.status_code == 422


def test_an_import_on_a_classed_target_is_judged_against_its_spec_and_advised(
    client: TestClient, db: Session, owner: Caller, fio_json: str
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="eff-100")
    classes = client.get("/api/v1/storage-classes", headers=owner.headers).json()["items"]
    efficiency = next(c for c in classes if c["name"] == "Efficiency cloud disk")
    patched = client.patch(
        f"/api/v1/targets/{target.id}",
        json={"storage_class_id": efficiency["id"], "capacity_gib": 100},
        headers=owner.headers,
    )
    assert patched.status_code == 200, patched.text
    response = _import(client, owner, fio_json, target_id=str(target.id))
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    # One 4 KiB read in flight is a latency test: judged against the class's 1-3 ms.
    (check,) = result["spec_checks"]
    latency_ms = result["directions"]["read"]["lat_ns"]["mean_ns"] / 1e6
    assert (check["metric"], check["low"], check["expected"], check["unit"]) == ("latency", 1, 3, "ms")
    assert check["measured"] == pytest.approx(latency_ms, abs=1e-3)
    # The quick job read a 16 MiB file through the page cache: on an idle machine far faster than an
    # efficiency disk's 1 ms ("above", a cache answered); a busy machine can slow it into the class's
    # range. The verdict and the advice must follow what was measured, whichever it was.
    if latency_ms < 1 * LATENCY_CACHE:
        verdict = "above"
    elif latency_ms > 3 * LATENCY_SLOWER:
        verdict = "below"
    else:
        verdict = "meets"
    assert check["verdict"] == verdict, latency_ms
    codes = {f["code"] for f in result["findings"]}
    assert {"direct_off", "short_run"} <= codes
    assert ("above_spec" in codes) == (verdict == "above")
    assert (
        client.get(f"/api/v1/results?target_id={target.id}", headers=owner.headers).json()["items"][0][
            "findings"
        ]
        == result["findings"]
    )
