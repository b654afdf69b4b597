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


def test_where_a_vendor_ran_fio_becomes_advice_and_the_plan_runs_on_a_target(
    client: TestClient, owner: Caller
) -> None:
    # A guide's command names its mount and a file on it; kept, every run would refuse them.
    text = (
        "fio --name=nas --rw=randread --bs=4k --size=1G --runtime=60 --directory=/mnt/nas\n"
        "fio --name=shared --rw=randread --bs=4k --size=1G --runtime=60 --filename=/mnt/nas/fio.dat"
    )
    response = client.post("/api/v1/fio/validate", json={"text": text.splitlines()[0]}, headers=owner.headers)
    assert response.status_code == 200, response.text
    (job,) = response.json()["jobs"]
    assert "directory" not in job or job["directory"] is None
    (notice,) = [n for n in response.json()["notices"] if n["option"] == "directory"]
    assert notice["value"] == "/mnt/nas" and "target at /mnt/nas" in notice["message"]

    response = client.post("/api/v1/fio/validate", json={"text": text.splitlines()[1]}, headers=owner.headers)
    assert response.status_code == 200, response.text
    (job,) = response.json()["jobs"]
    assert job["filename"] == "fio.dat"  # jobs that shared one file still share one
    plan = client.post("/api/v1/plans", json={"name": "from a guide", "jobs": [job]}, headers=owner.headers)
    assert plan.status_code == 201, plan.text


def test_a_plan_that_names_a_place_on_a_host_is_refused_when_saved(client: TestClient, owner: Caller) -> None:
    for option, value in (("directory", "/mnt/nas"), ("filename", "/etc/passwd"), ("directory", "../up")):
        job = {"name": "j", "rw": "randread", "bs": "4k", "size": "1G", "runtime": 10, option: value}
        body = {"name": f"p {value}", "jobs": [job]}
        response = client.post("/api/v1/plans", json=body, headers=owner.headers)
        assert response.status_code == 422, response.text
        (error,) = response.json()["errors"]
        assert (error["option"], error["value"], error["field"]) == (option, value, f"jobs.0.{option}")
    # A block device's own node stays allowed: the run checks it is the target's device.
    job = {"name": "j", "rw": "randread", "bs": "4k", "runtime": 10, "filename": "/dev/nvme0n1"}
    response = client.post("/api/v1/plans", json={"name": "dev", "jobs": [job]}, headers=owner.headers)
    assert response.status_code == 201, response.text


def test_what_storbench_changes_in_a_paste_is_said_as_notices(client: TestClient, owner: Caller) -> None:
    # A size-bound job with a named log and no runtime: fine for fio, framed by storbench.
    text = "[global]\nwrite_bw_log=mylog\nthinktime=10ms\n[seq]\nrw=write\nbs=1m\nsize=1g\n"
    response = client.post("/api/v1/fio/validate", json={"text": text}, headers=owner.headers)
    assert response.status_code == 200, response.text
    (job,) = response.json()["jobs"]
    assert (job["runtime"], job["thinktime"], job["write_bw_log"]) == (600, "10ms", "")
    messages = {n["option"]: n["message"] for n in response.json()["notices"]}
    assert messages["runtime"] == (
        "runtime=600 added as a safety cap: the job ends when its size is done or after 10 min"
    )
    assert "storbench names the log files" in messages["write_bw_log"]
