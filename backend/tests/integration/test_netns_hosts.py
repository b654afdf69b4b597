"""Three target hosts, each in its own Linux network namespace with its own address on a veth bridge,
talking to the API and Redis across it: a synchronized run, and a host whose link is cut mid-run.

Where namespaces cannot be made (not root, no iproute2), the hosts fall back to worker processes on
loopback and the link cut becomes a frozen worker (SIGSTOP); the test output says which was used.
"""

import os
import signal
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.netns import Network, ip, make_network
from tests.support.postgres import fresh_database
from tests.support.redis_server import PrivateRedis
from tests.support.stack import Stack, running_stack

SUBNET = "10.231.77"
JOB = {
    "name": "ns-read",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 3,
    "time_based": True,
    "ioengine": "psync",
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    workdir = tmp_path_factory.mktemp("netns")
    network = make_network(3, SUBNET, "sb")
    bind = f"{SUBNET}.1" if network else "127.0.0.1"
    warnings.warn(
        "hosts run in their own network namespaces on a veth bridge"
        if network
        else "network namespaces unavailable: hosts are worker processes on loopback, link cut = SIGSTOP",
        stacklevel=1,
    )
    broker = PrivateRedis(workdir, bind=bind)
    shared = workdir / "shared"
    shared.mkdir()
    try:
        broker.start()
        with running_stack(fresh_database("storbench_netns"), broker.url, workdir, bind=bind) as stack:
            with stack.client() as api:
                hosts = []
                for index in range(1, 4):
                    created = api.post("/hosts", json={"name": f"ns-host-{index}"}).json()
                    prefix = network.prefix(index - 1) if network else ()
                    process = stack.start_worker(
                        created["worker_token"], created["name"], allow=shared, prefix=prefix
                    )
                    hosts.append({**created, "process": process})

                def online() -> bool:
                    items = api.get("/hosts").json()["items"]
                    return all(h["status"] == "online" and "clock_offset_ms" in h["facts"] for h in items)

                stack.wait_for(online, 60, "three hosts online across the bridge")
                target = api.post(
                    "/targets",
                    json={
                        "name": "bridge nas",
                        "host_id": hosts[0]["id"],
                        "path": str(shared),
                        "kind": "directory",
                    },
                ).json()
            yield {"stack": stack, "hosts": hosts, "target": target, "network": network}
    finally:
        broker.stop()
        if network:
            network.remove()


def _run(api: Any, cluster: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    others = [h["id"] for h in cluster["hosts"][1:]]
    response = api.post(
        "/runs", json={"target_id": cluster["target"]["id"], "jobs": [job], "host_ids": others}
    )
    assert response.status_code == 201, response.text
    run: dict[str, Any] = response.json()
    return run


def _terminal(stack: Stack, api: Any, run_id: int) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        run: dict[str, Any] = api.get(f"/runs/{run_id}").json()
        return run if run["status"] in ("completed", "failed", "cancelled") else None

    result: dict[str, Any] = stack.wait_for(done, 90, f"run {run_id} to end")
    return result


def test_hosts_across_the_bridge_run_one_synchronized_measurement(cluster: dict[str, Any]) -> None:
    stack: Stack = cluster["stack"]
    with stack.client() as api:
        done = _terminal(stack, api, _run(api, cluster, JOB)["id"])
    assert done["status"] == "completed", done["error"]
    assert sorted(r["host_name"] for r in done["results"]) == ["ns-host-1", "ns-host-2", "ns-host-3"]
    assert done["aggregate"]["hosts"] == 3
    assert done["aggregate"]["directions"]["read"]["iops"] > 0


def test_a_host_whose_link_is_cut_mid_run_is_reported_and_the_others_are_kept(
    cluster: dict[str, Any],
) -> None:
    stack: Stack = cluster["stack"]
    network: Network | None = cluster["network"]
    victim = cluster["hosts"][2]
    with stack.client() as api:
        run = _run(api, cluster, {**JOB, "name": "cut-link", "runtime": 8})
        stack.wait_for(
            lambda: all(
                a["status"] == "running" for a in api.get(f"/runs/{run['id']}").json()["assignments"]
            ),
            30,
            "all hosts measuring",
        )
        if network:
            ip("link", "set", network.bridge_ends[2], "down")
        else:
            os.kill(victim["process"].pid, signal.SIGSTOP)
        try:
            done = _terminal(stack, api, run["id"])
        finally:
            if network:
                ip("link", "set", network.bridge_ends[2], "up")
            else:
                os.kill(victim["process"].pid, signal.SIGCONT)
        assert done["status"] == "failed"
        assert "ns-host-3" in done["error"] and "lost contact" in done["error"]
        kept = sorted(r["host_name"] for r in done["results"])
        assert kept[:2] == ["ns-host-1", "ns-host-2"]
        # Once the link is back, the host's measurement arrives too, exactly once.
        stack.wait_for(
            lambda: len(api.get(f"/runs/{run['id']}").json()["results"]) == 3,
            60,
            "the cut host's result to arrive",
        )
        assert api.get(f"/runs/{run['id']}").json()["status"] == "failed"
