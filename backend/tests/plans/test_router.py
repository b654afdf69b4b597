"""Plans keep jobs fio would accept, normalised."""

from fastapi.testclient import TestClient

from tests.conftest import Caller


def test_a_plan_normalises_fio_units(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "randread", "bs": "4k", "size": "1G", "iodepth": 32, "direct": 1}
    response = client.post("/api/v1/plans", json={"name": "nas", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 201, response.text
    saved = response.json()["jobs"][0]
    assert saved["bs"] == 4096
    assert saved["size"] == 1024**3
    assert saved["direct"] is True
    assert client.get("/api/v1/plans", headers=owner.headers).json()["total"] == 1


def test_each_offending_option_is_reported(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "randread", "bs": "4k", "iodepth": -1, "numjobs": 100000}
    response = client.post("/api/v1/plans", json={"name": "bad", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 422
    options = {e["option"] for e in response.json()["errors"]}
    assert {"iodepth", "numjobs"} <= options
    assert all(e["reason"] for e in response.json()["errors"])


def test_an_unknown_rw_mode_names_the_option(client: TestClient, owner: Caller) -> None:
    job = {"name": "r", "rw": "sideways"}
    response = client.post("/api/v1/plans", json={"name": "bad", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["option"] == "rw"


def test_a_plan_without_jobs_is_refused(client: TestClient, owner: Caller) -> None:
    response = client.post("/api/v1/plans", json={"name": "empty", "jobs": []}, headers=owner.headers)
    assert response.status_code == 422


def test_preset_jobs_can_be_sent_back_and_null_options_mean_not_set(
    client: TestClient, owner: Caller
) -> None:
    presets = client.get("/api/v1/presets", headers=owner.headers).json()["items"]
    preset = next(p for p in presets if p["id"] == "randread-4k-iops")
    # A preset lists the options its recipe sets, not every option it leaves unset.
    assert all(value is not None for value in preset["jobs"][0].values())
    job = {**preset["jobs"][0], "ramp_time": None, "verify": None}
    response = client.post(
        "/api/v1/plans", json={"name": "from preset", "jobs": [job]}, headers=owner.headers
    )
    assert response.status_code == 201, response.text
    saved = response.json()["jobs"][0]
    assert saved["iodepth"] == preset["jobs"][0]["iodepth"]
    assert saved.get("ramp_time") is None and saved.get("verify") is None
