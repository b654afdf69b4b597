"""Start skew: storbench's synchronized runs against fio's own client/server mode, in one run.

Both are measured the same way: when each host's fio job processes issue their first I/O (the
kernel's trace of each job process's first pread64, see start_skew_trace.py), latest minus
earliest, per round; the figures are the median and the max over the rounds. storbench also
reports its own figure (the moment each worker let its jobs go, in the server's clock).

    sudo .venv/bin/python bench/start_skew.py [--rounds 7] [--ungated]
    sudo .venv/bin/python bench/start_skew.py --fleet [--hosts 20] [--rounds 7]

Without --fleet the hosts are worker processes (or `fio --server` processes) on loopback. With
--fleet each host is in a network namespace of its own on a veth bridge (the integration tests'
helpers), a real worker (or `fio --server`) reaching the API and the broker across the bridge. Every
host reads a small file of its own in a scratch directory the bench makes; the bench removes the
namespaces, bridge, scratch files, database tables' processes and trace instance it made, even on
failure. --ungated also measures storbench with its start gate unavailable (workers whose PATH has
no flock(1)): the start as it was before the gate. Needs root (ftrace, namespaces), PostgreSQL and
Redis (scripts/services.sh postgres redis).
"""

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import report
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "bench"))

from start_skew_trace import (  # noqa: E402
    IoStartTrace,
    descendants,
    fio_working_under,
    io_start_trace,
    job_processes,
    spread_s,
)

from tests.support.netns import Network, make_network  # noqa: E402
from tests.support.postgres import ADMIN_URL, fresh_database  # noqa: E402
from tests.support.redis_server import PrivateRedis  # noqa: E402
from tests.support.stack import Stack, free_port, running_stack  # noqa: E402

FLEET_SUBNET = "10.231.79"
DATABASE = "storbench_bench_skew"
# Heartbeats at the service's default period (10 s; the test stack's 1 s is for quick tests): one
# API answering 20 workers on a machine of two cores shared with other work may take seconds.
SETTINGS = {"STORBENCH_HEARTBEAT_INTERVAL": "10"}
# With 20 hosts the API answered /ready in 3.5 s (median; 7.6 s max) on this busy machine, so hosts
# heard of a start 1.5 s ahead (the default lead) seconds after it: 4.9-7.3 s spreads that measure
# the API, not the start. The fleet gets a lead longer than that.
FLEET_SETTINGS = {**SETTINGS, "STORBENCH_START_LEAD": "12"}
# A small file per host; a modest rate keeps 20 hosts on a couple of cores from starving each other
# (the first I/O, which is what is measured, is issued at once whatever the rate).
JOB = {
    "rw": "randread",
    "bs": "4k",
    "size": "4m",
    "runtime": 2,
    "time_based": True,
    "ioengine": "psync",
    "rate_iops": 500,
}


@dataclass
class Fleet:
    """Where the hosts run: their command prefixes and addresses, and what the API binds to."""

    hosts: int
    network: Network | None = None

    @property
    def bind(self) -> str:
        return self.network.bridge_address if self.network else "127.0.0.1"

    def prefix(self, index: int) -> tuple[str, ...]:
        return self.network.prefix(index) if self.network else ()

    def address(self, index: int) -> str:
        return f"{self.network.subnet}.{11 + index}" if self.network else "127.0.0.1"


@dataclass
class Figures:
    """One way of starting, over the rounds: spreads in seconds."""

    label: str
    spreads: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.spreads) * 1000

    @property
    def max_ms(self) -> float:
        return max(self.spreads) * 1000

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "median_ms": self.median_ms,
            "max_ms": self.max_ms,
            "rounds": self.spreads,
        }


@contextmanager
def fleet_of(hosts: int, in_namespaces: bool) -> Iterator[Fleet]:
    """The hosts' network: namespaces on a bridge (removed afterwards), or loopback."""
    if not in_namespaces:
        yield Fleet(hosts)
        return
    network = make_network(hosts, FLEET_SUBNET, "sk")
    if network is None:
        raise SystemExit("--fleet needs root and iproute2 to make network namespaces")
    try:
        yield Fleet(hosts, network)
    finally:
        network.remove()


def drop_database(name: str) -> None:
    """Remove the bench's database once its API has stopped."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def job_file(path: Path, name: str, data: Path) -> None:
    """An fio job file for one host of the client/server mode."""
    options = "\n".join(f"{k}={1 if v is True else v}" for k, v in JOB.items())
    path.write_text(f"[{name}]\n{options}\ndirectory={data}\n")


def fio_client_server_rounds(fleet: Fleet, rounds: int, work: Path, trace: IoStartTrace) -> Figures:
    """fio's own synchronized start: one `fio --server` per host, one client driving them all."""
    # On loopback every server needs a port of its own; in namespaces each has an address of its own.
    ports = [free_port() for _ in range(fleet.hosts)]
    servers = [
        subprocess.Popen(
            [*fleet.prefix(i), "fio", f"--server=ip:{fleet.address(i)},{ports[i]}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for i in range(fleet.hosts)
    ]
    figures = Figures("fio client/server")
    try:
        time.sleep(1)
        argv = ["fio", "--output-format=json"]
        for index in range(fleet.hosts):
            data = work / f"cs-{index}"
            data.mkdir(exist_ok=True)
            job_file(work / f"cs-{index}.fio", "cs", data)
            argv += [f"--client=ip:{fleet.address(index)},{ports[index]}", str(work / f"cs-{index}.fio")]
            # Lay the file out first, as storbench does before its barrier.
            layout = ["fio", "--create_only=1", str(work / f"cs-{index}.fio")]
            subprocess.run(layout, capture_output=True, timeout=120, check=True)
        for _ in range(rounds):
            trace.start_round()
            client = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            pids: set[int] = set()
            while client.poll() is None:
                pids |= job_processes(descendants(s.pid for s in servers))
                time.sleep(0.05)
            first = trace.first_io(pids)
            if len(first) < fleet.hosts:
                raise SystemExit(f"fio client/server: saw {len(first)} of {fleet.hosts} hosts' first I/O")
            figures.spreads.append(spread_s(first))
            print(
                f"  fio client/server round {len(figures.spreads)}: {figures.spreads[-1] * 1000:.2f} ms",
                flush=True,
            )
        return figures
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)


def without_flock(work: Path) -> str:
    """A PATH with every program of this one but flock(1): a host where the start gate is unavailable."""
    shim = work / "path-without-flock"
    shim.mkdir(exist_ok=True)
    for directory in os.environ["PATH"].split(os.pathsep):
        for program in Path(directory).glob("*") if Path(directory).is_dir() else ():
            if program.name != "flock" and not (shim / program.name).exists():
                (shim / program.name).symlink_to(program)
    return str(shim)


def start_hosts(stack: Stack, api: Any, fleet: Fleet, hosts: list[dict[str, Any]], shared: Path) -> None:
    """A worker per host (in its namespace), waiting until every one is online with a clock offset."""
    for index, host in enumerate(hosts):
        host["process"] = stack.start_worker(host["worker_token"], host["name"], shared, fleet.prefix(index))
    wait_online(stack, api, len(hosts))


def stop_workers(hosts: list[dict[str, Any]]) -> None:
    """Stop every host's worker at once (one after the other, each may take its 15 s grace)."""
    for host in hosts:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(host["process"].pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    for host in hosts:
        try:
            host["process"].wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(host["process"].pid, signal.SIGKILL)
            host["process"].wait()


def wait_online(stack: Stack, api: Any, count: int) -> None:
    """Until every host is online with a measured clock offset and has just been heard from.

    Taking in 20 hosts' results keeps one API on a busy machine from answering heartbeats for a
    while: a host last heard 25 s ago is online still, but would be judged lost mid-run.
    """

    def online() -> bool:
        items: list[dict[str, Any]] = api.get("/hosts", params={"limit": 100}).json()["items"]
        now = datetime.now(UTC)
        fresh = [
            h
            for h in items
            if h["status"] == "online"
            and "clock_offset_ms" in h["facts"]
            and now - datetime.fromisoformat(h["last_seen_at"]) < timedelta(seconds=8)
        ]
        return len(fresh) == count

    stack.wait_for(online, 180, f"{count} workers online")


def storbench_rounds(
    stack: Stack,
    api: Any,
    hosts: list[dict[str, Any]],
    target: dict[str, Any],
    rounds: int,
    trace: IoStartTrace,
) -> tuple[Figures, Figures, dict[str, Any]]:
    """storbench's synchronized start: every host at the barrier, then the common start."""
    by_io, reported = Figures("storbench"), Figures("storbench, reported by the workers")
    attempts = 0
    while len(by_io.spreads) < rounds:
        attempts += 1
        if attempts > rounds * 2:
            raise SystemExit("storbench: too many runs failed; see the messages above")
        wait_online(stack, api, len(hosts))
        trace.start_round()
        response = api.post(
            "/runs",
            json={
                "target_id": target["id"],
                "jobs": [{"name": f"skew{attempts}", **JOB}],
                "host_ids": [h["id"] for h in hosts[1:]],
            },
        )
        if response.status_code != 201:
            print(f"  (run refused: {response.text[:300]}; again)")
            continue
        run = response.json()
        pids: set[int] = set()
        while (done := api.get(f"/runs/{run['id']}").json())["status"] in ("queued", "running"):
            pids |= job_processes(fio_working_under(f"/storbench-run{run['id']}-"))
            time.sleep(0.05)
        first = trace.first_io(pids)
        if done["status"] != "completed" or len(first) < len(hosts):
            # A machine shared with other work may starve a worker past its heartbeat: say so, retry.
            print(
                f"  (run {run['id']} {done['status']}, {len(first)} hosts' I/O seen: {done['error']}; again)"
            )
            continue
        by_io.spreads.append(spread_s(first))
        reported.spreads.append(float(done["aggregate"]["start_skew_ms"]) / 1000)
        print(f"  storbench round {len(by_io.spreads)}: {by_io.spreads[-1] * 1000:.2f} ms", flush=True)
    return by_io, reported, done["aggregate"]


def storbench_figures(
    fleet: Fleet, rounds: int, work: Path, trace: IoStartTrace, ungated: bool
) -> tuple[list[Figures], dict[str, Any]]:
    """Register the hosts, start their workers, measure; the last run's aggregate comes too."""
    shared = work / "shared"
    shared.mkdir()
    with ExitStack() as cleanup:
        broker_url = os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/10"
        if fleet.network is not None:
            broker = PrivateRedis(work, bind=fleet.bind)
            broker.start()
            cleanup.callback(broker.stop)
            broker_url = broker.url
        cleanup.callback(drop_database, DATABASE)
        stack = cleanup.enter_context(
            running_stack(
                fresh_database(DATABASE),
                broker_url,
                work,
                fleet.bind,
                FLEET_SETTINGS if fleet.network else SETTINGS,
            )
        )
        api = cleanup.enter_context(stack.client())
        hosts = [api.post("/hosts", json={"name": f"skew-{i:02d}"}).json() for i in range(fleet.hosts)]
        start_hosts(stack, api, fleet, hosts, shared)
        cleanup.callback(stop_workers, hosts)
        target = api.post(
            "/targets",
            json={"name": "shared", "host_id": hosts[0]["id"], "path": str(shared), "kind": "directory"},
        ).json()
        gated, reported, aggregate = storbench_rounds(stack, api, hosts, target, rounds, trace)
        figures = [gated, reported]
        if ungated:
            for host in hosts:
                stack.stop_worker(host["process"])
            stack.env["PATH"] = without_flock(work)
            start_hosts(stack, api, fleet, hosts, shared)
            before, _, _ = storbench_rounds(stack, api, hosts, target, rounds, trace)
            before.label = "storbench without the start gate"
            figures.append(before)
    return figures, aggregate


def measure(hosts: int, rounds: int, fleet_mode: bool, ungated: bool) -> dict[str, Any]:
    """Both ways of starting on the same hosts, in one run: figures as plain data."""
    work = Path(tempfile.mkdtemp(prefix="storbench-skew-"))
    try:
        with io_start_trace() as trace, fleet_of(hosts, fleet_mode) as fleet:
            fio_cs = fio_client_server_rounds(fleet, rounds, work, trace)
            storbench, aggregate = storbench_figures(fleet, rounds, work, trace, ungated)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"hosts": hosts, "rounds": rounds, "figures": [fio_cs, *storbench], "aggregate": aggregate}


def print_figures(result: dict[str, Any]) -> None:
    """The spreads side by side, and storbench's against fio's own."""
    figures: list[Figures] = result["figures"]
    print(f"first-I/O spread over {result['hosts']} hosts, {result['rounds']} rounds (median / max)")
    for figure in figures:
        print(f"  {figure.label:40}{figure.median_ms:8.2f} / {figure.max_ms:7.2f} ms")
        report.record_spread("start_skew", figure.label, [v * 1000 for v in figure.spreads], "ms")
    fio_cs, storbench = figures[0], figures[1]
    ratio = storbench.median_ms / max(fio_cs.median_ms, 0.001)
    print(f"  {'ratio storbench / fio client/server (median)':40}{ratio:8.2f}")
    report.record(
        "start_skew",
        "storbench median spread",
        round(storbench.median_ms, 2),
        "ms",
        "<= 5",
        storbench.median_ms <= 5,
    )
    report.record(
        "start_skew", "ratio storbench / fio client/server (median)", round(ratio, 2), "", "<= 1", ratio <= 1
    )
    report.note("start_skew", f"{result['hosts']} hosts, {result['rounds']} rounds, first I/O by ftrace")
    aggregate = result["aggregate"]
    read = aggregate["directions"]["read"]
    print(
        f"  last run's aggregate: {aggregate['hosts']} hosts, {read['iops']:.0f} IOPS read, "
        f"window {aggregate['window_s']:.2f} s, reported start skew {aggregate['start_skew_ms']} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--fleet", action="store_true", help="hosts in network namespaces on a bridge")
    parser.add_argument("--hosts", type=int, help="how many hosts (3, or 20 with --fleet)")
    parser.add_argument("--ungated", action="store_true", help="also measure without the start gate")
    args = parser.parse_args()
    # Stopped (Ctrl-C, or SIGTERM even as a background job) the bench still removes what it made.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    hosts = args.hosts or (20 if args.fleet else 3)
    print_figures(measure(hosts, args.rounds, args.fleet, args.ungated))


if __name__ == "__main__":
    main()
