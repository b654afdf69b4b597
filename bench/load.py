"""storbench under load: people browsing history, simulated hosts, real runs, all at once.

    .venv/bin/python bench/load.py [--results 1000000] [--users 50] [--hosts 200] [--real-runs 10]
                                   [--duration 120]

On the machine's PostgreSQL (a database of its own, `storbench_bench_load`, generated once by
history_scale_data.py inside PostgreSQL and reused while its size and seed match) and a Redis
server of its own, it starts two API processes and --real-runs real workers (each a host with a
scratch directory in a temp dir, running small real fio jobs), registers --hosts simulated hosts
(real Host rows, each with its own credential and target), then lets locust (bench/load_users.py)
run for --duration seconds: --users people browsing, filtering and comparing history, the simulated
hosts heartbeating and running assignments through the worker protocol, one real run in flight per
real worker. Then it waits for what was started to finish and prints p50/p95/p99 per endpoint,
errors, results lost (acknowledged to a host but not stored) and runs stuck (not finished within
--stuck-after seconds after the load stopped).
Targets: p95 < 200 ms on every read endpoint, 0 errors, 0 lost, 0 stuck.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import history_scale_data as data
import httpx
import psycopg
import report
from benchstack import BIN, bench_workdir, nearest_rank
from fleet import Fleet, fleet, sign_in, wait_until

ROOT = Path(__file__).resolve().parents[1]
BENCH = "load"
READ_P95_TARGET_MS = 200.0
PASSWORD = "bench-password"
SIM_JOBS = [{"name": "sim-randread-4k", "rw": "randread", "bs": "4k", "size": "4m", "runtime": 1}]
REAL_JOB = {
    "name": "real-randread-4k",
    "rw": "randread",
    "bs": "4k",
    "size": "8m",
    "runtime": 5,
    "time_based": True,
    "ioengine": "psync",
    "rate_iops": 500,
}


def prepare_database(name: str, results: int, seed: int) -> str:
    """The history database at `results` results, generated when missing, at the newest migration."""
    from history_scale import migrate, vacuum
    from sqlalchemy import create_engine

    wanted = {"version": data.DATA_VERSION, "seed": seed, "results": results // 4 * 4}
    if data.existing_generation(name) != wanted:
        started = time.monotonic()
        print(
            f"generating {results:,} results in {name} (INSERT … SELECT generate_series, inside PostgreSQL)"
        )
        data.generate(name, results, seed, migrate)
        report.record(BENCH, "history generated (1 time)", round(time.monotonic() - started), "s")
    url = data.database_url(name)
    migrate(url)
    engine = create_engine(url)
    vacuum(engine)
    engine.dispose()
    return url


def browse_plan(name: str) -> dict[str, Any]:
    """What people filter by and compare: values of team 1, the big team, taken from its rows."""
    with psycopg.connect(data.libpq_url(name)) as conn:

        def values(column: str) -> list[Any]:
            rows = conn.execute(
                f"SELECT {column} FROM results WHERE team_id = 1 AND {column} IS NOT NULL "
                f"GROUP BY 1 ORDER BY count(*) DESC LIMIT 8"
            ).fetchall()
            return [r[0] for r in rows]

        runs = conn.execute(
            "SELECT array_agg(id ORDER BY id) FROM results WHERE team_id = 1 AND run_id IN "
            "(SELECT id FROM runs WHERE team_id = 1 AND plan_name LIKE 'plan %%' ORDER BY id DESC LIMIT 20) "
            "GROUP BY run_id"
        ).fetchall()
        return {
            "filters": {
                "target_id": values("target_id"),
                "storage_class": values("storage_class"),
                "job_name": values("job_name"),
                "host_name": values("host_name"),
                "label": values("label"),
            },
            "targets": values("target_id"),
            "compare": [list(r[0]) for r in runs if len(r[0]) > 1],
        }


def fio_output(work: Path) -> str:
    """A real fio json+ output of the simulated hosts' job, run once in the bench's temp dir."""
    where = work / "sim-fio"
    where.mkdir()
    job = SIM_JOBS[0]
    argv = ["fio", "--output-format=json+", f"--directory={where}", f"--name={job['name']}"]
    argv += [f"--{k}={v}" for k, v in job.items() if k != "name"]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


# Host names carry the bench run's tag: the database is reused, and its earlier hosts stay in it.
TAG = f"{int(time.time()) % 1_000_000:06d}"


def register_sim_hosts(api: httpx.Client, count: int, root: str) -> list[dict[str, Any]]:
    """Real Host rows with their own credentials, each with a directory target."""
    hosts = []
    for n in range(count):
        created = api.post("/hosts", json={"name": f"sim-{TAG}-{n:03d}"})
        created.raise_for_status()
        host = created.json()
        target = api.post(
            "/targets",
            json={"name": f"{host['name']} scratch", "host_id": host["id"], "path": f"{root}/{host['name']}"},
        )
        target.raise_for_status()
        hosts.append(
            {
                "name": host["name"],
                "host_id": host["id"],
                "token": host["worker_token"],
                "target_id": target.json()["id"],
            }
        )
    return hosts


def start_stack(stack: Fleet, real_runs: int) -> tuple[list[str], list[str]]:
    """Real hosts bootstrapped, two API processes, one worker per real host; (API URLs, host names)."""
    names = [f"real-{TAG}-{n:02d}" for n in range(real_runs)]
    for name in names:
        stack.bootstrap_host(name)
    urls = [stack.start_api(), stack.start_api()]
    for n, name in enumerate(names):
        stack.start_worker(name, urls[n % len(urls)])
    return urls, names


def real_targets(api: httpx.Client, names: list[str]) -> list[int]:
    """The real hosts' scratch targets, once every real worker is online."""

    def online() -> bool:
        hosts = api.get("/hosts", params={"limit": 500}).json()["items"]
        return bool(sum(h["name"] in names and h["status"] == "online" for h in hosts) == len(names))

    wait_until(online, "the real workers to come online")
    targets = api.get("/targets", params={"limit": 500}).json()["items"]
    return [t["id"] for t in targets if t["name"] in {f"scratch on {n}" for n in names}]


def users_plan(
    args: argparse.Namespace,
    work: Path,
    env: dict[str, str],
    urls: list[str],
    token: str,
    api: httpx.Client,
    database: str,
    targets: list[int],
) -> dict[str, Any]:
    """What bench/load_users.py runs: who, against what, for how long (simulated hosts registered here)."""
    return {
        "api_urls": urls,
        "broker_url": env["STORBENCH_BROKER_URL"],
        "token": token,
        "users": args.users,
        "browse": browse_plan(database),
        "sim_hosts": register_sim_hosts(api, args.hosts, str(work / "sim")),
        "sim_root": str(work / "sim"),
        "sim_jobs": SIM_JOBS,
        "sim_fio_output": fio_output(work),
        "sim_run_every_s": getattr(args, "sim_run_every", 60.0),
        "heartbeat_s": 10.0,
        "real_targets": targets,
        "real_jobs": [REAL_JOB],
        "real_run_bound_s": args.stuck_after,
        "duration_s": getattr(args, "duration", 120.0),
        "stop_timeout_s": args.stuck_after,
    }


def drive(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """Run the locust users (bench/load_users.py) in a process of their own; their figures."""
    plan_path, out_path = work / "plan.json", work / "users.json"
    plan_path.write_text(json.dumps(plan))
    process = subprocess.Popen(
        [str(BIN / "python"), str(ROOT / "bench" / "load_users.py"), str(plan_path), str(out_path)],
        start_new_session=True,
    )
    try:
        process.wait(timeout=plan["duration_s"] + plan["stop_timeout_s"] + 60)
    finally:
        from fleet import stop_process

        stop_process(process)
    return dict(json.loads(out_path.read_text()))


def settle(api: httpx.Client, run_ids: list[int], bound_s: float) -> list[int]:
    """Wait up to bound_s for every run to finish; the ids of those still queued or running."""
    deadline = time.monotonic() + bound_s
    pending = list(run_ids)
    while pending and time.monotonic() < deadline:
        pending = [r for r in pending if api.get(f"/runs/{r}").json()["status"] in ("queued", "running")]
        if pending:
            time.sleep(2)
    return pending


def lost_results(name: str, uploads: list[dict[str, int]], real_run_ids: list[int], jobs: int) -> int:
    """Results a host was told were stored but are not, and completed real runs missing results."""
    with psycopg.connect(data.libpq_url(name)) as conn:
        stored: dict[int, int] = dict(
            conn.execute(
                "SELECT run_id, count(*) FROM results WHERE run_id = ANY(%s) GROUP BY run_id",
                ([u["run_id"] for u in uploads] + real_run_ids,),
            ).fetchall()
        )
        completed = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM runs WHERE id = ANY(%s) AND status = 'completed'", (real_run_ids,)
            ).fetchall()
        ]
    lost = sum(max(0, u["results"] - stored.get(u["run_id"], 0)) for u in uploads)
    return lost + sum(max(0, jobs - stored.get(r, 0)) for r in completed)


def print_latencies(latencies: dict[str, list[float]], errors: dict[str, list[str]]) -> bool:
    """The table of p50/p95/p99 per endpoint; True when every read endpoint's p95 is on target."""
    print(f"\n{'endpoint':<44}{'requests':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}  verdict")
    all_ok = True
    for name in sorted(latencies):
        values = latencies[name]
        p50, p95, p99 = (nearest_rank(values, q) for q in (0.5, 0.95, 0.99))
        is_read = name.startswith("GET") and not name.startswith("GET worker")
        ok = p95 < READ_P95_TARGET_MS if is_read else None
        all_ok = all_ok and ok is not False
        verdict = "" if ok is None else ("ok" if ok else f"MISSED p95 < {READ_P95_TARGET_MS:.0f} ms")
        failed = len(errors.get(name, []))
        print(f"{name:<44}{len(values):>9}{p50:>9.0f}{p95:>9.0f}{p99:>9.0f}{failed:>8}  {verdict}")
        target = f"p95 < {READ_P95_TARGET_MS:.0f} ms" if is_read else ""
        report.record(
            BENCH, f"{name} p50 / p95 / p99", f"{p50:.0f} / {p95:.0f} / {p99:.0f}", "ms", target, ok
        )
    for name, messages in errors.items():
        print(f"  errors of {name}: {len(messages)}, e.g. {messages[0]}")
    return all_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", type=int, default=1_000_000, help="results in the history browsed")
    parser.add_argument("--users", type=int, default=50, help="people browsing at once")
    parser.add_argument("--hosts", type=int, default=200, help="simulated hosts")
    parser.add_argument("--real-runs", type=int, default=10, help="real runs in flight (real workers + fio)")
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of load")
    parser.add_argument("--sim-run-every", type=float, default=60.0, help="seconds between a host's runs")
    parser.add_argument("--stuck-after", type=float, default=120.0, help="bound for runs to finish, s")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--database", default="storbench_bench_load")
    args = parser.parse_args()

    url = prepare_database(args.database, args.results, args.seed)
    size = f"{args.results:,} results"
    print(f"history: {size} in {args.database}")
    with bench_workdir("storbench-load-") as work:
        env = {
            **os.environ,
            "STORBENCH_DATABASE_URL": url,
            "STORBENCH_DATA_DIR": str(work / "data"),
            "STORBENCH_ADMIN_PASSWORD": PASSWORD,
            "STORBENCH_SECRET_KEY": "bench-secret-of-the-load-bench",
            # The generated history's big team: the admin signs in to browse it.
            "STORBENCH_DEFAULT_TEAM_NAME": "team 1",
        }
        with fleet(work, env) as stack:
            env["STORBENCH_BROKER_URL"] = stack.start_redis() + "/0"
            urls, names = start_stack(stack, args.real_runs)
            token = sign_in(urls[0], PASSWORD)
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=f"{urls[0]}/api/v1", headers=headers, timeout=60) as api:
                targets = real_targets(api, names)
                plan = users_plan(args, work, env, urls, token, api, args.database, targets)
                print(
                    f"load: {args.users} people, {args.hosts} simulated hosts, {args.real_runs} real runs "
                    f"in flight, {args.duration:.0f} s, 2 API processes"
                )
                figures = drive(work, plan)
                run_ids = figures["runs_started"]
                stuck = settle(api, run_ids, args.stuck_after)
                real_ids = [
                    r["id"] for r in api.get("/runs", params={"label": "real", "limit": 500}).json()["items"]
                ]
        lost = lost_results(args.database, figures["uploads"], [r for r in run_ids if r in set(real_ids)], 1)
    return summarise(args, size, figures, lost, stuck)


def summarise(
    args: argparse.Namespace, size: str, figures: dict[str, Any], lost: int, stuck: list[int]
) -> int:
    """Print and record the figures; exit status 1 when a target was missed."""
    reads_ok = print_latencies(figures["latencies_ms"], figures["errors"])
    if not figures["latencies_ms"]:
        print("no request was made: the load did not run (see the output above)")
        return 1
    errors = sum(len(v) for v in figures["errors"].values())
    uploads = sum(u["results"] for u in figures["uploads"])
    print(
        f"\nruns started: {len(figures['runs_started'])}, results acknowledged to simulated hosts: {uploads}"
    )
    print(
        f"errors: {errors} (target 0); results lost: {lost} (target 0); runs stuck: {len(stuck)} (target 0)"
    )
    if stuck:
        print(f"  stuck runs: {stuck[:20]}")
    report.note(
        BENCH,
        f"history of {size}; {args.users} people, {args.hosts} simulated hosts, {args.real_runs} real "
        f"runs in flight for {args.duration:.0f} s against 2 API processes on loopback (PostgreSQL "
        "127.0.0.1:5432, a private Redis); the load generator shares the 2 cores",
    )
    report.record(BENCH, "requests", sum(len(v) for v in figures["latencies_ms"].values()))
    report.record(BENCH, "runs started", len(figures["runs_started"]))
    report.record(BENCH, "errors", errors, "", "0", errors == 0)
    report.record(BENCH, "results lost", lost, "", "0", lost == 0)
    report.record(BENCH, "runs stuck", len(stuck), "", "0", not stuck)
    return 0 if reads_ok and errors == 0 and lost == 0 and not stuck else 1


if __name__ == "__main__":
    sys.exit(main())
