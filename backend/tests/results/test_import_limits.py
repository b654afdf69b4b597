"""An import's strings are held to their columns: a cut label with a notice, or a 422 naming the field."""

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Caller
from tests.support.fio import quick_randread


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-json"))


def _import(client: TestClient, caller: Caller, content: str, name: str = "out.json") -> Any:
    files = {"file": (name, content.encode(), "application/octet-stream")}
    return client.post("/api/v1/results/import", files=files, headers=caller.headers)


def _stored(client: TestClient, caller: Caller) -> int:
    total: int = client.get("/api/v1/results", headers=caller.headers).json()["total"]
    return total


def test_a_file_name_too_long_for_a_label_is_cut_with_a_notice(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    name = "nightly-" + "x" * 987 + ".json"
    assert len(name) == 1000
    response = _import(client, owner, fio_json, name=name)
    assert response.status_code == 201, response.text
    body = response.json()
    [result] = body["results"]
    assert len(result["label"]) == 200 and result["label"].startswith("nightly-xxx")
    assert result["label"].endswith("…")
    [notice] = body["notices"]
    assert "label" in notice and "200" in notice and "1000" in notice
    assert _stored(client, owner) == 1


def _with(report: str, change: str) -> str:
    document = json.loads(report)
    job = document["jobs"][0]
    if change == "job_name":
        job["jobname"] = "j" * 5000
    elif change == "host_name":
        job["hostname"] = "h" * 300
    else:
        document["fio version"] = "fio-3." + "9" * 100
    return json.dumps(document)


@pytest.mark.parametrize(("field", "limit"), [("job_name", 120), ("host_name", 255), ("fio_version", 64)])
def test_a_report_string_too_long_for_its_column_is_refused_naming_it_and_nothing_is_kept(
    client: TestClient, owner: Caller, fio_json: str, tmp_path: Path, field: str, limit: int
) -> None:
    response = _import(client, owner, _with(fio_json, field))
    assert response.status_code == 422, response.text
    error = response.json()
    assert error["errors"][0]["field"] == field
    assert f"at most {limit}" in error["message"]
    assert _stored(client, owner) == 0
    # Nothing half-written: the original output is new to the team, not a duplicate of a kept part.
    again = _import(client, owner, fio_json)
    assert again.status_code == 201, again.text
    assert again.json()["duplicate"] is False
