"""Synchronized runs on three hosts: barrier, common start, aggregate, faults and cancel.

The three hosts are three storbench-worker processes on this machine talking to the API over
loopback (127.0.0.1); they share one scratch directory as hosts share a NAS mount.
"""

import os
import signal
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.support.postgres import fresh_database
from tests.support.stack import Stack, fio_working_in, running_stack

BROKER_URL = os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/11"
HOSTS = ("client-a", "client-b", "client-c")
JOB = {
    "name": "shared-randread",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 3,
    "time_based": True,
    "ioengine": "psync",
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    warnings.warn(
        "multi-host tests run three workers as separate processes over loopback, not in network namespaces",
        stacklevel=1,
    )
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("cluster")
    shared = workdir / "shared-mount"
    shared.mkdir()
    with (
        running_stack(fresh_database("storbench_multi"), BROKER_URL, workdir) as stack,
        stack.client() as api,
    ):
        hosts = {}
        for name in HOSTS:
            created = api.post("/hosts", json={"name": name}).json()
            hosts[name] = {
                **created,
                "process": stack.start_worker(created["worker_token"], name, allow=shared),
            }

        def all_ready() -> bool:
            listed = api.get("/hosts").json()["items"]
            return all(h["status"] == "online" and "clock_offset_ms" in h["facts"] for h in listed)

        stack.wait_for(all_ready, 60, "three workers online with a measured clock offset")
        target = api.post(
            "/targets",
            json={
                "name": "shared nas",
                "host_id": hosts["client-a"]["id"],
                "path": str(shared),
                "kind": "directory",
            },
        ).json()
        yield {"stack": stack, "hosts": hosts, "target": target, "shared": shared}


def _start(api: Any, cluster: dict[str, Any], job: dict[str, Any], **extra: Any) -> dict[str, Any]:
    others = [cluster["hosts"][n]["id"] for n in HOSTS[1:]]
    response = api.post(
        "/runs", json={"target_id": cluster["target"]["id"], "jobs": [job], "host_ids": others, **extra}
    )
    assert response.status_code == 201, response.text
    run: dict[str, Any] = response.json()
    return run


def _wait_terminal(stack: Stack, api: Any, run_id: int, timeout_s: float = 90) -> dict[str, Any]:
    def terminal() -> dict[str, Any] | None:
        run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
        return run if run["status"] in ("completed", "failed", "cancelled") else None

    result: dict[str, Any] = stack.wait_for(terminal, timeout_s, f"run {run_id} to end")
    return result


def _fio_in(path: Path, run_id: int | None = None) -> list[str]:
    """fio processes working in path (only those of one run when run_id is given)."""
    return fio_working_in(path, f"storbench-run{run_id}-" if run_id is not None else "")


def test_three_hosts_start_together_and_report_one_aggregate(cluster: dict[str, Any]) -> None:
    stack: Stack = cluster["stack"]
    with stack.client() as api:
        run = _start(api, cluster, JOB)
        assert sorted(a["host"]["name"] for a in run["assignments"]) == sorted(HOSTS)
        done = _wait_terminal(stack, api, run["id"])
    assert done["status"] == "completed", done["error"]
    assert done["start_at"] is not None
    assert sorted(r["host_name"] for r in done["results"]) == sorted(HOSTS)
    assert all(a["fio_started_at"] is not None for a in done["assignments"])
    aggregate = done["aggregate"]
    assert aggregate["hosts"] == 3
    assert aggregate["start_skew_ms"] is not None and aggregate["start_skew_ms"] >= 0
    assert 0 < aggregate["window_s"] <= 3.5
    read = aggregate["directions"]["read"]
    per_host = sum(r["directions"]["read"]["iops"] for r in done["results"])
    assert read["iops"] == pytest.approx(per_host, rel=0.35)
    assert read["clat_samples"] == sum(r["directions"]["read"]["total_ios"] for r in done["results"])
    p = read["clat_percentiles_ns"]
    assert p["50"] <= p["99"] <= p["99.99"]
    assert not list(cluster["shared"].iterdir()), "hosts left files on the shared mount"


def test_hosts_asked_to_share_files_measure_one_set_and_the_last_one_removes_it(
    cluster: dict[str, Any],
) -> None:
    stack: Stack = cluster["stack"]
    shared: Path = cluster["shared"]
    job = {**JOB, "name": "one-set", "numjobs": 2, "runtime": 4}
    with stack.client() as api:
        run = _start(api, cluster, job, shared_files=True)
        assert run["shared_files"] is True
        one_set_prefix = f"storbench-run{run['id']}-shared-"

        def all_three_measuring() -> list[str] | None:
            running = _fio_in(shared, run["id"])
            return running if len(running) >= 3 else None

        running = stack.wait_for(all_three_measuring, 30, "fio measuring on all three hosts")
        # Every host's fio works in the one directory, on the same files: one per job, not per host.
        (one_set,) = shared.iterdir()
        assert one_set.name.startswith(one_set_prefix)
        assert all(f" {one_set} " in line for line in running)
        assert sorted(p.name for p in one_set.iterdir()) == ["one-set.0.0", "one-set.1.0"]
        done = _wait_terminal(stack, api, run["id"])
    assert done["status"] == "completed", done["error"]
    assert sorted(r["host_name"] for r in done["results"]) == sorted(HOSTS * 2)
    stack.wait_for(lambda: not one_set.exists(), 15, "the last host to finish to remove the shared files")


def test_one_host_dying_mid_run_fails_the_run_naming_it_and_keeps_the_others(cluster: dict[str, Any]) -> None:
    stack: Stack = cluster["stack"]
    victim = cluster["hosts"]["client-c"]
    with stack.client() as api:
        run = _start(api, cluster, {**JOB, "name": "victim-run", "runtime": 6})
        stack.wait_for(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "running", 30, "running")
        os.killpg(victim["process"].pid, signal.SIGKILL)
        victim["process"].wait()
        done = _wait_terminal(stack, api, run["id"])
        assert done["status"] == "failed"
        assert "client-c" in done["error"] and "lost contact" in done["error"]
        assert sorted(r["host_name"] for r in done["results"]) == ["client-a", "client-b"]
        # fio's job processes (each in a session of its own) must not outlive the killed worker.
        stack.wait_for(lambda: not _fio_in(cluster["shared"], run["id"]), 30, "the dead worker's fio to stop")
        # Bring the host back for the tests after this one.
        victim["process"] = stack.start_worker(victim["worker_token"], "client-c", allow=cluster["shared"])
        stack.wait_for(
            lambda: api.get(f"/hosts/{victim['id']}").json()["status"] == "online", 60, "back online"
        )


def test_cancel_stops_fio_on_every_host(cluster: dict[str, Any]) -> None:
    stack: Stack = cluster["stack"]
    with stack.client() as api:
        run = _start(api, cluster, {**JOB, "name": "cancelled-run", "runtime": 60})

        def measuring_everywhere() -> bool:
            # Every host has shown a second of figures: there is something to keep when cancelled.
            hosts = api.get(f"/runs/{run['id']}/progress").json()["hosts"]
            return (
                all(h["status"] == "running" and h["samples"] for h in hosts)
                and len(_fio_in(cluster["shared"], run["id"])) >= 3
            )

        stack.wait_for(measuring_everywhere, 30, "fio measuring on all three hosts")
        assert api.post(f"/runs/{run['id']}/cancel").json()["status"] == "cancelled"
        stack.wait_for(lambda: not _fio_in(cluster["shared"], run["id"]), 15, "fio to stop on every host")
        stack.wait_for(lambda: not list(cluster["shared"].iterdir()), 15, "scratch files removed")

        def partial_from_all() -> list[dict[str, Any]] | None:
            results: list[dict[str, Any]] = api.get(f"/runs/{run['id']}").json()["results"]
            return results if len(results) == 3 else None

        kept = stack.wait_for(partial_from_all, 30, "partial results from the three hosts")
        assert all(r["partial"] for r in kept)


def test_hosts_chosen_by_label_run_together(cluster: dict[str, Any]) -> None:
    stack: Stack = cluster["stack"]
    with stack.client() as api:
        api.patch(f"/hosts/{cluster['hosts']['client-b']['id']}", json={"labels": ["rack4"]})
        api.patch(f"/hosts/{cluster['hosts']['client-c']['id']}", json={"labels": ["rack4"]})
        by_label = api.post(
            "/runs", json={"target_id": cluster["target"]["id"], "jobs": [JOB], "host_label": "rack4"}
        )
        assert by_label.status_code == 201
        assert len(by_label.json()["assignments"]) == 3
        done = _wait_terminal(stack, api, by_label.json()["id"])
        assert done["status"] == "completed", done["error"]
        assert sorted(r["host_name"] for r in done["results"]) == sorted(HOSTS)
