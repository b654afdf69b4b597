"""Sweeps on real parts: a real worker runs a QD sweep with fio; its curve and knee; a cancelled sweep."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tests.support.postgres import fresh_database
from tests.support.stack import Stack, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_IT", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/13"
)
# libaio without direct I/O completes at submission on most file systems: the queue never fills, so
# the test asserts the curve's shape and that its knee is read, not a device's figures.
JOB = {
    "name": "randread",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 1,
    "time_based": True,
    "ioengine": "libaio",
}
QDS = [1, 2, 4, 8, 16, 32]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("stack")
    database = f"{os.environ.get('STORBENCH_TEST_DB', 'storbench_test')}_sweeps"
    # Liveness is not what these tests watch: a machine shared by many test runs may delay heartbeats.
    quiet = {"STORBENCH_MISSED_HEARTBEATS_OFFLINE": "60"}
    with running_stack(fresh_database(database), BROKER_URL, workdir, settings=quiet) as running:
        yield running


@pytest.fixture(scope="module")
def target(stack: Stack) -> dict[str, Any]:
    scratch = stack.workdir / "scratch"
    scratch.mkdir()
    with stack.client() as api:
        host = api.post("/hosts", json={"name": "sweep-host"}).json()
        stack.start_worker(host["worker_token"], "sweep-host", allow=scratch)
        stack.wait_for(lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "the worker")
        made: dict[str, Any] = api.post(
            "/targets",
            json={"name": "sweep-scratch", "host_id": host["id"], "path": str(scratch), "kind": "directory"},
        ).json()
    return made


def _start(stack: Stack, api: Any, target: dict[str, Any], body: dict[str, Any]) -> int:
    """Start the run once the host is online (a loaded machine may delay a heartbeat past its limit)."""
    host_id = target["host_id"]
    stack.wait_for(lambda: api.get(f"/hosts/{host_id}").json()["status"] == "online", 60, "the worker")
    started = api.post("/runs", json={"target_id": target["id"], **body})
    assert started.status_code == 201, started.text
    run_id: int = started.json()["id"]
    return run_id


def _finished(api: Any, run_id: int) -> dict[str, Any] | None:
    run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
    return run if run["status"] in ("completed", "failed", "cancelled") else None


def test_a_qd_sweep_from_1_to_32_gives_a_curve_of_six_points_and_reads_its_knee(
    stack: Stack, target: dict[str, Any]
) -> None:
    with stack.client() as api:
        sweep = [{"option": "iodepth", "from": 1, "to": 32, "factor": 2}]
        run_id = _start(stack, api, target, {"jobs": [JOB], "sweep": sweep})
        done: dict[str, Any] = stack.wait_for(lambda: _finished(api, run_id), 180, "the sweep to finish")
        assert done["status"] == "completed", (done["error"], done["assignments"])
        assert [p["values"]["iodepth"] for p in done["sweep"]["points"]] == QDS
        assert all(p["status"] == "measured" and len(p["result_ids"]) == 1 for p in done["sweep"]["points"])
        # Each result carries its point's options as planned (without the stonewall between points).
        assert sorted(int(r["options"]["iodepth"]) for r in done["results"]) == QDS
        assert all("stonewall" not in r["options"] for r in done["results"])
        curves = api.get("/curves", params={"run_ids": str(run_id), "axis": "iodepth", "figure": "iops"})
        assert curves.status_code == 200, curves.text
    [curve] = curves.json()["curves"]
    assert curves.json()["direction"] == "read"
    assert [p["value"] for p in curve["points"]] == QDS
    assert all(p["median"] > 0 and p["n"] == 1 and p["lat_mean_ns"] > 0 for p in curve["points"])
    if curve["knee"] is None:
        assert curve["knee_reason"].startswith("no knee between 1 and 32")
    else:
        assert curve["knee"]["value"] in QDS[:-1]


def test_a_sweep_of_six_points_by_three_cancelled_midway_keeps_its_finished_points(
    stack: Stack, target: dict[str, Any]
) -> None:
    job = {**JOB, "runtime": 2}
    with stack.client() as api:
        sweep = [{"option": "iodepth", "values": QDS}]
        run_id = _start(stack, api, target, {"jobs": [job], "repetitions": 3, "sweep": sweep})

        def two_points_measured() -> bool:
            progress = api.get(f"/runs/{run_id}/progress").json()
            # A sample per second of fio; points run one after the other, 3 × 2 s each: after 14
            # samples the first two are whole (a loaded machine only delays samples, never adds them).
            return sum(len(h["samples"]) for h in progress["hosts"]) >= 14

        stack.wait_for(two_points_measured, 120, "two points to be measured")
        assert api.post(f"/runs/{run_id}/cancel").status_code == 200

        def results_kept() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["results"] else None

        done: dict[str, Any] = stack.wait_for(results_kept, 120, "the partial output to be stored")
    assert done["status"] == "cancelled"
    points = done["sweep"]["points"]
    measured = [p for p in points if p["status"] == "measured"]
    assert len(measured) >= 2 and measured == points[: len(measured)]
    assert all(len(p["result_ids"]) == 3 for p in measured)
    assert points[-1]["status"] == "pending"
    assert done["sweep"]["measured_points"] == len(measured)


def test_a_sweep_whose_latency_crosses_its_bound_stops_early_and_keeps_what_it_measured(
    stack: Stack, target: dict[str, Any]
) -> None:
    # Every second is slower than 1 ns: the bound is crossed from the first point on.
    body = {
        "jobs": [{**JOB, "runtime": 2}],
        "sweep": [{"option": "iodepth", "from": 1, "to": 256, "factor": 2}],
        "sweep_stop": {"above_ns": 1},
    }
    with stack.client() as api:
        run_id = _start(stack, api, target, body)

        def results_kept() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] == "cancelled" and run["results"] else None

        done: dict[str, Any] = stack.wait_for(results_kept, 120, "the sweep to stop with its results")
    assert done["error"].startswith("stopped early by the sweep's bound: mean read latency")
    statuses = [p["status"] for p in done["sweep"]["points"]]
    assert statuses[-1] == "pending", statuses
    assert statuses.count("pending") >= 5


def test_a_sweep_whose_p99_crosses_its_bound_stops_early_saying_what_it_read(
    stack: Stack, target: dict[str, Any]
) -> None:
    body = {
        "jobs": [{**JOB, "runtime": 2}],
        "sweep": [{"option": "iodepth", "from": 1, "to": 256, "factor": 2}],
        "sweep_stop": {"figure": "clat_p99_ns", "above_ns": 1},
    }
    with stack.client() as api:
        run_id = _start(stack, api, target, body)

        def results_kept() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] == "cancelled" and run["results"] else None

        done: dict[str, Any] = stack.wait_for(results_kept, 120, "the sweep to stop with its results")
    assert done["error"].startswith("stopped early by the sweep's bound: p99 (of the point so far) read")
    assert done["sweep"]["stop"]["figure"] == "clat_p99_ns"
    assert [p["status"] for p in done["sweep"]["points"]].count("pending") >= 5


def test_a_preconditioned_run_fills_first_keeps_only_the_workload_and_judges_its_steady_state(
    stack: Stack, target: dict[str, Any]
) -> None:
    job = {**JOB, "runtime": 6, "iodepth": 4}
    with stack.client() as api:
        run_id = _start(stack, api, target, {"jobs": [job], "precondition": True})
        done: dict[str, Any] = stack.wait_for(lambda: _finished(api, run_id), 180, "the run to finish")
    assert done["status"] == "completed", (done["error"], done["assignments"])
    assert done["precondition"] is True
    # The fill wrote the file twice over, but only the measured job is a result.
    [result] = done["results"]
    assert result["job_name"] == "randread" and set(result["directions"]) == {"read"}
    assert "description" not in result["options"] or "preconditioning" not in result["options"]["description"]
    verdict = result["steady_state"]["read"]
    assert verdict["basis"] == "per_second" and verdict["rounds"] >= 5
    codes = {f["code"] for f in result["findings"]}
    if verdict["status"] == "not_steady":
        assert "not_steady" in codes and verdict["range_share"] is not None
    else:
        assert verdict["status"] == "steady" and "not_steady" not in codes
        assert ("steady_late" in codes) == (verdict["reached_at"] > 1)
