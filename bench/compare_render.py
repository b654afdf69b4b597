"""How long a compare page with 50 results takes to render in headless Chromium (target: under 1 s).

Starts its own API and worker (bench/benchstack.py, embedded SQLite unless STORBENCH_DATABASE_URL
says otherwise) serving the built web UI (frontend/dist: `cd frontend && npm run build` first),
imports 50 results — 5 storage classes × 2 job shapes × 5 repetitions, reshaped from one real fio
output so that every side has repetitions and every figure a significance test with its bootstrap
interval — and opens /compare?ids=<the 50>&baseline=<the first> --loads times in Debian's Chromium
(bench/compare_render.mjs, Playwright from e2e/node_modules). A load counts from navigation start
to the moment the page shows the fingerprint differences, the side-by-side figures, the verdicts
and the grouped table. Prints each load, the median (first load included: the browser's cache is
per page, the JavaScript comes from the disk cache after the first), the median until the grouped
chart (drawn once the rest is on screen) showed too, and GET /compare alone (server time as a
client sees it) for comparison. Figures only, never a pass/fail.

    .venv/bin/python bench/compare_render.py [--loads 7]
"""

import argparse
import copy
import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import report
from benchstack import ADMIN_EMAIL, ROOT, bench_workdir, running_stack

CLASSES = ("NAS capacity", "NAS performance", "CFS standard", "CFS turbo", "ESSD PL1")
SHAPES = (("randread-4k", "randread", "4k", 4096, 32), ("read-1m", "read", "1m", 1 << 20, 8))
REPETITIONS = 5
TARGET_MS = 1000.0


def template(scratch: Path) -> dict[str, Any]:
    """One real fio json+ output (a second of 4 KiB random reads in the bench's scratch directory)."""
    argv = [
        "fio",
        "--name=t",
        "--rw=randread",
        "--bs=4k",
        "--size=4m",
        "--runtime=1",
        "--time_based",
        "--ioengine=psync",
        "--output-format=json+",
        f"--directory={scratch}",
    ]
    out: dict[str, Any] = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
    return out


def shaped(base: dict[str, Any], shape: tuple[str, str, str, int, int], iops: float, at: int) -> str:
    """The output as if the job of this shape read at iops (bandwidth and latency to match)."""
    name, rw, bs, block, iodepth = shape
    out = copy.deepcopy(base)
    out["timestamp"], out["timestamp_ms"] = at, at * 1000
    job = out["jobs"][0]
    job["jobname"] = name
    job["job options"] = {
        "name": name,
        "rw": rw,
        "bs": bs,
        "iodepth": str(iodepth),
        "ioengine": "libaio",
        "direct": "1",
        "runtime": "60",
        "time_based": "1",
        "size": "4g",
    }
    read = job["read"]
    mean_ns = iodepth / iops * 1e9
    read.update(iops=iops, bw_bytes=int(iops * block), bw=int(iops * block / 1024))
    for key in ("lat_ns", "clat_ns"):
        read[key].update(mean=mean_ns, min=mean_ns / 4, max=mean_ns * 8)
        for percentile in list((read[key].get("percentile") or {}).keys()):
            read[key]["percentile"][percentile] = int(mean_ns * (3 if percentile.startswith("99") else 1))
    return json.dumps(out)


def import_results(stack: Any, base: dict[str, Any]) -> list[int]:
    """50 imported results; their ids."""
    ids = []
    at = 1_780_000_000
    for c, storage_class in enumerate(CLASSES):
        for shape in SHAPES:
            for r in range(REPETITIONS):
                at += 600
                iops = (
                    (10_000 + 4_000 * c)
                    * (1 + 0.01 * ((r * 7) % 5 - 2))
                    / (1 if shape[1] == "randread" else 8)
                )
                files = {"file": ("out.json", shaped(base, shape, iops, at).encode(), "application/json")}
                data = {"storage_class": storage_class, "label": storage_class}
                answer = stack.api.post("/results/import", files=files, data=data)
                answer.raise_for_status()
                ids.append(int(answer.json()["results"][0]["id"]))
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="page loads to measure (7)")
    args = parser.parse_args()
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        raise SystemExit("build the web UI first: cd frontend && npm run build")
    with bench_workdir("storbench-compare-render-") as work, running_stack(work) as stack:
        ids = import_results(stack, template(stack.scratch))
        path = f"/compare?ids={','.join(map(str, ids))}&baseline={ids[0]}"
        api_ms = []
        for _ in range(args.loads):
            started = time.perf_counter()
            stack.api.get(
                "/compare", params={"ids": ",".join(map(str, ids)), "baseline": ids[0]}
            ).raise_for_status()
            api_ms.append((time.perf_counter() - started) * 1000)
        password = os.environ.get("STORBENCH_ADMIN_PASSWORD", "bench-password")
        done = subprocess.run(
            [
                "node",
                str(ROOT / "bench" / "compare_render.mjs"),
                stack.url,
                path,
                ADMIN_EMAIL,
                password,
                str(args.loads),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the browser run failed:\n{done.stderr or done.stdout}")
        measured = json.loads(done.stdout.strip().splitlines()[-1])
    times = [float(t) for t in measured["times_ms"]]
    chart_times = [float(t) for t in measured["chart_times_ms"]]
    print(
        f"compare page, {len(ids)} results ({len(CLASSES)} classes × {len(SHAPES)} job shapes × "
        f"{REPETITIONS} repetitions), {measured['figure_rows']} figure rows, headless Chromium"
    )
    print("  loads (ms): " + ", ".join(f"{t:.0f}" for t in times))
    print(
        f"  render median: {statistics.median(times):.0f} ms (target < {TARGET_MS:.0f} ms; "
        f"first {times[0]:.0f} ms, best {min(times):.0f} ms)"
    )
    print(
        f"  with the grouped chart drawn too: median {statistics.median(chart_times):.0f} ms "
        f"(loads: {', '.join(f'{t:.0f}' for t in chart_times)})"
    )
    print(f"  GET /compare alone: median {statistics.median(api_ms):.0f} ms")
    load = os.getloadavg()
    print(f"  load average during the run: {load[0]:.1f} (1 min) on {os.cpu_count()} CPUs")
    median = statistics.median(times)
    report.note("compare_render", f"{len(ids)} results, {len(times)} loads in headless Chromium")
    report.record(
        "compare_render",
        "compare page render, median",
        round(median),
        "ms",
        f"< {TARGET_MS:.0f} ms",
        median < TARGET_MS,
    )
    report.record(
        "compare_render", "with the grouped chart drawn, median", round(statistics.median(chart_times)), "ms"
    )
    report.record("compare_render", "GET /compare alone, median", round(statistics.median(api_ms)), "ms")


if __name__ == "__main__":
    main()
