"""Repetitions on real parts: a real worker runs the jobs three times in one fio invocation."""

import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tests.support.postgres import fresh_database
from tests.support.stack import Stack, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_IT", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/14"
)
JOBS = [
    {
        "name": "randread",
        "rw": "randread",
        "bs": "4k",
        "size": "8m",
        "runtime": 1,
        "time_based": True,
        "ioengine": "psync",
    },
    # Two clones reported one by one: two results per repetition, never mistaken for two repetitions.
    {
        "name": "seqread",
        "rw": "read",
        "bs": "64k",
        "size": "8m",
        "runtime": 1,
        "time_based": True,
        "ioengine": "psync",
        "numjobs": 2,
        "stonewall": True,
    },
]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("stack")
    database = f"{os.environ.get('STORBENCH_TEST_DB', 'storbench_test')}_repetitions"
    with running_stack(fresh_database(database), BROKER_URL, workdir) as running:
        yield running


def test_three_repetitions_give_three_results_per_job_numbered_0_1_2(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    scratch = stack.workdir / "scratch"
    scratch.mkdir()
    with stack.client() as api:
        host = api.post("/hosts", json={"name": "rep-host"}).json()
        stack.start_worker(host["worker_token"], "rep-host", allow=scratch)
        stack.wait_for(lambda: api.get(f"/hosts/{host['id']}").json()["status"] == "online", 60, "the worker")
        target = api.post(
            "/targets",
            json={"name": "rep-scratch", "host_id": host["id"], "path": str(scratch), "kind": "directory"},
        ).json()
        started = api.post("/runs", json={"target_id": target["id"], "jobs": JOBS, "repetitions": 3})
        assert started.status_code == 201, started.text
        run_id = started.json()["id"]
        assert started.json()["repetitions"] == 3
        # The run shows its jobs once, as planned.
        assert [j["name"] for j in started.json()["jobs"]] == ["randread", "seqread"]

        def finished() -> dict[str, Any] | None:
            run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return run if run["status"] in ("completed", "failed", "cancelled") else None

        done: dict[str, Any] = stack.wait_for(finished, 120, "the run to finish")
    assert done["status"] == "completed", done
    per_job = Counter((r["job_name"], r["repetition"]) for r in done["results"])
    assert per_job == {
        ("randread", 0): 1,
        ("randread", 1): 1,
        ("randread", 2): 1,
        ("seqread", 0): 2,
        ("seqread", 1): 2,
        ("seqread", 2): 2,
    }
    for result in done["results"]:
        assert next(iter(result["directions"].values()))["iops"] > 0
    # The stonewall added between repetitions is not part of the planned job's options.
    randread = [r for r in done["results"] if r["job_name"] == "randread"]
    assert all("stonewall" not in r["options"] for r in randread)
    assert not list(scratch.iterdir()), "the worker left scratch files behind"
