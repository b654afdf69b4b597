"""Cancel latency: from POST /runs/{id}/cancel to fio gone, its files removed and its partial result kept.

The requirement: cancel stops fio within 2 s (SIGINT, then SIGKILL to the process group), leaves no
fio process and no scratch file behind, and keeps what was measured so far, marked partial. Each
round starts a long 4k randread run, waits until fio runs and at least one progress sample is stored,
waits a further random 0-1 s (seeded) so the cancel does not always land at the same point of fio's
second, then POSTs the cancel and watches, for seconds after the POST:

  (a) fio gone           no fio process left whose command line names the scratch dir or whose cwd
                         is inside it (read from /proc)                               (target < 2 s)
  (b) scratch empty      nothing left in the stack's scratch dir
  (c) partial stored     GET /runs/{id} returns the run's results (any not marked partial is counted)

/proc and the scratch dir are read every 10 ms, the API asked every 50 ms; a moment is taken after
the look that saw it, so each figure is at most one interval late, never early. Anything still there
15 s after the cancel is counted as left behind (and then removed, so the next round starts clean).
Figures only, never a pass/fail.

    .venv/bin/python bench/cancel_latency.py [--rounds 5] [--runtime 60] [--seed 1]
"""

import argparse
import os
import random
import shutil
import signal
import statistics
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import report
from benchstack import BenchStack, bench_workdir, nearest_rank, randread_4k_job, running_stack

TARGET_S = 2.0
LEFT_BEHIND_AFTER_S = 15.0
LOOK_S = 0.01
ASK_API_S = 0.05
RUNNING_TIMEOUT_S = 120.0


@dataclass
class RoundFigures:
    """Seconds from the cancel POST to each moment of one round; None when it did not come in time."""

    run_id: int
    since_last_report_s: float | None
    fio_gone_s: float | None = None
    scratch_empty_s: float | None = None
    partial_stored_s: float | None = None
    results: int = 0
    not_partial: int = 0


def fio_pids_in(scratch: Path) -> list[int]:
    """fio processes (main and job processes) whose command line names scratch or whose cwd is in it."""
    needle = os.fsencode(scratch)
    found = []
    with os.scandir("/proc") as entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline_file:
                    cmdline = cmdline_file.read()
                if os.path.basename(cmdline.split(b"\0", 1)[0]) != b"fio":
                    continue
                if needle in cmdline or Path(os.readlink(f"/proc/{entry.name}/cwd")).is_relative_to(scratch):
                    found.append(int(entry.name))
            except OSError:
                continue  # gone while we looked
    return found


def scratch_entries(scratch: Path) -> list[Path]:
    return list(scratch.iterdir())


def start_long_run(stack: BenchStack, runtime: int) -> int:
    job = randread_4k_job("cancel-randread-4k", runtime)
    run = stack.api.post("/runs", json={"target_id": stack.target_id, "jobs": [job]})
    run.raise_for_status()
    return int(run.json()["id"])


def wait_for_fio_and_a_sample(stack: BenchStack, run_id: int) -> None:
    """Until fio runs in the scratch dir and the server holds at least one progress sample."""
    deadline = time.monotonic() + RUNNING_TIMEOUT_S
    while time.monotonic() < deadline:
        progress = stack.api.get(f"/runs/{run_id}/progress").json()
        if progress["status"] in ("completed", "failed", "cancelled"):
            raise SystemExit(f"run {run_id} ended {progress['status']} before it could be cancelled")
        samples = sum(len(host["samples"]) for host in progress["hosts"])
        if samples and fio_pids_in(stack.scratch):
            return
        time.sleep(ASK_API_S)
    raise SystemExit(f"run {run_id}: no fio with a progress sample within {RUNNING_TIMEOUT_S:.0f} s")


def seconds_since_last_report(stack: BenchStack, run_id: int, cancelled_wall: float) -> float | None:
    """Where in fio's second the cancel landed: time since fio's last report before it (one clock here)."""
    progress = stack.api.get(f"/runs/{run_id}/progress").json()
    reports = [
        datetime.fromisoformat(sample["measured_at"]).timestamp()
        for host in progress["hosts"]
        for sample in host["samples"]
        if sample["measured_at"]
    ]
    earlier = [at for at in reports if at <= cancelled_wall]
    return cancelled_wall - max(earlier) if earlier else None


def watch_cancel(stack: BenchStack, run_id: int, cancelled_at: float, figures: RoundFigures) -> None:
    """Look until fio is gone, the scratch dir is empty and the partial result is stored, or 15 s passed."""
    next_ask = cancelled_at
    while time.monotonic() - cancelled_at < LEFT_BEHIND_AFTER_S:
        if figures.fio_gone_s is None and not fio_pids_in(stack.scratch):
            figures.fio_gone_s = time.monotonic() - cancelled_at
        if figures.scratch_empty_s is None and not scratch_entries(stack.scratch):
            figures.scratch_empty_s = time.monotonic() - cancelled_at
        if figures.partial_stored_s is None and time.monotonic() >= next_ask:
            results = stack.api.get(f"/runs/{run_id}").json()["results"]
            if results:
                figures.partial_stored_s = time.monotonic() - cancelled_at
                figures.results = len(results)
                figures.not_partial = sum(not result["partial"] for result in results)
            next_ask = time.monotonic() + ASK_API_S
        if None not in (figures.fio_gone_s, figures.scratch_empty_s, figures.partial_stored_s):
            return
        time.sleep(LOOK_S)


def clear_leftovers(stack: BenchStack) -> None:
    """What a failed round left behind must not spoil the next one."""
    for pid in fio_pids_in(stack.scratch):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for entry in scratch_entries(stack.scratch):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def measure_round(stack: BenchStack, runtime: int, rng: random.Random) -> RoundFigures:
    """One long run, cancelled a random 0-1 s after its first progress sample."""
    run_id = start_long_run(stack, runtime)
    wait_for_fio_and_a_sample(stack, run_id)
    time.sleep(rng.uniform(0.0, 1.0))
    cancelled_wall = time.time()
    cancelled_at = time.monotonic()
    stack.api.post(f"/runs/{run_id}/cancel").raise_for_status()
    figures = RoundFigures(run_id, since_last_report_s=None)
    watch_cancel(stack, run_id, cancelled_at, figures)
    figures.since_last_report_s = seconds_since_last_report(stack, run_id, cancelled_wall)
    if figures.fio_gone_s is None or figures.scratch_empty_s is None:
        clear_leftovers(stack)
    return figures


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def print_round(round_no: int, figures: RoundFigures) -> None:
    print(
        f"round {round_no}: run {figures.run_id}, cancel {seconds(figures.since_last_report_s)} after "
        f"fio's last report; fio gone {seconds(figures.fio_gone_s)}, "
        f"scratch empty {seconds(figures.scratch_empty_s)}, "
        f"partial result {seconds(figures.partial_stored_s)} ({figures.results} results)"
    )


def print_table(rounds: list[RoundFigures], runtime: int) -> None:
    print()
    print(
        f"cancel latency, {len(rounds)} rounds of a {runtime} s 4k randread job cancelled 0-1 s after "
        "its first sample, seconds from POST cancel"
    )
    print(f"  {'moment':44}{'median':>8}{'p95':>8}{'max':>8}{'rounds':>8}")
    rows = (
        ("(a) no fio process in the scratch dir", [r.fio_gone_s for r in rounds]),
        ("(b) scratch dir empty", [r.scratch_empty_s for r in rounds]),
        ("(c) partial result stored (GET /runs/{id})", [r.partial_stored_s for r in rounds]),
    )
    for label, seen in rows:
        values = [v for v in seen if v is not None]
        if not values:
            print(f"  {label:44}{'-':>8}{'-':>8}{'-':>8}{0:>8}")
            continue
        median, high, worst = statistics.median(values), nearest_rank(values, 0.95), max(values)
        print(f"  {label:44}{median:>8.3f}{high:>8.3f}{worst:>8.3f}{len(values):>8}")
    within = sum(r.fio_gone_s is not None and r.fio_gone_s <= TARGET_S for r in rounds)
    print(f"  target: (a) within {TARGET_S:.0f} s; {within} of {len(rounds)} rounds were")
    left = f"left after {LEFT_BEHIND_AFTER_S:.0f} s (should be 0)"
    print(
        f"  rounds with a fio process {left}: {sum(r.fio_gone_s is None for r in rounds)}; "
        f"with a scratch file {left}: {sum(r.scratch_empty_s is None for r in rounds)}"
    )
    not_partial, results = sum(r.not_partial for r in rounds), sum(r.results for r in rounds)
    print(
        f"  rounds without a stored result after {LEFT_BEHIND_AFTER_S:.0f} s: "
        f"{sum(r.partial_stored_s is None for r in rounds)}; "
        f"results not marked partial: {not_partial} of {results}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runtime", type=int, default=60, help="fio runtime of each run, seconds")
    parser.add_argument("--seed", type=int, default=1, help="seeds the moment of each cancel")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rounds: list[RoundFigures] = []
    with bench_workdir("storbench-cancel-") as work, running_stack(work) as stack:
        for round_no in range(1, args.rounds + 1):
            rounds.append(measure_round(stack, args.runtime, rng))
            print_round(round_no, rounds[-1])
    print_table(rounds, args.runtime)
    name = "cancel_latency"
    report.note(
        name, f"{args.rounds} rounds of a {args.runtime} s 4k randread job cancelled 0-1 s after a sample"
    )
    gone = [r.fio_gone_s for r in rounds]
    report.record_spread(name, "cancel -> no fio process", [v for v in gone if v is not None], "s", TARGET_S)
    report.record_spread(
        name, "cancel -> scratch empty", [r.scratch_empty_s for r in rounds if r.scratch_empty_s], "s"
    )
    report.record_spread(
        name, "cancel -> partial result", [r.partial_stored_s for r in rounds if r.partial_stored_s], "s"
    )
    report.record(name, "rounds leaving a fio process behind", gone.count(None), "", "0", None not in gone)


if __name__ == "__main__":
    main()
