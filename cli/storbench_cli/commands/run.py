"""`storbench run`: start a plan, preset or job file on a target, and optionally follow it to the end."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import resolve
from ..api import Api
from ..display import format_bandwidth, format_iops, format_latency, render_table
from ..errors import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    ApiError,
    CliError,
    UsageError,
)
from ..figures import Vocabulary, directions, figure_cells
from ..interrupts import ctrl_c_handled
from ..verdict import verdict_lines

TERMINAL = frozenset({"completed", "failed", "cancelled"})
POLL_INTERVAL_S = 1.0
MAX_REPETITIONS = 100  # as POST /runs accepts


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `run` and its options."""
    parser = commands.add_parser(
        "run",
        parents=[parent],
        help="start a run on a target",
        description="Start a plan, preset, fio job file or JSON jobs on a target. "
        "With --wait, follow it and print what it measured; Ctrl-C then cancels the run.",
    )
    parser.add_argument(
        "--target", required=True, metavar="NAME", help="target name (see `storbench targets`)"
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--plan", metavar="NAME", help="a saved plan (see `storbench plans`)")
    source.add_argument("--preset", metavar="ID", help="a published recipe (see `storbench presets`)")
    source.add_argument(
        "--job-file", metavar="FILE", type=Path, help="an fio job file or fio command line ('-' reads stdin)"
    )
    source.add_argument(
        "--jobs-json",
        metavar="FILE",
        type=Path,
        help="a JSON list of jobs, each an object of fio options ('-' reads stdin)",
    )
    parser.add_argument(
        "--confirm-destructive",
        action="store_true",
        help="allow writes to a block device (destroys its data)",
    )
    parser.add_argument(
        "--hosts",
        metavar="NAME[,NAME…]",
        help="more hosts that mount the target's path; all start fio at the same moment",
    )
    parser.add_argument("--host-label", metavar="LABEL", help="also run on every host carrying this label")
    parser.add_argument(
        "--repetitions",
        type=_repetitions,
        default=1,
        metavar="N",
        help="run the jobs N times in a row (1-100), so comparisons can tell a change from noise",
    )
    parser.add_argument(
        "--label", metavar="TEXT", help="what the team calls this run, e.g. 'after firmware 2.1'"
    )
    parser.add_argument("--note", metavar="TEXT", help="a note kept with the run")
    parser.add_argument(
        "--wait",
        action="store_true",
        help="follow the run to its end and print the results with their verdict "
        "(spec, previous run, worst finding)",
    )
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.set_defaults(handler=execute)


def _repetitions(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if not 1 <= value <= MAX_REPETITIONS:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_REPETITIONS}, got {text!r}")
    return value


def _read_text(path: Path) -> str:
    """A file's text, or stdin's for '-'."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise UsageError(f"cannot read {path}: {reason}") from exc


def _jobs_from_json(path: Path) -> list[dict[str, Any]]:
    """Jobs from a JSON file: a list of objects, or {"jobs": [...]} as the API and plans show them."""
    try:
        loaded = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON: {exc}") from exc
    jobs = loaded.get("jobs") if isinstance(loaded, dict) else loaded
    if not isinstance(jobs, list) or not jobs or not all(isinstance(job, dict) for job in jobs):
        raise UsageError(f'{path} must hold a non-empty JSON list of job objects (or {{"jobs": [...]}})')
    return jobs


def _run_body(api: Api, args: argparse.Namespace, target_id: int) -> dict[str, Any]:
    """The POST /runs body for the chosen source of jobs."""
    body: dict[str, Any] = {
        "target_id": target_id,
        "confirm_destructive": args.confirm_destructive,
        "repetitions": args.repetitions,
    }
    if args.label is not None:
        body["label"] = args.label
    if args.note is not None:
        body["note"] = args.note
    if args.hosts:
        body["host_ids"] = resolve.hosts(api, [n.strip() for n in args.hosts.split(",") if n.strip()])
    if args.host_label:
        body["host_label"] = args.host_label
    if args.plan is not None:
        body["plan_id"] = resolve.plan(api, args.plan)["id"]
    elif args.preset is not None:
        body["preset_id"] = resolve.preset(api, args.preset)["id"]
    elif args.job_file is not None:
        # The service parses job files with the same rules it runs them by; errors name the option.
        read = api.post("/fio/validate", {"text": _read_text(args.job_file)})
        print_notices(read.get("notices") or [])
        body["jobs"] = read["jobs"]
    else:
        body["jobs"] = _jobs_from_json(args.jobs_json)
    return body


def print_notices(notices: list[dict[str, Any]]) -> None:
    """How the service read a pasted text where that differs from its letter, as the web UI shows it."""
    for notice in notices:
        read = f"{notice['option']}={notice['value']}" if notice.get("value") else notice["option"]
        print(f"read as: {read}: {notice['message']}", file=sys.stderr)


def _progress(message: str) -> None:
    stamp = datetime.now().strftime("%H:%M:%S")
    print(f"{stamp} {message}", file=sys.stderr, flush=True)


def _where(run: dict[str, Any]) -> str:
    return f"target {run['target']['name']} on host {run['host']['name']}"


def follow(api: Api, run: dict[str, Any]) -> dict[str, Any]:
    """Poll the run every second until it ends, reporting each status change on stderr."""
    last_status = None
    while True:
        if run["status"] != last_status:
            last_status = run["status"]
            where = f" ({_where(run)})" if last_status == "queued" else ""
            _progress(f"run {run['id']} {last_status}{where}")
        if run["status"] in TERMINAL:
            return run
        time.sleep(POLL_INTERVAL_S)
        run = api.get(f"/runs/{run['id']}")


def cancel_after_interrupt(api: Api, run_id: int) -> int:
    """Ctrl-C while following a run: cancel it on the service so fio stops on its host."""
    print(f"\ninterrupted: cancelling run {run_id}", file=sys.stderr, flush=True)
    # The interrupted request may have left a half-read connection in the pool.
    api.reconnect()
    try:
        cancelled = api.post(f"/runs/{run_id}/cancel")
        print(f"run {run_id} {cancelled['status']}", file=sys.stderr)
    except ApiError as exc:
        # Typically 409: the run ended on its own just before the cancel arrived.
        print(f"run {run_id} not cancelled: {exc.message}", file=sys.stderr)
    except CliError as exc:
        print(f"run {run_id} may still be running: {exc.message}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"run {run_id} may still be running", file=sys.stderr)
    return EXIT_INTERRUPTED


def results_table(run: dict[str, Any], figures: Vocabulary) -> str:
    """One row per result (job × host) and direction."""
    rows: list[list[str]] = []
    for result in run["results"]:
        job = result["job_name"]
        if run.get("repetitions", 1) > 1:
            job += f" #{result.get('repetition', 0) + 1}"
        job += " (partial)" if result.get("partial") else ""
        rows.extend([job, result["host_name"], *figure_cells(name, d)] for name, d in directions(result))
    headers = figures.table_headers()
    return render_table(("job", "host", *headers), rows, right=headers[1:])


def _print_run(api: Api, run: dict[str, Any], output_format: str) -> None:
    if output_format == "json":
        print(json.dumps(run, indent=2))
        return
    source = f", plan {run['plan_name']}" if run.get("plan_name") else ""
    label = f", label {run['label']}" if run.get("label") else ""
    print(f"run {run['id']} {run['status']} ({_where(run)}{source}{label})")
    if run["status"] not in TERMINAL or not run["results"]:
        return
    figures = Vocabulary.of(api)
    print(results_table(run, figures))
    aggregate = run.get("aggregate")
    if aggregate:
        print(aggregate_lines(aggregate))
    print()
    print("\n".join(verdict_lines(api, run, figures)))


def aggregate_lines(aggregate: dict[str, Any]) -> str:
    """The multi-host aggregate: totals over the common window and merged percentiles."""
    skew = aggregate.get("start_skew_ms")
    lines = [
        f"aggregate of {aggregate['hosts']} hosts over {aggregate['window_s']:.1f} s"
        + (f", start skew {skew:.1f} ms" if skew is not None else "")
    ]
    for name, direction in aggregate["directions"].items():
        p = direction.get("clat_percentiles_ns") or {}
        lines.append(
            f"  {name}: {format_iops(direction['iops'])} IOPS, {format_bandwidth(direction['bw_bytes'])}, "
            f"p50 {format_latency(p.get('50'))}, p99 {format_latency(p.get('99'))}, "
            f"p99.9 {format_latency(p.get('99.9'))}"
        )
    return "\n".join(lines)


_STARTING = (
    "\ninterrupted: the run is being started and is cancelled as soon as the service answers "
    "(Ctrl-C again to stop waiting)"
)


def execute(api: Api, args: argparse.Namespace) -> int:
    """Start the run; with --wait, follow it and exit 1 unless it completed. Ctrl-C cancels it."""
    target = resolve.target(api, args.target)
    body = _run_body(api, args, target["id"])
    run: dict[str, Any] | None = None
    with ctrl_c_handled() as ctrl_c:
        try:
            with ctrl_c.deferred(_STARTING):
                run = api.post("/runs", body)
            if ctrl_c.pressed:
                return cancel_after_interrupt(api, run["id"])
            if not args.wait:
                _print_run(api, run, args.format)
                return EXIT_OK
            run = follow(api, run)
        except KeyboardInterrupt:
            if run is None:
                print("\nstopped waiting: the run may have been started (see the Runs page)", file=sys.stderr)
                return EXIT_INTERRUPTED
            return cancel_after_interrupt(api, run["id"])
        except CliError as exc:
            if run is not None:
                # The run goes on without us; say which one, so the user can find it again.
                exc.details.append(f"run {run['id']} was started and may still be queued or running")
            raise
    _print_run(api, run, args.format)
    if run["status"] == "completed":
        return EXIT_OK
    print(f"error: run {run['id']} {run['status']}: {run.get('error') or 'no reason given'}", file=sys.stderr)
    return EXIT_FAILED
