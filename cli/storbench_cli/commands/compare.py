"""`storbench compare`: results side by side against a baseline, as a table, JSON or CSV."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..api import Api
from ..display import MISSING, render_table
from ..errors import EXIT_OK, UsageError
from ..figures import Vocabulary, format_figure

MAX_IDS = 200
# The figures whose verdicts are spelled out under the table.
HEADLINE_FIGURES = ("iops", "bw_bytes", "clat_p99_ns")


def _result_id(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a result id (a positive whole number), got {text!r}")
    return int(text)


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `compare`."""
    parser = commands.add_parser(
        "compare",
        parents=[parent],
        help="compare results side by side",
        description="Results side by side against a baseline: what differs in how they were measured, "
        "every figure with its change, and whether repetitions show a real change or noise.",
    )
    parser.add_argument(
        "ids", nargs="+", type=_result_id, metavar="ID", help="result ids (see `storbench results`)"
    )
    parser.add_argument(
        "--baseline", type=_result_id, metavar="ID", help="the result to compare against (the first)"
    )
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output format")
    parser.set_defaults(handler=execute)


# Words, not colour: a terminal or a pasted log loses colour.
VERDICT_WORDS = {
    "better": "better",
    "worse": "worse",
    "no_change": "no change",
    "cant_tell": "can't tell",
    "too_few": "too few",
}


def _delta(cell: dict[str, Any], is_reference: bool) -> str:
    if is_reference:
        return "baseline"
    pct = cell.get("delta_pct")
    text = MISSING if pct is None else f"{pct:+.1f} %"
    verdict = cell.get("verdict")
    if verdict:
        text += " " + VERDICT_WORDS.get(verdict["kind"], verdict["kind"])
    return text


def comparison_text(comparison: dict[str, Any], figures: Vocabulary) -> str:
    """Differences first, then one row per figure with each side's value and change, then the verdicts."""
    sides = comparison["sides"]
    lines = []
    titles = [
        f"[{s['index']}] {s['title']} (n={s['n']}{', baseline' if s['is_baseline'] else ''})" for s in sides
    ]
    lines.extend(titles)
    lines.append("")
    if comparison["differences"]:
        lines.append("measured differently:")
        rows = [
            [d["key"], *("not known" if v is None else str(v) for v in d["values"])]
            for d in comparison["differences"]
        ]
        lines.append(render_table(("setting", *(f"[{s['index']}]" for s in sides)), rows))
    else:
        lines.append("every side was measured the same way")
    lines.append("")
    rows = []
    for row in comparison["rows"]:
        name = figures.label(row["figure"])
        label = name if row["direction"] == "job" else f"{row['direction']} {name}"
        cells = []
        for side, cell in zip(sides, row["cells"], strict=True):
            cells.extend([format_figure(row["unit"], cell["value"]), _delta(cell, side["is_baseline"])])
        rows.append([label, *cells])
    headers = ["figure"]
    for side in sides:
        headers.extend([f"[{side['index']}]", f"[{side['index']}] Δ"])
    lines.append(render_table(headers, rows, right=headers[1:]))
    verdicts = [
        f"[{i}] {figures.label(row['figure'])} {row['direction']}: "
        + cell["verdict"]["text"]
        + (
            f" (why this test: {cell['verdict']['test_reason']})"
            if cell["verdict"].get("test_reason")
            else ""
        )
        for row in comparison["rows"]
        if row["figure"] in HEADLINE_FIGURES
        for i, cell in enumerate(row["cells"])
        if cell["verdict"] and not sides[i]["is_baseline"]
    ]
    if verdicts:
        lines.append("")
        lines.extend(verdicts)
    return "\n".join(lines)


def execute(api: Api, args: argparse.Namespace) -> int:
    """Print the comparison."""
    ids = list(dict.fromkeys(args.ids))
    if len(ids) > MAX_IDS:
        raise UsageError(f"{len(ids)} results given; a comparison takes at most {MAX_IDS}")
    if args.baseline is not None and args.baseline not in ids:
        raise UsageError(f"--baseline {args.baseline} is not among the ids compared; pick one of them")
    params = {"ids": ",".join(map(str, ids)), "baseline": args.baseline}
    if args.format == "csv":
        sys.stdout.write(api.get_text("/compare/export", {**params, "format": "csv"}))
        return EXIT_OK
    comparison = api.get("/compare", params)
    if args.format == "json":
        print(json.dumps(comparison, indent=2))
    else:
        print(comparison_text(comparison, Vocabulary.of(api)))
    return EXIT_OK
