"""`storbench check`: fail a CI pipeline when the newest run of a plan on a target regressed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import resolve
from ..api import Api
from ..display import render_table
from ..errors import EXIT_OK
from ..figures import Vocabulary, format_figure

# Not 1 (a run failed) nor 2 (usage): a pipeline can tell "slower" from "broken".
EXIT_REGRESSION = 3


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `check`."""
    parser = commands.add_parser(
        "check",
        parents=[parent],
        help="exit 3 when the newest run of a plan on a target is a regression",
        description="Compare the newest run of a plan on a target with the history of each of its "
        "figures (IOPS, bandwidth, mean and p99 latency per job and direction). Exits 3 when a figure "
        "is in a regression nobody acknowledged, 0 otherwise; prints why either way.",
        epilog="exit codes: 0 no unacknowledged regression (or nothing measured yet); "
        "3 regression; 2 usage error or request refused",
    )
    parser.add_argument("--plan", required=True, metavar="NAME_OR_ID", help="a saved plan")
    parser.add_argument("--target", required=True, metavar="NAME_OR_ID", help="the target it ran on")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(handler=execute)


def _regression_text(series: dict[str, Any], figures: Vocabulary) -> str:
    """One regression in the units `run` prints: 'ci-read read IOPS: 20,000 → 14,000 (-30.0%)…'."""
    change = series["change_point"]
    unit = figures.unit(series["metric"])
    return (
        f"{series['job_name']} {series['direction']} {figures.label(series['metric'])}: "
        f"{format_figure(unit, change['before_median'])} → {format_figure(unit, change['after_median'])} "
        f"({(change['ratio'] - 1) * 100:+.1f}%), regression since result {change['result_id']}, "
        "not acknowledged"
    )


def _summary(verdict: dict[str, Any], figures: Vocabulary) -> str:
    """The service's conclusion; a regression's figures in the units of the table above."""
    regressed = [
        s for s in verdict["series"] if s["status"] == "regression" and s.get("change_point") is not None
    ]
    if not regressed:
        return str(verdict["message"])
    return "; ".join(_regression_text(s, figures) for s in regressed)


def _row(series: dict[str, Any], figures: Vocabulary) -> list[str]:
    change = series.get("change_point") or {}
    since = f"result {change['result_id']} ({(change['ratio'] - 1) * 100:+.1f}%)" if change else ""
    unit = figures.unit(series["metric"])
    return [
        series["job_name"],
        series["direction"],
        figures.label(series["metric"]),
        format_figure(unit, series["value"]),
        format_figure(unit, series["history_median"]),
        series["status"],
        since,
    ]


def execute(api: Api, args: argparse.Namespace) -> int:
    """Ask the service, print the verdict, return 3 on a regression."""
    plan = resolve.plan(api, args.plan)
    target = resolve.target(api, args.target)
    verdict = api.get("/history/check", {"plan_id": plan["id"], "target_id": target["id"]})
    if args.format == "json":
        json.dump(verdict, sys.stdout, indent=2)
        print()
    else:
        figures = Vocabulary.of(api)
        if verdict["series"]:
            print(
                render_table(
                    ["JOB", "DIR", "FIGURE", "NEWEST", "HISTORY MEDIAN", "STATUS", "CHANGE SINCE"],
                    [_row(s, figures) for s in verdict["series"]],
                )
            )
        prefix = "REGRESSION" if verdict["regression"] else "OK"
        print(f"{prefix}: plan '{plan['name']}' on target '{target['name']}': {_summary(verdict, figures)}")
    return EXIT_REGRESSION if verdict["regression"] else EXIT_OK
