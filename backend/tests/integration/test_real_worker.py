"""The whole path on real parts: API process, Celery worker process, Redis, PostgreSQL, fio."""

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.support.postgres import fresh_database
from tests.support.stack import Stack, fio_working_in, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_IT", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/14"
)
QUICK_JOB = {
    "name": "randread-4k",
    "rw": "randread",
    "bs": "4k",
    "size": "16m",
    "runtime": 1,
    "time_based": True,
    "ioengine": "psync",
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("stack")
    with running_stack(fresh_database("storbench_it"), BROKER_URL, workdir) as running:
        yield running


@pytest.fixture(scope="module")
def host(stack: Stack) -> dict[str, Any]:
    """A registered host with a running worker allowed to use a scratch directory."""
    scratch = stack.workdir / "scratch"
    scratch.mkdir()
    with stack.client() as api:
        created = api.post("/hosts", json={"name": "it-host"}).json()
        stack.start_worker(created["worker_token"], "it-host", allow=scratch)
        stack.wait_for(
            lambda: api.get(f"/hosts/{created['id']}").json()["status"] == "online",
            60,
            "the worker to come online",
        )
        target = api.post(
            "/targets",
            json={"name": "it-scratch", "host_id": created["id"], "path": str(scratch), "kind": "directory"},
        ).json()
    return {"host": created, "target": target, "scratch": scratch}


def _wait_terminal(stack: Stack, run_id: int, timeout_s: float = 90) -> dict[str, Any]:
    with stack.client() as api:

        def terminal() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] in ("completed", "failed", "cancelled") else None

        result: dict[str, Any] = stack.wait_for(terminal, timeout_s, f"run {run_id} to finish")
        return result


def test_a_run_measured_by_a_real_worker_lands_in_the_database(stack: Stack, host: dict[str, Any]) -> None:
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [QUICK_JOB]}).json()
    done = _wait_terminal(stack, run["id"])
    assert done["status"] == "completed", done
    (result,) = done["results"]
    read = result["directions"]["read"]
    assert read["iops"] > 0 and read["bw_bytes"] > 0 and read["io_bytes"] > 0
    assert read["bw_bytes"] == pytest.approx(read["iops"] * 4096, rel=0.02)
    assert 900 <= read["runtime_ms"] <= 3000
    assert read["lat_ns"]["min_ns"] <= read["lat_ns"]["mean_ns"] <= read["lat_ns"]["max_ns"]
    assert result["cpu"]["usr_pct"] >= 0 and result["cpu"]["sys_pct"] >= 0
    assert result["host_name"] == "it-host"
    assert result["fio_version"].startswith("fio-")
    # The worker measured how much CPU it took from the host while fio ran, and said so.
    (assignment,) = done["assignments"]
    assert assignment["worker_cpu_percent"] is not None and 0 <= assignment["worker_cpu_percent"] < 100
    assert not list(host["scratch"].iterdir()), "the worker left scratch files behind"


def test_a_target_path_missing_on_the_host_fails_the_run_with_the_reason(
    stack: Stack, host: dict[str, Any]
) -> None:
    missing = host["scratch"] / "not-there"
    with stack.client() as api:
        target = api.post(
            "/targets",
            json={
                "name": "missing-dir",
                "host_id": host["host"]["id"],
                "path": str(missing),
                "kind": "directory",
            },
        ).json()
        run = api.post("/runs", json={"target_id": target["id"], "jobs": [QUICK_JOB]}).json()
    done = _wait_terminal(stack, run["id"])
    assert done["status"] == "failed"
    assert "does not exist" in done["error"] and str(missing) in done["error"]


def test_a_path_outside_the_hosts_allowed_roots_is_refused_naming_the_roots(
    stack: Stack, host: dict[str, Any], tmp_path: Path
) -> None:
    with stack.client() as api:
        refused = api.post(
            "/targets",
            json={"name": "elsewhere", "host_id": host["host"]["id"], "path": str(tmp_path)},
        )
    assert refused.status_code == 422
    assert "outside the paths" in refused.json()["message"]
    assert str(host["scratch"]) in refused.json()["message"]


def _fio_processes_in(path: Path) -> list[str]:
    return fio_working_in(path)


def test_cancel_stops_fio_keeps_what_was_measured_and_cleans_up(stack: Stack, host: dict[str, Any]) -> None:
    long_job = {**QUICK_JOB, "name": "long-read", "runtime": 60}
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [long_job]}).json()
        stack.wait_for(lambda: _fio_processes_in(host["scratch"]), 30, "fio to start")
        # Cancelled after a first second was measured (and shown), as a user watching would.
        stack.wait_for(
            lambda: any(h["samples"] for h in api.get(f"/runs/{run['id']}/progress").json()["hosts"]),
            15,
            "a first progress sample",
        )
        assert api.post(f"/runs/{run['id']}/cancel").json()["status"] == "cancelled"
    stack.wait_for(lambda: not _fio_processes_in(host["scratch"]), 15, "fio to stop after cancel")
    stack.wait_for(lambda: not list(host["scratch"].iterdir()), 10, "scratch files to be removed")

    def partial_results() -> list[dict[str, Any]]:
        with stack.client() as api:
            results: list[dict[str, Any]] = api.get(f"/runs/{run['id']}").json()["results"]
            return results

    kept = stack.wait_for(partial_results, 30, "partial results to be uploaded")
    assert kept[0]["partial"] is True
    assert kept[0]["directions"]["read"]["runtime_ms"] < 60_000


def test_a_worker_that_stops_is_noticed_and_new_runs_are_refused(stack: Stack, tmp_path: Path) -> None:
    with stack.client() as api:
        created = api.post("/hosts", json={"name": "short-lived"}).json()
        worker = stack.start_worker(created["worker_token"], "short-lived", allow=tmp_path)
        stack.wait_for(lambda: api.get(f"/hosts/{created['id']}").json()["status"] == "online", 60, "online")
        target = api.post(
            "/targets",
            json={"name": "short", "host_id": created["id"], "path": str(tmp_path), "kind": "directory"},
        ).json()
        stack.stop_worker(worker)
        stack.wait_for(
            lambda: api.get(f"/hosts/{created['id']}").json()["status"] == "offline", 30, "offline"
        )
        refused = api.post("/runs", json={"target_id": target["id"], "jobs": [QUICK_JOB]})
    assert refused.status_code == 409
    assert "offline" in refused.json()["message"]


def test_a_host_enrolls_itself_with_an_enrollment_token_and_keeps_its_credential(
    stack: Stack, tmp_path: Path
) -> None:
    with stack.client() as api:
        enrollment = api.post("/enrollment-tokens", json={"uses": 1}).json()["token"]
        worker = stack.start_worker(enrollment, "enrolled-host", allow=tmp_path)
        host = stack.wait_for(
            lambda: next(
                (
                    h
                    for h in api.get("/hosts").json()["items"]
                    if h["name"] == "enrolled-host" and h["status"] == "online"
                ),
                None,
            ),
            60,
            "the enrolled host to come online",
        )
        assert host["facts"]["cpu_count"] >= 1
        stack.stop_worker(worker)
        stack.wait_for(lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "offline", 30, "offline")
        # The enrollment token is used up; the saved credential is what lets the worker back in.
        stack.start_worker(enrollment, "enrolled-host", allow=tmp_path)
        stack.wait_for(
            lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "the host to return"
        )


def test_progress_streams_live_while_fio_runs_and_is_kept_with_the_result(
    stack: Stack, host: dict[str, Any]
) -> None:
    job = {**QUICK_JOB, "name": "progress-read", "runtime": 4}
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [job]}).json()
        events: list[tuple[str, dict[str, Any]]] = []
        with api.stream("GET", f"/runs/{run['id']}/events", timeout=60) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            name = ""
            for line in response.iter_lines():
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    events.append((name, json.loads(line.removeprefix("data: "))))
        statuses = [data["status"] for kind, data in events if kind == "status"]
        assert statuses[-1] == "completed"
        assert "running" in statuses
        progress = [data for kind, data in events if kind == "progress"]
        # Progress arrived before the run completed, one sample per second of fio's status reports.
        completed_at = next(i for i, (kind, data) in enumerate(events) if data.get("status") == "completed")
        assert len([e for e in events[:completed_at] if e[0] == "progress"]) >= 2
        assert all(p["directions"]["read"]["iops"] > 0 for p in progress)
        assert all(p["host_name"] == "it-host" for p in progress)
        assert progress[-1]["percent"] >= progress[0]["percent"]
        stored = api.get(f"/runs/{run['id']}/progress").json()
        assert len(stored["hosts"][0]["samples"]) == len(progress)
        final = api.get(f"/runs/{run['id']}").json()["results"][0]["directions"]["read"]
        mean_of_seconds = sum(p["directions"]["read"]["iops"] for p in progress) / len(progress)
        assert mean_of_seconds == pytest.approx(final["iops"], rel=0.25)


def test_a_buffered_read_of_a_small_file_is_flagged_by_the_advisor_and_judged_by_the_class(
    stack: Stack, host: dict[str, Any]
) -> None:
    with stack.client() as api:
        # A class whose latency line (5-10 ms) the page cache beats even on a loaded machine, where a
        # 4 KiB cached read can wait for a core longer than an SSD's 0.5 ms.
        basic = next(
            c for c in api.get("/storage-classes").json()["items"] if c["name"] == "Basic cloud disk"
        )
        changed = api.patch(
            f"/targets/{host['target']['id']}", json={"storage_class_id": basic["id"], "capacity_gib": 800}
        )
        assert changed.status_code == 200, changed.text
        buffered = {**QUICK_JOB, "direct": False}
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [buffered]}).json()
        try:
            done = _wait_terminal(stack, run["id"])
        finally:
            api.patch(
                f"/targets/{host['target']['id']}", json={"storage_class_id": None, "capacity_gib": None}
            )
    assert done["status"] == "completed", done
    (result,) = done["results"]
    findings = {f["code"]: f for f in result["findings"]}
    # fio really ran buffered on a 16 MiB file, far below this host's memory (the worker reported it).
    assert findings["direct_off"]["severity"] == "warning"
    assert findings["cached_read_file"]["severity"] == "warning"
    assert "short_run" in findings  # a one-second run
    assert "fio_error" not in findings
    # One 4 KiB read in flight measures latency: judged against the class's 5-10 ms, and the page
    # cache answered far faster.
    (check,) = result["spec_checks"]
    assert (check["metric"], check["expected"], check["verdict"]) == ("latency", 10, "above")
    assert "above_spec" in findings
    assert result["storage_class_spec_id"] == basic["spec"]["id"]
