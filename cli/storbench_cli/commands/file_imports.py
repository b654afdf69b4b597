"""`storbench file`: file imports that have no target under one of the team's targets."""

from __future__ import annotations

import argparse
from typing import Any

from .. import resolve
from ..api import Api
from ..errors import EXIT_OK, UsageError


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `file` and its options."""
    parser = commands.add_parser(
        "file",
        parents=[parent],
        help="file imports without a target under a target",
        description="File imported results under a target: they are then judged by its storage class, "
        "counted in its history and watched for regressions. Without ids and --host-name, lists the "
        "imports waiting for a target, by host name and job.",
    )
    parser.add_argument("ids", nargs="*", type=int, metavar="RESULT_ID", help="imported results to file")
    parser.add_argument("--target", metavar="NAME", help="the target to file them under")
    parser.add_argument("--host-name", metavar="TEXT", help="every unfiled import of this host name")
    parser.add_argument("--job", metavar="NAME", help="with --host-name: only this job's imports")
    parser.set_defaults(handler=execute)


def _list_unfiled(api: Api) -> int:
    groups: list[dict[str, Any]] = api.get("/results/unfiled")["items"]
    if not groups:
        print("every import is filed under a target")
        return EXIT_OK
    for group in groups:
        ways = "" if group["fingerprints"] == 1 else f", measured {group['fingerprints']} ways"
        print(
            f"{group['host_name']}  {group['job_name']}: {group['results']} import"
            f"{'s' if group['results'] != 1 else ''}{ways}, last {group['last_measured_at'][:10]}"
        )
    print("file them with: storbench file --target NAME --host-name HOST [--job JOB]")
    return EXIT_OK


def execute(api: Api, args: argparse.Namespace) -> int:
    """File the imports named, or list those waiting for a target."""
    if not args.ids and args.host_name is None:
        if args.target or args.job:
            raise UsageError("name the imports to file: RESULT_ID ... or --host-name HOST [--job JOB]")
        return _list_unfiled(api)
    if args.ids and args.host_name is not None:
        raise UsageError("give result ids or --host-name, not both")
    if args.job and args.host_name is None:
        raise UsageError("--job narrows --host-name: give --host-name too")
    if not args.target:
        raise UsageError("--target NAME is required to file imports")
    body: dict[str, Any] = {"target_id": int(resolve.target(api, args.target)["id"])}
    if args.ids:
        body["result_ids"] = args.ids
    else:
        body["host_name"] = args.host_name
        if args.job:
            body["job_name"] = args.job
    filed = api.request("POST", "/results/file", json=body)
    count = len(filed["result_ids"])
    print(
        f"filed {count} import{'s' if count != 1 else ''} under target '{filed['target_name']}' "
        f"(host {filed['target_host_name']})"
    )
    for notice in filed.get("notices") or []:
        print(f"notice: {notice}")
    return EXIT_OK
