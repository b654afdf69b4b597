"""One Schemathesis run, every check and every phase, against storbench freshly started on one database.

    cd backend && ../.venv/bin/python -m tests.contract.conformance --db sqlite --examples 5

Prints each failed check (operation, failure, a curl command that reproduces it) and exits 1 when
there is any. The contract test runs it once per database, both at once; `scripts/schema_check.py`
runs the schemathesis CLI with the same configuration, for longer runs and its full report.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from schemathesis.engine import Status, events, from_schema

from tests.contract import hooks
from tests.support.postgres import fresh_database
from tests.support.stack import running_stack

CONFIG = Path(__file__).with_name("schemathesis.toml")
DATABASES = ("sqlite", "postgresql")


def failures_of(schema: Any) -> list[str]:
    """Every failed check and engine error of one run of every phase (what `schemathesis run` reports)."""
    found: list[str] = []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        failure = check.failure_info.failure
                        found.append(
                            f"{failure.operation}: {failure.code} {failure.title}\n{failure.message}\n"
                            f"{check.failure_info.code_sample} (case {case_id})"
                        )
        elif isinstance(event, events.NonFatalError):
            found.append(f"{event.label}: error {event.value!r}")
        elif isinstance(event, events.FatalError):
            raise event.exception
        elif isinstance(event, events.EngineFinished):
            found.extend(f"{f.operation}: {f.code} {f.title}\n{f.message}" for f in event.failures)
    return found


REQUEST_TIMEOUT_S = 120


def check(database: str, examples: int, seed: int) -> list[str]:
    """Start storbench on `database` (embedded SQLite, or a fresh PostgreSQL database) and check it."""
    database_url = ""
    if database == "postgresql":
        database_url = fresh_database(f"{os.environ.get('STORBENCH_TEST_DB', 'storbench_test')}_contract")
    # The embedded broker in both: what the schema promises does not depend on the broker.
    with (
        tempfile.TemporaryDirectory(prefix=f"storbench-contract-{database}-") as workdir,
        running_stack(database_url, "", Path(workdir)) as stack,
    ):
        hooks.configure(stack.url, stack.admin_email, stack.admin_password)
        config = schemathesis.Config.from_path(CONFIG)
        config.update(seed=seed, max_failures=None)
        config.projects.override.generation.update(max_examples=examples)
        # Generous bounds, not a guess of speed: on a loaded 2-core machine the schema (and a slow
        # answer) took more than Schemathesis's default 10 s; a real hang still ends at 120 s.
        config.projects.override.update(request_timeout=REQUEST_TIMEOUT_S)
        schema = schemathesis.openapi.from_url(
            f"{stack.url}/api/v1/openapi.json", config=config, timeout=REQUEST_TIMEOUT_S
        )
        return failures_of(schema)


def main(argv: list[str] | None = None) -> int:
    """Check one database; print the failures; exit 1 when there is any."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=DATABASES, required=True)
    parser.add_argument("--examples", type=int, default=5, help="test cases per operation and phase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failures = check(args.db, args.examples, args.seed)
    for failure in failures:
        print(f"{failure}\n")
    print(f"{len(failures)} failed checks on {args.db}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
