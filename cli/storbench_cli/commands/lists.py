"""`storbench targets|hosts|plans|presets`: the team's resources as tables."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..api import Api
from ..display import format_timestamp, render_table
from ..errors import EXIT_OK


def _job_names(jobs: list[dict[str, Any]]) -> str:
    names = [str(job.get("name", "?")) for job in jobs]
    shown = ", ".join(names[:4])
    return shown + (f" (+{len(names) - 4})" if len(names) > 4 else "")


@dataclass(frozen=True)
class Listing:
    """How one list endpoint is shown."""

    command: str
    path: str
    help: str
    headers: tuple[str, ...]
    row: Callable[[dict[str, Any]], list[str]]
    right: tuple[str, ...] = ("id",)
    # Paged with limit/offset ({items, total}); an unpaged list answers every item at once.
    paged: bool = True


LISTINGS = (
    Listing(
        "targets",
        "/targets",
        "list storage targets",
        ("id", "name", "host", "kind", "path", "storage class", "destructive"),
        lambda t: [
            str(t["id"]),
            t["name"],
            t["host_name"],
            t["kind"],
            t["path"],
            t["storage_class"] or "-",
            "yes" if t["destructive"] else "no",
        ],
    ),
    Listing(
        "hosts",
        "/hosts",
        "list hosts and whether their workers are online",
        ("id", "name", "status", "fio", "last seen"),
        lambda h: [
            str(h["id"]),
            h["name"],
            h["status"],
            h["fio_version"] or "-",
            format_timestamp(h["last_seen_at"]),
        ],
    ),
    Listing(
        "plans",
        "/plans",
        "list saved plans",
        ("id", "name", "jobs", "preset", "created"),
        lambda p: [
            str(p["id"]),
            p["name"],
            _job_names(p["jobs"]),
            p["preset_id"] or "-",
            format_timestamp(p["created_at"]),
        ],
    ),
    Listing(
        "presets",
        "/presets",
        "list published recipes (use the id with `run --preset`)",
        ("id", "measures", "target kind", "jobs", "name"),
        lambda p: [p["id"], p["measures"], p["target_kind"], str(len(p["jobs"])), p["name"]],
        right=("jobs",),
        paged=False,
    ),
)


def add_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register one command per listing."""
    for listing in LISTINGS:
        parser = commands.add_parser(
            listing.command, parents=[parent], help=listing.help, description=listing.help
        )
        parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
        parser.set_defaults(handler=_handler(listing))


def _handler(listing: Listing) -> Callable[[Api, argparse.Namespace], int]:
    def execute(api: Api, args: argparse.Namespace) -> int:
        items = api.list_all(listing.path) if listing.paged else api.get(listing.path)["items"]
        if args.format == "json":
            print(json.dumps(items, indent=2))
        elif items:
            print(render_table(listing.headers, [listing.row(item) for item in items], right=listing.right))
        else:
            print(f"no {listing.command} yet", file=sys.stderr)
        return EXIT_OK

    return execute
