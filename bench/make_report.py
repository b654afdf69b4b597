"""`make bench`: run every bench, one after the other, and write bench/results/latest.md.

    .venv/bin/python bench/make_report.py [--only load,faults] [--skip history_scale]

Each bench records its figures through bench/report.py into a file of its own
(STORBENCH_BENCH_FIGURES); the report is assembled from those records (figure, value, unit,
target, verdict), with the machine, how each bench was run (its command line, so a smaller size
shows), how long it took, the load average around it and its exit status. The full output of each
bench goes to var/bench/NAME.log.
"""

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PY = str(ROOT / ".venv" / "bin" / "python")
REPORT = ROOT / "bench" / "results" / "latest.md"
LOGS = ROOT / "var" / "bench"


@dataclass(frozen=True)
class Bench:
    """One bench as make bench runs it; `size` says where that is smaller than the bench's default."""

    name: str
    args: list[str] = field(default_factory=list)
    size: str = ""


BENCHES = [
    Bench("overhead"),
    Bench("progress_latency"),
    Bench("cancel_latency"),
    Bench("start_skew"),
    # Its own database on the machine's PostgreSQL; Redis: STORBENCH_TEST_REDIS's db 10 when set.
    Bench(
        "sse_viewers",
        ["--redis-url", os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/10"],
    ),
    Bench("parse_speed"),
    Bench("compare_render"),
    Bench(
        "history_scale", ["--results", "1000000", "--no-explain"], "1M results (the bench's default is 10M)"
    ),
    Bench("edge_limits"),
    Bench("stats_truth"),
    Bench("load"),
    Bench("faults"),
]


def _command(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "not found"
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr) else "?"


def _postgres_version() -> str:
    import psycopg

    url = os.environ.get(
        "STORBENCH_BENCH_POSTGRES", "postgresql://storbench:storbench@127.0.0.1:5432/postgres"
    )
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute("SHOW server_version").fetchone()
    except psycopg.Error:
        return "unreachable"
    return str(row[0]) if row else "?"


def machine() -> list[str]:
    """What the figures were measured on."""
    memory_kib = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    postgres = _postgres_version()
    return [
        f"- cores: {os.cpu_count()} ({cpu}); memory: {memory_kib / 1024 / 1024:.1f} GiB",
        f"- kernel: {platform.release()}; {platform.platform()}",
        f"- Python {platform.python_version()}; PostgreSQL {postgres}",
        f"- {_command(['redis-server', '--version'])}",
        f"- {_command(['fio', '--version'])}; node {_command(['node', '--version'])}",
        "- the machine is shared with other engineers' builds and tests: the load average around each "
        "bench is given, and timings taken under a high one overstate what the product costs",
    ]


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def reused(bench: Bench) -> dict[str, Any]:
    """A bench not run again: the figures its last run recorded in var/bench (said so in the report)."""
    figures_path, log_path = LOGS / f"{bench.name}.jsonl", LOGS / f"{bench.name}.log"
    if not figures_path.exists():
        raise SystemExit(f"--reuse {bench.name}: {figures_path} does not exist (run the bench first)")
    written = datetime.fromtimestamp(figures_path.stat().st_mtime, UTC)
    records = [json.loads(line) for line in figures_path.read_text().splitlines()]
    records.insert(
        0, {"note": f"not run again: the figures its run of {written:%Y-%m-%d %H:%M} UTC recorded"}
    )
    tail = log_path.read_text(errors="replace").splitlines()[-15:] if log_path.exists() else []
    return {
        "bench": bench,
        "code": 0,
        "seconds": 0.0,
        "records": records,
        "tail": tail,
        "load": "(earlier run)",
    }


def run_bench(bench: Bench) -> dict[str, Any]:
    """Run one bench with its figures recorded to a file of its own; what the report says of it."""
    LOGS.mkdir(parents=True, exist_ok=True)
    figures_path, log_path = LOGS / f"{bench.name}.jsonl", LOGS / f"{bench.name}.log"
    figures_path.unlink(missing_ok=True)
    argv = [PY, str(ROOT / "bench" / f"{bench.name}.py"), *bench.args]
    print(f"==> bench {bench.name}: {shlex.join(argv[1:])}", flush=True)
    before, started = loadavg(), time.monotonic()
    with log_path.open("w") as log:
        code = subprocess.run(
            argv,
            cwd=ROOT,
            env={**os.environ, "STORBENCH_BENCH_FIGURES": str(figures_path)},
            stdout=log,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    seconds = time.monotonic() - started
    records = (
        [json.loads(line) for line in figures_path.read_text().splitlines()] if figures_path.exists() else []
    )
    tail = log_path.read_text(errors="replace").splitlines()[-15:]
    print(f"    exit {code} after {seconds:.0f} s, {len(records)} figures", flush=True)
    return {
        "bench": bench,
        "code": code,
        "seconds": seconds,
        "records": records,
        "tail": tail,
        "load": f"{before} before, {loadavg()} after",
    }


def section(outcome: dict[str, Any]) -> list[str]:
    """The report's part about one bench."""
    bench: Bench = outcome["bench"]
    command = shlex.join([f"bench/{bench.name}.py", *bench.args])
    lines = [f"## {bench.name}", ""]
    lines.append(
        f"`{command}` — {outcome['seconds']:.0f} s, exit status {outcome['code']}, "
        f"load average {outcome['load']}"
    )
    if bench.size:
        lines.append(f"Run smaller than its default here: {bench.size}.")
    lines += [f"- {r['note']}" for r in outcome["records"] if "note" in r]
    figures = [r for r in outcome["records"] if "figure" in r]
    if figures:
        lines += ["", "| figure | value | target | verdict |", "| --- | --- | --- | --- |"]
        for r in figures:
            value = f"{r['value']} {r['unit']}".strip()
            lines.append(f"| {r['figure']} | {value} | {r['target'] or '—'} | {r['verdict']} |")
    else:
        lines += ["", "No figures recorded; the end of its output:", "", "```", *outcome["tail"], "```"]
    return [*lines, ""]


def write_report(outcomes: list[dict[str, Any]], comment: str = "") -> None:
    included = {o["bench"].name for o in outcomes}
    left_out = [b.name for b in BENCHES if b.name not in included]
    missed = [
        f"{o['bench'].name}: {r['figure']}"
        for o in outcomes
        for r in o["records"]
        if r.get("verdict") == "missed"
    ]
    failed = [o["bench"].name for o in outcomes if o["code"] != 0 or not o["records"]]
    lines = [
        "# storbench benchmarks (`make bench`)",
        "",
        f"Written {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by bench/make_report.py from the figures each bench "
        "recorded (bench/report.py). Every process ran on this machine, all traffic on loopback.",
        "",
        "## Machine",
        *machine(),
        "",
        "## Summary",
        f"- benches run: {len(outcomes)}, in {sum(o['seconds'] for o in outcomes) / 60:.0f} min; slowest: "
        + ", ".join(
            f"{o['bench'].name} {o['seconds'] / 60:.0f} min"
            for o in sorted(outcomes, key=lambda o: -o["seconds"])[:4]
        ),
        f"- targets missed: {len(missed)}" + ("" if not missed else " — " + "; ".join(missed)),
        f"- benches that failed or recorded nothing: {', '.join(failed) or 'none'}",
        f"- benches not in this report (left out with --only/--skip): {', '.join(left_out) or 'none'}",
        *([f"- {comment}"] if comment else []),
        "",
    ]
    for outcome in outcomes:
        lines += section(outcome)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines))
    print(f"==> report: {REPORT.relative_to(ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", help="comma-separated bench names")
    parser.add_argument("--skip", default="", help="comma-separated bench names")
    parser.add_argument(
        "--reuse",
        default="",
        help="comma-separated bench names whose last recorded figures (var/bench) to use",
    )
    parser.add_argument("--comment", default="", help="a line for the summary (why a run was narrowed)")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    skip, reuse = set(filter(None, args.skip.split(","))), set(filter(None, args.reuse.split(",")))
    outcomes = [
        reused(b) if b.name in reuse else run_bench(b)
        for b in BENCHES
        if (only is None or b.name in only or b.name in reuse) and b.name not in skip
    ]
    write_report(outcomes, args.comment)
    return 0 if all(o["code"] == 0 for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
