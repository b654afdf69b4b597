"""`storbench host revoke|rotate NAME`: a host's credential, for team owners."""

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
        help="revoke a host or give it a new worker token (owners)",
        description="Revoke a host (its token and broker access stop at once, its queued and running "
        "runs fail, its results stay) or rotate its worker token (the new one is printed once).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    revoke = actions.add_parser("revoke", parents=[parent], help="revoke a host")
    revoke.add_argument("name", help="the host's name")
    revoke.set_defaults(handler=_revoke)
    rotate = actions.add_parser("rotate", parents=[parent], help="give a host a new worker token")
    rotate.add_argument("name", help="the host's name")
    rotate.set_defaults(handler=_rotate)


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
