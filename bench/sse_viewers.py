"""Live progress with many viewers: database load and lag with 1 viewer, then 200, on one real stack.

Starts its own API and worker (bench/benchstack.py) on PostgreSQL and Redis: a fresh database
`storbench_bench_sse` on the server STORBENCH_BENCH_POSTGRES names (default: the local one, role
storbench) and Redis database 10 (--redis-url; flushed first). Then two runs of a 4k randread job
(--runtime s each), one after the other: the first watched over Server-Sent Events by 1 viewer, the
second by --viewers viewers (users of the team with 20 streams each, the most one user may hold on
one API process). For each run it prints, side by side:

  database transactions/s   xact_commit + xact_rollback of the database in pg_stat_database (read
                            from another database, so the script's own reads do not count) from
                            when the run started until it ended: what streaming it costs, the
                            worker's own reports included (they are the same for 1 or 200 viewers)
  progress lag p50 / p95    fio's own timestamp of a per-second report (measured_at, stored as the
                            worker sent it) -> that sample's `data:` line read by a viewer, over every
                            sample of every viewer; one machine, one clock

The viewers connect while the run waits behind a WARM_UP_S warm-up run on the same host: PostgreSQL
adds a busy backend's counts to pg_stat_database up to seconds late, so their sign-in would otherwise
spill into the run's figure. They are httpx streaming clients on loopback and connect CONNECTING at a
time, as browsers opening a page over a few seconds would: a burst of more than ~40 simultaneous
authenticated requests of any kind stalls this API for the pool timeout (the request dependencies
hold a pooled connection across threadpool hops), which is not what this measures. The streams end
by themselves when the run ends, and the script stops the stack. Figures only, never a pass/fail.

    .venv/bin/python bench/sse_viewers.py [--viewers 200] [--runtime 20]
"""

import argparse
import asyncio
import json
import math
import os
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime

import httpx
import psycopg
import redis
import report
from benchstack import BenchStack, bench_workdir, nearest_rank, randread_4k_job, running_stack
from psycopg import sql

POSTGRES = os.environ.get(
    "STORBENCH_BENCH_POSTGRES", "postgresql://storbench:storbench@127.0.0.1:5432/postgres"
)
DATABASE = "storbench_bench_sse"
STREAMS_PER_USER = 20
# Counts of a backend that is no longer busy reach pg_stat_database within about a second.
STATS_SETTLE_S = 1.5
WARM_UP_S = 15
TARGET_LAG_S = 1.0
CONNECTING = 10


@dataclass
class Viewer:
    """One browser's stream: when each sample arrived, and fio's timestamp of it."""

    lags: list[float] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    error: str = ""


@dataclass
class Figures:
    """What one run cost and how fast its viewers heard of it."""

    viewers: int
    run_s: float = 0.0
    run_xacts: int = 0
    lags: list[float] = field(default_factory=list)
    samples_stored: int = 0
    incomplete_viewers: int = 0


def fresh_database() -> str:
    """Drop and create the benchmark's database; its SQLAlchemy URL."""
    with psycopg.connect(POSTGRES, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DATABASE)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
    base = POSTGRES.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{DATABASE}"


def transactions(stats: psycopg.Connection) -> int:
    """Transactions the benchmark's database has ended so far, as far as its backends reported."""
    row = stats.execute(
        "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s", (DATABASE,)
    ).fetchone()
    return int(row[0]) if row else 0


def start_run(stack: BenchStack, name: str, runtime: int) -> int:
    """Queue a 4k randread run on the bench host; its id."""
    run = stack.api.post(
        "/runs", json={"target_id": stack.target_id, "jobs": [randread_4k_job(name, runtime)]}
    )
    run.raise_for_status()
    return int(run.json()["id"])


def viewer_tokens(stack: BenchStack, viewers: int) -> list[str]:
    """Enough users of the team (viewers, by invitation) to hold `viewers` streams."""
    tokens = []
    for number in range(math.ceil(viewers / STREAMS_PER_USER)):
        invited = stack.api.post("/teams/current/invitations", json={"role": "viewer"})
        invited.raise_for_status()
        accepted = httpx.post(
            f"{stack.url}/api/v1/invitations/accept",
            json={
                "token": invited.json()["token"],
                "email": f"viewer{number}@bench.local",
                "password": "bench-viewer-password",
            },
        )
        accepted.raise_for_status()
        tokens.append(str(accepted.json()["access_token"]))
    return tokens


async def watch(
    client: httpx.AsyncClient, url: str, token: str, viewer: Viewer, connecting: asyncio.Semaphore
) -> None:
    """Read one stream as a browser's EventSource would, noting each sample's lag."""
    await connecting.acquire()

    def connected() -> None:
        if not viewer.connected.is_set():
            viewer.connected.set()
            connecting.release()

    try:
        async with client.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as response:
            if response.status_code != 200:
                viewer.error = f"HTTP {response.status_code}: {(await response.aread())[:200]!r}"
                return
            event = "message"
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    event = line.removeprefix("event:").strip()
                elif line.startswith("data:"):
                    arrived = time.time()
                    data = json.loads(line.removeprefix("data:"))
                    if event == "progress" and data["measured_at"]:
                        viewer.lags.append(arrived - datetime.fromisoformat(data["measured_at"]).timestamp())
                    elif event == "status":
                        viewer.statuses.append(str(data["status"]))
                        connected()
                elif not line:
                    event = "message"
    except httpx.HTTPError as exc:
        viewer.error = f"{type(exc).__name__}: {exc}"
    finally:
        connected()


async def watched_run(
    stack: BenchStack, stats: psycopg.Connection, tokens: list[str], viewers: int, runtime: int
) -> Figures:
    """Watch a run with `viewers` streams until it ends; what it cost and how fast it came."""
    figures = Figures(viewers)
    start_run(stack, "sse-warm-up", WARM_UP_S)
    run_id = start_run(stack, "sse-viewers", runtime)
    url = f"{stack.url}/api/v1/runs/{run_id}/events"
    watching = [Viewer() for _ in range(viewers)]
    limits = httpx.Limits(max_connections=viewers + 10, max_keepalive_connections=viewers + 10)
    async with httpx.AsyncClient(timeout=httpx.Timeout(10.0, read=120.0), limits=limits) as client:
        connecting = asyncio.Semaphore(CONNECTING)
        tasks = [
            asyncio.create_task(watch(client, url, tokens[i // STREAMS_PER_USER], v, connecting))
            for i, v in enumerate(watching)
        ]
        await asyncio.wait_for(asyncio.gather(*(v.connected.wait() for v in watching)), 60)
        while not all("running" in v.statuses or v.error for v in watching):
            await asyncio.sleep(0.05)
        started_at, xacts_started = time.monotonic(), transactions(stats)
        # The streams end by themselves when the run does.
        await asyncio.wait_for(asyncio.gather(*tasks), WARM_UP_S + runtime + 180)
        ended_at = time.monotonic()
    await asyncio.sleep(STATS_SETTLE_S)
    figures.run_s, figures.run_xacts = ended_at - started_at, transactions(stats) - xacts_started
    errors = [v.error for v in watching if v.error]
    if errors:
        raise SystemExit(f"run {run_id}: {len(errors)} viewer(s) failed, e.g. {errors[0]}")
    done = stack.api.get(f"/runs/{run_id}").json()
    if done["status"] != "completed":
        raise SystemExit(f"run {run_id} ended {done['status']}: {done['error']}")
    progress = stack.api.get(f"/runs/{run_id}/progress").json()
    figures.samples_stored = sum(len(host["samples"]) for host in progress["hosts"])
    figures.lags = [lag for v in watching for lag in v.lags]
    figures.incomplete_viewers = sum(
        len(v.lags) != figures.samples_stored or v.statuses[-1:] != ["completed"] for v in watching
    )
    return figures


def print_table(columns: list[Figures], runtime: int) -> None:
    def row(label: str, cells: list[str]) -> None:
        print(f"  {label:44}" + "".join(f"{cell:>14}" for cell in cells))

    print()
    print(f"live progress of a {runtime} s 4k randread run, watched over SSE (PostgreSQL + Redis)")
    row("", [f"{f.viewers} viewer{'s' if f.viewers > 1 else ''}" for f in columns])
    row("database transactions/s during the run", [f"{f.run_xacts / f.run_s:.1f}" for f in columns])
    row("  (transactions / seconds)", [f"{f.run_xacts} / {f.run_s:.1f}" for f in columns])
    row("progress lag p50, s", [f"{statistics.median(f.lags):.3f}" for f in columns])
    row("progress lag p95, s", [f"{nearest_rank(f.lags, 0.95):.3f}" for f in columns])
    row("progress lag max, s", [f"{max(f.lags):.3f}" for f in columns])
    row(
        "samples received (stored x viewers)",
        [f"{len(f.lags)} ({f.samples_stored}x{f.viewers})" for f in columns],
    )
    row("viewers that missed something", [str(f.incomplete_viewers) for f in columns])
    within = [sum(lag < TARGET_LAG_S for lag in f.lags) / len(f.lags) for f in columns]
    row(f"samples within {TARGET_LAG_S:.0f} s (target: all)", [f"{share:.1%}" for share in within])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--runtime", type=int, default=20, help="fio runtime of each run, seconds")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    args = parser.parse_args()
    os.environ["STORBENCH_DATABASE_URL"] = fresh_database()
    os.environ["STORBENCH_BROKER_URL"] = args.redis_url
    redis.Redis.from_url(args.redis_url).flushdb()
    with (
        bench_workdir("storbench-sse-") as work,
        running_stack(work) as stack,
        psycopg.connect(POSTGRES, autocommit=True) as stats,
    ):
        tokens = viewer_tokens(stack, args.viewers)
        columns = []
        for viewers in (1, args.viewers):
            figures = asyncio.run(watched_run(stack, stats, tokens, viewers, args.runtime))
            print(
                f"{viewers} viewer(s): {figures.samples_stored} samples, "
                f"{figures.run_xacts / figures.run_s:.1f} database transactions/s, "
                f"lag p50 {statistics.median(figures.lags):.3f} s"
            )
            columns.append(figures)
    print_table(columns, args.runtime)
    record_figures(columns, args.runtime)


def record_figures(columns: list[Figures], runtime: int) -> None:
    """The figures of make bench's report (bench/report.py)."""
    report.note(
        "sse_viewers", f"a {runtime} s 4k randread run watched by 1, then {columns[-1].viewers} SSE viewers"
    )
    for f in columns:
        label = f"{f.viewers} viewer(s)"
        report.record("sse_viewers", f"{label}: database transactions/s", round(f.run_xacts / f.run_s, 1))
        report.record_spread("sse_viewers", f"{label}: progress lag", f.lags, "s")
        within = sum(lag < TARGET_LAG_S for lag in f.lags) / len(f.lags)
        report.record(
            "sse_viewers",
            f"{label}: samples within {TARGET_LAG_S:.0f} s",
            f"{within:.1%}",
            "",
            "100 %",
            within == 1,
        )
        report.record(
            "sse_viewers",
            f"{label}: viewers that missed something",
            f.incomplete_viewers,
            "",
            "0",
            f.incomplete_viewers == 0,
        )


if __name__ == "__main__":
    main()
