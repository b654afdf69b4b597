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


def test_a_vendor_guide_paste_validates_and_says_how_it_was_read(client: TestClient, owner: Caller) -> None:
    # As a user copies it from a guide: a shell prompt, a variable set first, an option name broken
    # across two lines by the page's layout.
    text = (
        "$ DEPTH=64\n"
        "$ fio -name=seqread -rw=read -bs=1024k -iodepth=$DEPTH -direct=1 -ioengine=libaio -run\n"
        "time=60 -size=1G -group_reporting\n"
    )
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 200, response.text
    (job,) = response.json()["jobs"]
    assert (job["iodepth"], job["runtime"], job["bs"]) == (64, 60, 1024 * 1024)
    notices = response.json()["notices"]
    assert {n["option"] for n in notices} >= {"runtime"}
    assert any("DEPTH" in n["message"] or n["value"] == "$DEPTH" for n in notices), notices
