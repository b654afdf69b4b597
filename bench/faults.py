"""storbench while its parts die: a smaller load, and PostgreSQL, Redis, a worker and an API process
killed and restarted one at a time.

    .venv/bin/python bench/faults.py [--results 20000] [--users 10] [--hosts 20] [--real-runs 2]

Everything it kills is its own: a PostgreSQL cluster it creates with initdb under a temp dir and
starts with pg_ctl on a free loopback port (never the machine's PostgreSQL), a redis-server it
starts, two API processes and --real-runs real workers. While locust (bench/load_users.py) keeps
people browsing, simulated hosts running assignments and real runs in flight, each part in turn is
killed (SIGKILL; PostgreSQL by `pg_ctl stop -m immediate`, a crash), left down a few seconds and
started again. Its recovery time is from the kill until a new small real run, started as soon as
the API accepts it, has completed end to end (so it includes the down time and one 1 s fio run).
Then every run started is given --stuck-after seconds to finish (completed or failed with its
reason); it prints each recovery time, the errors seen meanwhile, results lost (acknowledged to a
host but not stored) and runs stuck. Targets: 0 lost, 0 stuck.
"""

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import report
from benchstack import bench_workdir, free_port
from fleet import Fleet, fleet, kill_process, sign_in

BENCH = "faults"
PASSWORD = "bench-password"
DOWN_S = 3.0
PROBE_JOB = {"name": "probe", "rw": "randread", "bs": "4k", "size": "4m", "runtime": 1, "time_based": True}


def pg_bin(name: str) -> str:
    """A PostgreSQL server program (initdb, pg_ctl): on PATH, else Debian's newest versioned one."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not versions:
        raise SystemExit(f"{name} not found: install PostgreSQL's server package")
    return str(versions[-1])


class PrivateCluster:
    """A PostgreSQL cluster of the bench's own under the temp dir, on a loopback port."""

    def __init__(self, work: Path, port: int) -> None:
        root = work / "pg"
        root.mkdir()
        self.data, self.port, self.log = root / "data", port, root / "server.log"
        # PostgreSQL refuses to run as root: then it runs as the postgres user, owning its folder.
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            work.chmod(0o711)
            shutil.chown(root, "postgres", "postgres")
        self._run([pg_bin("initdb"), "-D", str(self.data), "-U", "storbench", "--auth=trust", "-E", "UTF8"])

    def _run(self, argv: list[str], check: bool = True) -> None:
        subprocess.run([*self.as_user, *argv], check=check, capture_output=True)

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.data} -c fsync=off"
        self._run([pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start"])

    def crash(self) -> None:
        self._run([pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"], check=False)

    def url(self) -> str:
        return f"postgresql://storbench@127.0.0.1:{self.port}/postgres"


def probe_run(api: httpx.Client, target_id: int, since: float, bound_s: float, started: list[int]) -> float:
    """Seconds from `since` until a new small real run on target_id has completed end to end."""
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        try:
            created = api.post("/runs", json={"target_id": target_id, "jobs": [PROBE_JOB], "label": "probe"})
            if created.status_code != 201:
                time.sleep(0.5)
                continue
            run_id = created.json()["id"]
            started.append(run_id)
            while time.monotonic() < deadline:
                status = api.get(f"/runs/{run_id}").json()["status"]
                if status == "completed":
                    return time.monotonic() - since
                if status not in ("queued", "running"):
                    break
                time.sleep(0.3)
            time.sleep(1.0)  # failed (with its reason): start another, not a flood of them
        except (httpx.TransportError, ValueError, KeyError):
            time.sleep(0.5)
    return float("nan")


def faults(stack: Fleet, cluster: PrivateCluster, urls: list[str]) -> dict[str, Any]:
    """How each part is killed and started again (the worker of the first real host, the last API)."""
    redis_port = int(stack.env["STORBENCH_BROKER_URL"].rsplit(":", 1)[1].split("/")[0])
    worker_name = next(iter(stack.workers))
    api_port = int(urls[-1].rsplit(":", 1)[1])

    def postgres() -> None:
        cluster.crash()
        time.sleep(DOWN_S)
        cluster.start()

    def redis() -> None:
        assert stack.redis is not None
        kill_process(stack.redis)
        time.sleep(DOWN_S)
        stack.start_redis(redis_port)

    def worker() -> None:
        kill_process(stack.workers[worker_name])
        time.sleep(DOWN_S)
        stack.start_worker(worker_name, urls[0])

    def api() -> None:
        kill_process(stack.apis.pop(api_port))
        time.sleep(DOWN_S)
        stack.start_api(api_port)

    return {"PostgreSQL": postgres, "Redis": redis, "a worker": worker, "an API process": api}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", type=int, default=20_000, help="results in the history browsed")
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--real-runs", type=int, default=2)
    parser.add_argument("--settle", type=float, default=20.0, help="seconds of load between faults")
    parser.add_argument("--stuck-after", type=float, default=180.0, help="bound for runs to finish, s")
    args = parser.parse_args()
    with bench_workdir("storbench-faults-") as work:
        cluster = PrivateCluster(work, free_port())
        cluster.start()
        try:
            return run_with_faults(args, work, cluster)
        finally:
            cluster.crash()


def run_with_faults(args: argparse.Namespace, work: Path, cluster: PrivateCluster) -> int:
    """The load, the faults one after the other, then the accounting."""
    # history_scale_data reads the server to use when imported: this cluster, never the machine's.
    os.environ["STORBENCH_BENCH_POSTGRES"] = cluster.url()
    import load

    database = "storbench_faults"
    url = load.prepare_database(database, args.results, 13)
    env = {
        **os.environ,
        "STORBENCH_DATABASE_URL": url,
        "STORBENCH_DATA_DIR": str(work / "data"),
        "STORBENCH_ADMIN_PASSWORD": PASSWORD,
        "STORBENCH_SECRET_KEY": "bench-secret-of-the-faults-bench",
        "STORBENCH_DEFAULT_TEAM_NAME": "team 1",
    }
    recoveries: dict[str, float] = {}
    probes: list[int] = []
    with fleet(work, env) as stack:
        env["STORBENCH_BROKER_URL"] = stack.start_redis() + "/0"
        urls, names = load.start_stack(stack, args.real_runs)
        token = sign_in(urls[0], PASSWORD)
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=f"{urls[-1]}/api/v1", headers=headers, timeout=10) as api:
            targets = load.real_targets(api, names)
            kills = faults(stack, cluster, urls)
            plan = load.users_plan(args, work, env, urls, token, api, database, targets)
            plan["duration_s"] = (len(kills) + 1) * (args.settle + 60)
            figures: dict[str, Any] = {}
            driver = threading.Thread(target=lambda: figures.update(load.drive(work, plan)))
            driver.start()
            for part, kill in kills.items():
                time.sleep(args.settle)
                print(f"killing {part}", flush=True)
                killed = time.monotonic()
                kill()
                recoveries[part] = probe_run(api, targets[0], killed, args.stuck_after, probes)
                print(f"  {part}: recovered in {recoveries[part]:.1f} s", flush=True)
            driver.join()
            stuck = load.settle(api, figures["runs_started"] + probes, args.stuck_after)
            real = [
                r["id"]
                for r in api.get("/runs", params={"limit": 500}).json()["items"]
                if r["label"] != "simulated"
            ]
        lost = load.lost_results(
            database, figures["uploads"], [r for r in real if r in set(figures["runs_started"])], 1
        )
    return summarise(args, recoveries, figures, lost, stuck)


def summarise(
    args: argparse.Namespace,
    recoveries: dict[str, float],
    figures: dict[str, Any],
    lost: int,
    stuck: list[int],
) -> int:
    """Print and record the figures; exit status 1 when something was lost or stuck."""
    print(f"\n{'part killed and restarted':<28}{'recovery s':>11}")
    for part, seconds in recoveries.items():
        print(f"{part:<28}{seconds:>11.1f}")
        report.record(BENCH, f"recovery after killing {part}", round(seconds, 1), "s")
    errors = {name: len(messages) for name, messages in figures["errors"].items()}
    print(f"errors while parts were down (expected, no target): {sum(errors.values())} {errors}")
    print(f"results lost: {lost} (target 0); runs stuck: {len(stuck)} (target 0) {stuck[:20]}")
    report.note(
        BENCH,
        f"history of {args.results:,} results in a private PostgreSQL cluster; {args.users} people, "
        f"{args.hosts} simulated hosts, {args.real_runs} real runs in flight; each part down {DOWN_S:.0f} s; "
        "recovery = kill -> a new 1 s real run completed end to end",
    )
    report.record(BENCH, "requests failed while parts were down", sum(errors.values()))
    report.record(BENCH, "results lost", lost, "", "0", lost == 0)
    report.record(BENCH, "runs stuck", len(stuck), "", "0", not stuck)
    return 0 if lost == 0 and not stuck else 1


if __name__ == "__main__":
    sys.exit(main())
