"""`storbench results`: the team's result history as a table, CSV or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from storbench_protocol.csv_export import write_csv as write_csv_rows

from .. import resolve
from ..api import Api
from ..display import format_timestamp, render_table
from ..errors import EXIT_OK
from ..figures import Vocabulary, clat_percentile_ns, directions, figure_cells

API_MAX_PAGE = 1000  # GET /results accepts at most this limit per page

CSV_COLUMNS = (
    "result_id",
    "measured_at",
    "created_at",
    "run_id",
    "target_id",
    "label",
    "storage_class",
    "host_name",
    "job_name",
    "fio_version",
    "direction",
    "iops",
    "bw_bytes",
    "io_bytes",
    "runtime_ms",
    "lat_mean_ns",
    "clat_p50_ns",
    "clat_p99_ns",
    "clat_p99_9_ns",
    "imported",
    "partial",
)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `results` and its filters."""
    parser = commands.add_parser(
        "results",
        parents=[parent],
        help="list the result history",
        description="Results of runs and imports, newest measured first (an import's date is the one "
        "its fio output carries; `measured` is shown in local time, exported in UTC).",
    )
    parser.add_argument("--target", metavar="NAME", help="only results on this target")
    parser.add_argument("--storage-class", metavar="TEXT", help="only results of this storage class")
    origin = parser.add_mutually_exclusive_group()
    origin.add_argument("--imported", dest="imported", action="store_const", const=True, help="only imports")
    origin.add_argument("--measured", dest="imported", action="store_const", const=False, help="only runs")
    parser.add_argument("--job", metavar="NAME", help="only results of fio jobs with this name")
    parser.add_argument("--limit", type=_positive, default=100, metavar="N", help="at most N results (100)")
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    parser.set_defaults(handler=execute)


def fetch(api: Api, filters: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Up to `limit` results, newest first, following the API's page cursors past its largest page."""
    items: list[dict[str, Any]] = []
    cursor = None
    while len(items) < limit:
        page_size = min(limit - len(items), API_MAX_PAGE)
        page = api.get("/results", {**filters, "limit": page_size, "cursor": cursor})
        items.extend(page["items"])
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return items


def write_csv(results: list[dict[str, Any]], out: TextIO) -> None:
    """One row per result and direction under CSV_COLUMNS."""
    rows: list[list[Any]] = []
    for result in results:
        for name, direction in directions(result):
            lat = direction.get("lat_ns") or {}
            row = {
                "result_id": result["id"],
                "measured_at": result["measured_at"],
                "created_at": result["created_at"],
                "run_id": result["run_id"],
                "target_id": result["target_id"],
                "label": result["label"],
                "storage_class": result["storage_class"],
                "host_name": result["host_name"],
                "job_name": result["job_name"],
                "fio_version": result["fio_version"],
                "direction": name,
                "iops": direction["iops"],
                "bw_bytes": direction["bw_bytes"],
                "io_bytes": direction["io_bytes"],
                "runtime_ms": direction["runtime_ms"],
                "lat_mean_ns": lat.get("mean_ns"),
                "clat_p50_ns": clat_percentile_ns(direction, "50"),
                "clat_p99_ns": clat_percentile_ns(direction, "99"),
                "clat_p99_9_ns": clat_percentile_ns(direction, "99.9"),
                "imported": result["imported"],
                "partial": result["partial"],
            }
            rows.append([row[column] for column in CSV_COLUMNS])
    # The API's export writer: text a spreadsheet would run as a formula is neutralised.
    write_csv_rows(out, CSV_COLUMNS, rows)


def _origin(result: dict[str, Any]) -> str:
    origin = "imported" if result["imported"] else f"run {result['run_id']}"
    return origin + (", partial" if result["partial"] else "")


def results_table(results: list[dict[str, Any]], figures: Vocabulary) -> str:
    """One row per result and direction with the key figures."""
    rows = [
        [
            str(result["id"]),
            format_timestamp(result["measured_at"]),
            result["job_name"],
            result["host_name"],
            result["label"] or "-",
            result["storage_class"] or "-",
            *figure_cells(name, direction),
            _origin(result),
        ]
        for result in results
        for name, direction in directions(result)
    ]
    numbers = figures.table_headers()[1:]
    headers = ("id", "measured", "job", "host", "label", "class", "dir", *numbers, "origin")
    return render_table(headers, rows, right=("id", *numbers))


def execute(api: Api, args: argparse.Namespace) -> int:
    """Print the filtered history."""
    filters = {
        "target_id": resolve.target(api, args.target)["id"] if args.target else None,
        "storage_class": args.storage_class,
        "imported": None if args.imported is None else str(args.imported).lower(),
        "job_name": args.job,
    }
    results = fetch(api, filters, args.limit)
    if args.format == "json":
        print(json.dumps(results, indent=2))
    elif args.format == "csv":
        write_csv(results, sys.stdout)
    elif results:
        print(results_table(results, Vocabulary.of(api)))
    else:
        print("no results match", file=sys.stderr)
    return EXIT_OK
