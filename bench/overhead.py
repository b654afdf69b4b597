"""Measurement overhead: the same fio job run directly and through storbench, interleaved.

Prints the median IOPS of each, their ratio (storbench / direct; target >= 0.99), the worker's CPU use
while fio runs (target < 1% of one core) and the dispatch latency from POST /runs to fio running.
Starts its own API and worker on the embedded default (or on STORBENCH_DATABASE_URL / STORBENCH_BROKER_URL).

    .venv/bin/python bench/overhead.py [--rounds 5] [--runtime 5]
"""

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def job(runtime: int) -> dict[str, object]:
    return {
        "name": "overhead-randread-4k",
        "rw": "randread",
        "bs": "4k",
        "iodepth": 16,
        "size": "64m",
        "runtime": runtime,
        "time_based": True,
        "direct": True,
        "ioengine": "libaio",
    }


def fio_direct(workdir: Path, runtime: int) -> float:
    """IOPS of the job run by hand, the way a user would run it."""
    argv = ["fio", "--output-format=json", f"--directory={workdir}"]
    argv += [f"--{k}={1 if v is True else v}" for k, v in job(runtime).items()]
    report = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
    return float(report["jobs"][0]["read"]["iops"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fio_started(scratch: Path) -> bool:
    return any(scratch.glob("storbench-run*/*"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runtime", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="storbench-bench-"))
    scratch = work / "scratch"
    scratch.mkdir()
    direct_dir = work / "direct"
    direct_dir.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "STORBENCH_DATA_DIR": str(work / "data"),
        "STORBENCH_ADMIN_PASSWORD": os.environ.get("STORBENCH_ADMIN_PASSWORD", "bench-password"),
        "STORBENCH_SECRET_KEY": os.environ.get("STORBENCH_SECRET_KEY", "bench-secret"),
    }
    processes: list[subprocess.Popen[bytes]] = []
    log = (work / "stack.log").open("wb")
    try:
        token_file = work / "worker.token"
        subprocess.run(
            [
                str(BIN / "storbench-api"),
                "bootstrap-host",
                "--name",
                "bench-host",
                "--scratch",
                str(scratch),
                "--token-file",
                str(token_file),
            ],
            env=env,
            check=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        processes.append(
            subprocess.Popen(
                [str(BIN / "storbench-api"), "serve", "--port", str(port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the API did not start; see " + str(work / "stack.log"))
            time.sleep(0.3)
        worker = subprocess.Popen(
            [
                str(BIN / "storbench-worker"),
                "--server",
                url,
                "--token-file",
                str(token_file),
                "--allow",
                str(scratch),
                "--state-dir",
                str(work / "worker"),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        processes.append(worker)
        token = httpx.post(
            f"{url}/api/v1/auth/token",
            data={"username": "admin@storbench.local", "password": env["STORBENCH_ADMIN_PASSWORD"]},
        ).json()
        api = httpx.Client(
            base_url=f"{url}/api/v1", headers={"Authorization": f"Bearer {token['access_token']}"}
        )
        while api.get("/hosts").json()["items"][0]["status"] != "online":
            time.sleep(0.3)
        target_id = api.get("/targets").json()["items"][0]["id"]

        direct_iops, storbench_iops, dispatch_s, worker_cpu_pct = [], [], [], []
        for round_no in range(1, args.rounds + 1):
            direct_iops.append(fio_direct(direct_dir, args.runtime))
            cpu_before = cpu_seconds(worker.pid)
            posted = time.monotonic()
            run = api.post("/runs", json={"target_id": target_id, "jobs": [job(args.runtime)]}).json()
            while not fio_started(scratch):
                time.sleep(0.01)
            dispatch_s.append(time.monotonic() - posted)
            while (done := api.get(f"/runs/{run['id']}").json())["status"] in ("queued", "running"):
                time.sleep(0.5)
            if done["status"] != "completed":
                raise SystemExit(f"run {run['id']} ended {done['status']}: {done['error']}")
            worker_cpu_pct.append(100 * (cpu_seconds(worker.pid) - cpu_before) / args.runtime)
            storbench_iops.append(done["results"][0]["directions"]["read"]["iops"])
            direct, measured = direct_iops[-1], storbench_iops[-1]
            print(f"round {round_no}: direct {direct:,.0f} IOPS, storbench {measured:,.0f} IOPS")

        def quantile(values: list[float], q: float) -> float:
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

        ratios = [s / d for s, d in zip(storbench_iops, direct_iops, strict=True)]
        print()
        print(f"{'':34}{'median':>12}")
        print(f"{'IOPS, fio run directly':34}{statistics.median(direct_iops):>12,.0f}")
        print(f"{'IOPS, through storbench':34}{statistics.median(storbench_iops):>12,.0f}")
        print(f"{'ratio storbench/direct':34}{statistics.median(ratios):>12.3f}   (target >= 0.99)")
        print(f"{'worker CPU during fio, %core':34}{statistics.median(worker_cpu_pct):>12.2f} (target < 1)")
        print(f"{'dispatch POST /runs -> fio, p50 s':34}{quantile(dispatch_s, 0.5):>12.3f}")
        print(f"{'dispatch POST /runs -> fio, p95 s':34}{quantile(dispatch_s, 0.95):>12.3f}")
        print(f"broker: {os.environ.get('STORBENCH_BROKER_URL', 'embedded filesystem')}")
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
