"""Start skew across three hosts: storbench's synchronized runs versus fio's own client/server mode.

Both are measured the same way: the start time of each host's fio job process (the process that
does the I/O), read from /proc (kernel clock ticks, 10 ms at the usual USER_HZ=100), max - min.
storbench also reports its own figure (the moment each worker started fio, in the server's clock).
The three hosts are three worker processes (or three `fio --server` processes) on this machine.

Needs PostgreSQL and Redis as `make test` starts them (scripts/services.sh postgres redis).

    .venv/bin/python bench/start_skew.py [--rounds 5]
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import report

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))

from tests.support.postgres import fresh_database  # noqa: E402
from tests.support.stack import free_port, running_stack  # noqa: E402

TICK_S = 1 / os.sysconf("SC_CLK_TCK")
HOSTS = ("skew-a", "skew-b", "skew-c")
JOB = {"rw": "randread", "bs": "4k", "size": "8m", "runtime": 2, "time_based": True, "ioengine": "psync"}


def proc_start_ticks(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def fio_mains_in(path: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                cwd = os.readlink(entry / "cwd")  # fio works in its run directory
            except OSError:
                continue
            if cmdline.startswith("fio ") and path in cwd and "--create_only" not in cmdline:
                found.append(int(entry.name))
    return found


def job_process_skew(parents: list[int], expected: int, timeout_s: float = 30) -> float:
    """Poll until `expected` job processes exist under the parents; max - min start, in seconds."""
    starts: dict[int, int] = {}
    deadline = time.monotonic() + timeout_s
    while len(starts) < expected and time.monotonic() < deadline:
        for parent in parents:
            for child in children(parent):
                ticks = proc_start_ticks(child)
                if ticks is not None:
                    starts.setdefault(child, ticks)
        time.sleep(0.002)
    if len(starts) < expected:
        raise SystemExit(f"saw {len(starts)} of {expected} fio job processes start")
    return (max(starts.values()) - min(starts.values())) * TICK_S


def storbench_rounds(rounds: int, work: Path) -> tuple[list[float], list[float]]:
    shared = work / "shared"
    shared.mkdir()
    database = fresh_database("storbench_bench")
    with running_stack(database, "redis://127.0.0.1:6379/10", work) as stack, stack.client() as api:
        ids = []
        for name in HOSTS:
            created = api.post("/hosts", json={"name": name}).json()
            stack.start_worker(created["worker_token"], name, allow=shared)
            ids.append(created["id"])
        stack.wait_for(
            lambda: all(
                h["status"] == "online" and "clock_offset_ms" in h["facts"]
                for h in api.get("/hosts").json()["items"]
            ),
            60,
            "workers online",
        )
        target = api.post(
            "/targets",
            json={"name": "shared", "host_id": ids[0], "path": str(shared), "kind": "directory"},
        ).json()
        by_proc, reported = [], []
        for round_no in range(rounds):
            run = api.post(
                "/runs",
                json={
                    "target_id": target["id"],
                    "jobs": [{"name": f"skew{round_no}", **JOB}],
                    "host_ids": ids[1:],
                },
            ).json()
            deadline = time.monotonic() + 60
            mains: list[int] = []
            while len(mains) < 3 and time.monotonic() < deadline:
                mains = fio_mains_in(f"storbench-run{run['id']}-")
                time.sleep(0.002)
            by_proc.append(job_process_skew(mains, 3))
            while (done := api.get(f"/runs/{run['id']}").json())["status"] in ("queued", "running"):
                time.sleep(0.3)
            reported.append(float(done["aggregate"]["start_skew_ms"]) / 1000)
    return by_proc, reported


def fio_client_server_rounds(rounds: int, work: Path) -> list[float]:
    ports = [free_port() for _ in HOSTS]
    servers = [
        subprocess.Popen(
            ["fio", f"--server=ip:127.0.0.1,{port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for port in ports
    ]
    try:
        time.sleep(1)
        skews = []
        for round_no in range(rounds):
            argv = ["fio", "--output-format=json"]
            for index, port in enumerate(ports):
                data = work / f"cs-{index}"
                data.mkdir(exist_ok=True)
                job = work / f"cs-{index}.fio"
                options = "\n".join(f"{k}={1 if v is True else v}" for k, v in JOB.items())
                job.write_text(f"[skew{round_no}]\n{options}\ndirectory={data}\n")
                argv += [f"--client=ip:127.0.0.1,{port}", str(job)]
            client = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            skews.append(job_process_skew([s.pid for s in servers], 3))
            client.wait(timeout=60)
        return skews
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="storbench-skew-"))
    fio_cs = fio_client_server_rounds(args.rounds, work)
    by_proc, reported = storbench_rounds(args.rounds, work)
    print(f"start skew over 3 hosts, {args.rounds} rounds (median / max), resolution {TICK_S * 1000:.0f} ms")
    rows = (
        ("fio client/server, job processes", fio_cs),
        ("storbench, job processes", by_proc),
        ("storbench, reported by the workers", reported),
    )
    for label, values in rows:
        print(f"  {label:38}{statistics.median(values) * 1000:8.1f} / {max(values) * 1000:7.1f} ms")
        report.record_spread("start_skew", label, [v * 1000 for v in values], "ms")
    ratio = statistics.median(by_proc) / max(statistics.median(fio_cs), TICK_S)
    print(f"  {'ratio storbench/fio (job processes)':38}{ratio:8.2f}")
    report.note(
        "start_skew", f"3 hosts on this machine, {args.rounds} rounds, resolution {TICK_S * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
