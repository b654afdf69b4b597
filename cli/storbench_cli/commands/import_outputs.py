"""`storbench import`: store fio outputs measured elsewhere in the team's result history."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from .. import resolve
from ..api import Api
from ..errors import EXIT_FAILED, EXIT_OK, ApiError

# Without valid credentials every other file would be refused the same way: stop at the first.
_FATAL_STATUSES = frozenset({401, 403})


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `import` and its options."""
    parser = commands.add_parser(
        "import",
        parents=[parent],
        help="import fio outputs into the result history",
        description="Upload fio outputs (json, json+, client/server, status-interval stream or text); "
        "each file is imported on its own, and a refused file does not stop the others.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="fio output files")
    parser.add_argument("--target", metavar="NAME", help="the target the outputs were measured on")
    parser.add_argument("--storage-class", metavar="TEXT", help="storage class to file them under")
    parser.add_argument("--host-name", metavar="TEXT", help="host name, when fio's output does not say")
    parser.add_argument("--label", metavar="TEXT", help="label (default: the target name or the file name)")
    parser.set_defaults(handler=execute)


def _date(stamp: str | None) -> str:
    """An API timestamp as a person reads it: 2026-11-23 15:45 UTC."""
    if not stamp:
        return "an earlier date"
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return stamp
    return when.strftime("%Y-%m-%d %H:%M UTC")


def execute(api: Api, args: argparse.Namespace) -> int:
    """Import every file; exit 1 if any was unreadable or refused (one already imported is neither)."""
    form = {
        "target_id": str(resolve.target(api, args.target)["id"]) if args.target else None,
        "storage_class": args.storage_class,
        "host_name": args.host_name,
        "label": args.label,
    }
    data = {key: value for key, value in form.items() if value is not None}
    failed = False
    unfiled = 0
    for path in args.files:
        try:
            content = path.read_bytes()
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=sys.stderr)
            failed = True
            continue
        try:
            imported = api.request("POST", "/results/import", files={"file": (path.name, content)}, data=data)
        except ApiError as exc:
            if exc.status in _FATAL_STATUSES:
                raise
            print(f"{path}: refused: {exc.message}", file=sys.stderr)
            for detail in exc.details:
                print(f"  - {detail}", file=sys.stderr)
            failed = True
            continue
        ids = [str(result["id"]) for result in imported["results"]]
        stored = f"1 result (id {ids[0]})" if len(ids) == 1 else f"{len(ids)} results (ids {', '.join(ids)})"
        version = imported["fio_version"] or "fio version unknown"
        if imported.get("duplicate"):
            # Not a failure: the history already holds exactly this output.
            first = _date(imported.get("first_stored_at"))
            print(f"{path}: already imported on {first}, as {stored}; not stored again")
            continue
        print(f"{path}: {imported['source_format']}, {version}, {stored}")
        unfiled += 0 if args.target else len(ids)
        for notice in imported.get("notices") or []:
            print(f"{path}: notice: {notice}", file=sys.stderr)
    if unfiled:
        print(
            "not filed under a target: History lists them by host name and job; "
            "`storbench file --target NAME RESULT_ID...` files them later",
            file=sys.stderr,
        )
    return EXIT_FAILED if failed else EXIT_OK
