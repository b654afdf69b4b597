"""The OpenAPI schema tells the truth: Schemathesis, every check, against storbench as it is served.

The service runs as `storbench-api serve` does, once on its embedded default (SQLite, no PostgreSQL,
no Redis) and once on PostgreSQL; Schemathesis signs in as a team owner (tests/contract/hooks.py) and
applies every check of schemathesis.toml to every operation, in every phase: undocumented statuses or
content types, responses off their schema, schema-valid requests refused and invalid ones accepted,
methods a path does not take and their Allow header, resources gone after a DELETE or missing after a
POST. A few examples per operation keep it short; `scripts/schema_check.py` runs many more.

Each database is checked in its own process (tests/contract/conformance.py), both at once: Hypothesis
is not thread-safe, and the service and the checker each wait on the other half of the time.
"""

import subprocess
import sys
from pathlib import Path

from tests.contract.conformance import DATABASES

BACKEND = Path(__file__).resolve().parents[2]
EXAMPLES_PER_OPERATION = 5


def test_every_operation_answers_as_its_schema_says_on_sqlite_and_postgresql() -> None:
    runs = {
        database: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.contract.conformance",
                "--db",
                database,
                "--examples",
                str(EXAMPLES_PER_OPERATION),
            ],
            cwd=BACKEND,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for database in DATABASES
    }
    reports = {database: run.communicate(timeout=900)[0] for database, run in runs.items()}
    failed = {database: reports[database] for database, run in runs.items() if run.returncode != 0}
    assert not failed, "\n\n".join(
        f"==> {database}\n{report[-20000:]}" for database, report in failed.items()
    )
