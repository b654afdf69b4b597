"""`storbench host revoke|rotate|remove|delete NAME`, `storbench host rename NAME NEW`: a team's hosts.

Revoke, rotate, remove and delete are for team owners; rename for members and owners.
"""

from __future__ import annotations

import argparse
import sys

from .. import resolve
from ..api import Api
from ..errors import EXIT_OK


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `host` with its actions."""
    parser = commands.add_parser(
        "host",
        parents=[parent],
        help="revoke, rotate, rename, remove or delete a host",
        description="Revoke a host (its token and broker access stop at once, its queued and running "
        "runs fail, its results stay), rotate its worker token (the new one is printed once), rename "
        "it, remove it from the team (gone from lists, its runs and results stay) or delete a host "
        "whose worker never connected.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    revoke = actions.add_parser("revoke", parents=[parent], help="revoke a host")
    revoke.add_argument("name", help="the host's name")
    revoke.set_defaults(handler=_revoke)
    rotate = actions.add_parser("rotate", parents=[parent], help="give a host a new worker token")
    rotate.add_argument("name", help="the host's name")
    rotate.set_defaults(handler=_rotate)
    rename = actions.add_parser("rename", parents=[parent], help="give a host a new name")
    rename.add_argument("name", help="the host's name")
    rename.add_argument("new_name", metavar="NEW_NAME", help="its new name (unique in the team)")
    rename.set_defaults(handler=_rename)
    remove = actions.add_parser(
        "remove", parents=[parent], help="remove a host from the team, keeping its runs and results"
    )
    remove.add_argument("name", help="the host's name")
    remove.set_defaults(handler=_remove)
    delete = actions.add_parser("delete", parents=[parent], help="delete a host whose worker never connected")
    delete.add_argument("name", help="the host's name")
    delete.set_defaults(handler=_delete)


def _revoke(api: Api, args: argparse.Namespace) -> int:
    (host_id,) = resolve.hosts(api, [args.name])
    host = api.post(f"/hosts/{host_id}/revoke")
    print(f"host {host['name']} revoked: its token no longer works; its results stay")
    return EXIT_OK


def _rotate(api: Api, args: argparse.Namespace) -> int:
    (host_id,) = resolve.hosts(api, [args.name])
    credential = api.post(f"/hosts/{host_id}/rotate-credential")
    # The token alone on stdout, for a pipe into the worker's token file; the advice on stderr.
    print(credential["worker_token"])
    print(
        f"new worker token for {args.name} (shown once): put it in the worker's token file "
        "(storbench-worker --token-file) and restart the worker; the old token no longer works",
        file=sys.stderr,
    )
    return EXIT_OK


def _rename(api: Api, args: argparse.Namespace) -> int:
    (host_id,) = resolve.hosts(api, [args.name])
    host = api.request("PATCH", f"/hosts/{host_id}", json={"name": args.new_name})
    print(f"host {args.name} is now {host['name']}: start its worker with --name {host['name']} from now on")
    return EXIT_OK


def _remove(api: Api, args: argparse.Namespace) -> int:
    (host_id,) = resolve.hosts(api, [args.name])
    api.post(f"/hosts/{host_id}/remove")
    print(
        f"host {args.name} removed: its token no longer works and it leaves the lists; "
        "its runs and results stay"
    )
    return EXIT_OK


def _delete(api: Api, args: argparse.Namespace) -> int:
    (host_id,) = resolve.hosts(api, [args.name])
    api.request("DELETE", f"/hosts/{host_id}")
    print(f"host {args.name} deleted, with its targets")
    return EXIT_OK
