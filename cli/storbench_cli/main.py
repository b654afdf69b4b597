"""The `storbench` command: argument parsing, configuration, and one exit code per outcome."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import __version__
from .api import Api
from .commands import (
    check,
    compare,
    file_imports,
    host,
    import_outputs,
    lists,
    plan_capacity,
    results,
    run,
)
from .errors import EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, CliError, UsageError

DEFAULT_URL = "http://127.0.0.1:8000"


def _connection_options() -> argparse.ArgumentParser:
    """--url and --token, accepted before and after the command name."""
    # SUPPRESS keeps a subcommand's unset option from overwriting one given before the command.
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("connection")
    group.add_argument(
        "--url",
        default=argparse.SUPPRESS,
        help=f"storbench service URL (env STORBENCH_URL, default {DEFAULT_URL})",
    )
    group.add_argument("--token", default=argparse.SUPPRESS, help="API bearer token (env STORBENCH_TOKEN)")
    return parent


def build_parser() -> argparse.ArgumentParser:
    """The full command-line grammar."""
    parent = _connection_options()
    parser = argparse.ArgumentParser(
        prog="storbench",
        parents=[parent],
        description="Command-line client of storbench: run fio benchmarks on your hosts and "
        "work with the team's result history through the REST API.",
        epilog="exit codes: 0 success; 1 run failed or cancelled, or a result/import problem; "
        "2 usage error, request refused (4xx) or service unreachable; 3 `check` found a regression; "
        "130 interrupted; 141 the program reading the output stopped (e.g. `| head`)",
    )
    parser.add_argument("--version", action="version", version=f"storbench {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    run.add_parser(commands, parent)
    import_outputs.add_parser(commands, parent)
    file_imports.add_parser(commands, parent)
    results.add_parser(commands, parent)
    lists.add_parsers(commands, parent)
    host.add_parser(commands, parent)
    check.add_parser(commands, parent)
    compare.add_parser(commands, parent)
    plan_capacity.add_parser(commands, parent)
    return parser


def _connect(args: argparse.Namespace) -> Api:
    """The API client configured by flags, then environment, then defaults."""
    url = getattr(args, "url", None) or os.environ.get("STORBENCH_URL") or DEFAULT_URL
    token = getattr(args, "token", None) or os.environ.get("STORBENCH_TOKEN")
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"the service URL must start with http:// or https://, got '{url}'")
    if not token:
        raise UsageError(
            "no API token: set STORBENCH_TOKEN or pass --token (sign in with POST /api/v1/auth/token)"
        )
    return Api(url, token)


def _report(error: CliError) -> None:
    print(f"error: {error.message}", file=sys.stderr)
    for detail in error.details:
        print(f"  - {detail}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        with _connect(args) as api:
            code: int = args.handler(api, args)
        sys.stdout.flush()
    except CliError as error:
        _report(error)
        return error.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `storbench presets | head`: the reader left before we were done. Python's documented way:
        # point stdout at /dev/null so that the flush at exit has nowhere to fail, and end quietly,
        # with the status a shell gives a program that SIGPIPE ended.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED
    return code
