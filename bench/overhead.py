"""Measurement overhead: the same fio job run directly and through storbench, interleaved.

Prints the median IOPS of each, their median ratio (storbench / direct; target >= 0.99), the
worker's CPU use while fio runs (target < 1% of one core) and the dispatch latency from POST /runs
to fio running. Starts its own API and worker (see benchstack.py) on the embedded default, or on
STORBENCH_DATABASE_URL / STORBENCH_BROKER_URL.

On a machine with few cores the API, its database and broker share the CPUs fio uses, which a
real target host does not: they run elsewhere. With --pin (the default when there are at least
two CPUs), fio's job runs on the last CPU in both arms (fio's own cpus_allowed option) and the
API is kept off it; the worker is left free to run anywhere, as it is on a real host, so its
own cost still shows.

    .venv/bin/python bench/overhead.py [--rounds 9] [--runtime 5] [--no-pin]
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import time
from pathlib import Path

import report
from benchstack import BenchStack, bench_workdir, nearest_rank, randread_4k_job, running_stack

JOB_NAME = "overhead-randread-4k"


def fio_direct(workdir: Path, job: dict[str, object]) -> float:
    """IOPS of the job run by hand, the way a user would run it."""
    argv = ["fio", "--output-format=json", f"--directory={workdir}"]
    argv += [f"--{k}={1 if v is True else v}" for k, v in job.items()]
    report = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
    return float(report["jobs"][0]["read"]["iops"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def keep_off_cpu(pid: int, cpu: int) -> None:
    """Every thread of a process (and what it starts later) on every CPU but this one."""
    others = set(range(os.cpu_count() or 1)) - {cpu}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), others)
        except OSError:
            pass


def measure_round(stack: BenchStack, direct_dir: Path, job: dict[str, object]) -> dict[str, float]:
    """One direct run and one storbench run of the same job, back to back."""
    direct = fio_direct(direct_dir, job)
    cpu_before = cpu_seconds(stack.worker.pid)
    posted = time.monotonic()
    created = stack.api.post("/runs", json={"target_id": stack.target_id, "jobs": [job]})
    created.raise_for_status()
    run_id = created.json()["id"]
    while not any(stack.scratch.glob("storbench-run*/*")):
        time.sleep(0.01)
    dispatch_s = time.monotonic() - posted
    while (done := stack.api.get(f"/runs/{run_id}").json())["status"] in ("queued", "running"):
        time.sleep(0.5)
    if done["status"] != "completed":
        raise SystemExit(f"run {run_id} ended {done['status']}: {done['error']}")
    runtime = float(job["runtime"])  # type: ignore[arg-type]
    return {
        "direct": direct,
        "storbench": float(done["results"][0]["directions"]["read"]["iops"]),
        "dispatch_s": dispatch_s,
        # What the worker measured of itself between fio's start and end.
        "worker_cpu_pct": float(done["assignments"][0]["worker_cpu_percent"]),
        # Seen from outside, over the whole run (prepare, layout, barrier, upload too), per second of fio.
        "worker_cpu_whole_run_pct": 100 * (cpu_seconds(stack.worker.pid) - cpu_before) / runtime,
    }


def bootstrap_median_ci(values: list[float], resamples: int = 10_000) -> tuple[float, float]:
    """95% interval of the median, by resampling the rounds (seeded: the same rounds print the same)."""
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runtime", type=int, default=5)
    parser.add_argument("--pin", action=argparse.BooleanOptionalAction, default=(os.cpu_count() or 1) >= 2)
    args = parser.parse_args()
    fio_cpu = (os.cpu_count() or 1) - 1
    job = randread_4k_job(JOB_NAME, args.runtime)
    if args.pin:
        job["cpus_allowed"] = str(fio_cpu)
    with bench_workdir("storbench-bench-") as work, running_stack(work) as stack:
        if args.pin:
            keep_off_cpu(stack.api_process.pid, fio_cpu)
        direct_dir = work / "direct"
        direct_dir.mkdir()
        rounds = []
        for round_no in range(1, args.rounds + 1):
            rounds.append(measure_round(stack, direct_dir, job))
            last = rounds[-1]
            ratio = last["storbench"] / last["direct"]
            figures = f"direct {last['direct']:,.0f} IOPS, storbench {last['storbench']:,.0f} IOPS"
            print(f"round {round_no}: {figures}, ratio {ratio:.3f}, worker CPU {last['worker_cpu_pct']:.2f}%")

    def column(name: str) -> list[float]:
        return [r[name] for r in rounds]

    ratios = [r["storbench"] / r["direct"] for r in rounds]
    print()
    print(f"{args.rounds} interleaved rounds of {args.runtime} s, 4k randread QD16 libaio direct")
    print(f"{'':40}{'median':>10}{'min':>10}{'max':>10}")
    for label, values, fmt in (
        ("IOPS, fio run directly", column("direct"), ",.0f"),
        ("IOPS, through storbench", column("storbench"), ",.0f"),
        ("ratio storbench/direct (target >= 0.99)", ratios, ".3f"),
        ("worker CPU while fio ran, % of a core", column("worker_cpu_pct"), ".2f"),
        ("  whole run seen from outside, %", column("worker_cpu_whole_run_pct"), ".2f"),
    ):
        print(f"{label:40}{statistics.median(values):>10{fmt}}{min(values):>10{fmt}}{max(values):>10{fmt}}")
    print(f"{'worker CPU target':40}{'< 1':>10}")
    low, high = bootstrap_median_ci(ratios)
    of_medians = statistics.median(column("storbench")) / statistics.median(column("direct"))
    print(f"{'ratio, 95% interval of the median':40}{low:>10.3f}{high:>10.3f}")
    print(f"{'ratio of the two medians':40}{of_medians:>10.3f}")
    dispatch = column("dispatch_s")
    p50, p95 = nearest_rank(dispatch, 0.5), nearest_rank(dispatch, 0.95)
    print(f"{'dispatch POST /runs -> fio, p50 / p95 s':40}{p50:>10.3f}{p95:>10.3f}")
    print(f"broker: {os.environ.get('STORBENCH_BROKER_URL', 'embedded filesystem')}")
    print("pinning: " + (f"fio on CPU {fio_cpu} in both arms, API kept off it" if args.pin else "none"))
    record_figures(args.rounds, args.runtime, ratios, column("worker_cpu_pct"), (p50, p95))


def record_figures(
    rounds: int, runtime: int, ratios: list[float], worker_cpu: list[float], dispatch: tuple[float, float]
) -> None:
    """The figures of make bench's report (bench/report.py)."""
    report.note("overhead", f"{rounds} interleaved rounds of {runtime} s, 4k randread QD16 libaio direct")
    ratio = statistics.median(ratios)
    report.record(
        "overhead", "IOPS ratio storbench / direct, median", round(ratio, 3), "", ">= 0.99", ratio >= 0.99
    )
    cpu = statistics.median(worker_cpu)
    report.record(
        "overhead", "worker CPU while fio ran, median", round(cpu, 2), "% of a core", "< 1", cpu < 1
    )
    report.record(
        "overhead", "dispatch POST /runs -> fio, p50 / p95", f"{dispatch[0]:.3f} / {dispatch[1]:.3f}", "s"
    )


if __name__ == "__main__":
    main()
