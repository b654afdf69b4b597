"""Pasting fio job files and command lines."""

from fastapi.testclient import TestClient

from tests.conftest import Caller


def test_a_pasted_command_line_becomes_normalised_jobs(client: TestClient, owner: Caller) -> None:
    text = "fio --name=randread --rw=randread --bs=4k --iodepth=32 --direct=1 --ioengine=libaio --size=1G"
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 200, response.text
    (job,) = response.json()["jobs"]
    assert job["bs"] == 4096 and job["iodepth"] == 32 and job["size"] == 1024**3


def test_a_job_file_with_global_section_applies_it_to_each_job(client: TestClient, owner: Caller) -> None:
    text = "[global]\nioengine=libaio\ndirect=1\n\n[r]\nrw=randread\nbs=4k\n\n[w]\nrw=randwrite\nbs=4k\n"
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 200, response.text
    jobs = response.json()["jobs"]
    assert [j["name"] for j in jobs] == ["r", "w"]
    assert all(j["ioengine"] == "libaio" and j["direct"] is True for j in jobs)


def test_every_offending_option_is_listed(client: TestClient, owner: Caller) -> None:
    text = "fio --name=x --rw=randread --iodepth=-4 --bs=4q"
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert {"iodepth", "bs"} <= {e["option"] for e in errors}
    assert all({"option", "value", "reason"} <= set(e) for e in errors)


def test_validation_needs_a_signed_in_user(client: TestClient) -> None:
    assert client.post("/api/v1/fio/validate", json={"text": "fio --name=x"}).status_code == 401
