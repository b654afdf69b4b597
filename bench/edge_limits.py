"""How fast the served API answers while strangers attack its edge, side by side with it idle.

Two figures of issue 21, on one stack in one run (these machines are noisy):
- a worker heartbeat and a signed-in GET, idle and with 200 connections holding half-sent bodies
  (target: answered within 1 s);
- /health, idle and while a host sends 24 gzip bombs at once (target: within 1 s), and the API's
  resident memory at its peak (target: within 300 MiB of idle).

Needs PostgreSQL and Redis as `make test` starts them (scripts/services.sh postgres redis).

    .venv/bin/python bench/edge_limits.py [--rounds 20]
"""

import argparse
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import report

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))

from tests.support.edge_attacks import gzip_bomb, rss_bytes, stalled_body, timed  # noqa: E402
from tests.support.postgres import fresh_database  # noqa: E402
from tests.support.stack import Stack, running_stack  # noqa: E402

BROKER = "redis://127.0.0.1:6379/10"
PATHS = ("/api/v1/auth/token", "/api/v1/plans", "/api/v1/worker/enroll", "/api/v1/runs")


def _figures(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    report.record(
        "edge_limits",
        f"{label}, median / max",
        f"{statistics.median(ms):.1f} / {ms[-1]:.1f}",
        "ms",
        "max < 1000 ms",
        ms[-1] < 1000,
    )
    return f"  {label:<34} median {statistics.median(ms):7.1f} ms   max {ms[-1]:7.1f} ms   (n={len(ms)})"


def _beats_and_gets(stack: Stack, token: str, rounds: int) -> tuple[list[float], list[float]]:
    beats: list[float] = []
    gets: list[float] = []
    probe = {"Authorization": f"Bearer {token}"}
    with stack.client() as api, httpx.Client(base_url=stack.url, timeout=30) as worker:
        for _ in range(rounds):
            took, beat = timed(lambda: worker.post("/api/v1/worker/heartbeat", json={}, headers=probe))
            assert beat.status_code == 200, beat.text
            beats.append(took)
            took, listed = timed(lambda: api.get("/hosts"))
            assert listed.status_code == 200, listed.text
            gets.append(took)
    return beats, gets


def _health_during_bombs(stack: Stack, token: str) -> tuple[list[float], int]:
    assert stack.api is not None
    peak = rss_bytes(stack.api.pid)
    headers = {"Authorization": f"Bearer {token}", "Content-Encoding": "gzip"}
    seconds: list[float] = []

    def bomb() -> int:
        with httpx.Client(base_url=stack.url, timeout=60) as client:
            url = "/api/v1/worker/assignments/1/result"
            return client.post(url, content=gzip_bomb(), headers=headers).status_code

    with ThreadPoolExecutor(max_workers=24) as pool, httpx.Client(base_url=stack.url, timeout=30) as watcher:
        bombs = [pool.submit(bomb) for _ in range(24)]
        while not all(b.done() for b in bombs):
            took, health = timed(lambda: watcher.get("/api/v1/health"))
            assert health.status_code == 200
            seconds.append(took)
            peak = max(peak, rss_bytes(stack.api.pid))
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    gzip_bomb()  # built before anything is timed
    database = fresh_database("storbench_bench_edge")
    with tempfile.TemporaryDirectory() as work, running_stack(database, BROKER, Path(work)) as stack:
        with stack.client() as api:
            token = api.post("/hosts", json={"name": "bench-probe"}).json()["worker_token"]
        idle_beats, idle_gets = _beats_and_gets(stack, token, args.rounds)
        stalled = [stalled_body(stack.port, PATHS[i % len(PATHS)]) for i in range(200)]
        try:
            busy_beats, busy_gets = _beats_and_gets(stack, token, args.rounds)
        finally:
            for sock in stalled:
                sock.close()
        assert stack.api is not None
        idle_rss = rss_bytes(stack.api.pid)
        with httpx.Client(base_url=stack.url, timeout=30) as client:
            idle_health = [timed(lambda: client.get("/api/v1/health"))[0] for _ in range(args.rounds)]
        bombed_health, peak_rss = _health_during_bombs(stack, token)
    print("heartbeat and signed-in GET (target: within 1 s under 200 stalled bodies)")
    print(_figures("heartbeat, idle", idle_beats))
    print(_figures("heartbeat, 200 stalled bodies", busy_beats))
    print(_figures("GET /hosts, idle", idle_gets))
    print(_figures("GET /hosts, 200 stalled bodies", busy_gets))
    print("/health and memory (targets: within 1 s, within 300 MiB of idle, under 24 gzip bombs)")
    print(_figures("/health, idle", idle_health))
    print(_figures("/health, 24 gzip bombs", bombed_health))
    print(
        f"  resident memory: idle {idle_rss / 2**20:.0f} MiB, peak {peak_rss / 2**20:.0f} MiB "
        f"(+{(peak_rss - idle_rss) / 2**20:.0f} MiB)"
    )
    added = (peak_rss - idle_rss) / 2**20
    report.record(
        "edge_limits", "memory added under 24 gzip bombs", round(added), "MiB", "< 300 MiB", added < 300
    )


if __name__ == "__main__":
    main()
