"""Schemathesis, every check, against a freshly started storbench: does the OpenAPI schema tell the truth?

    .venv/bin/python scripts/schema_check.py                    # embedded (SQLite), then PostgreSQL
    .venv/bin/python scripts/schema_check.py --db sqlite -n 100 # one database, more examples
    .venv/bin/python scripts/schema_check.py -- --seed 1        # anything after -- goes to schemathesis

Each run starts `storbench-api serve` on a free port with a throwaway database (a SQLite file in a
temporary directory, or a fresh PostgreSQL database on the server `make services` runs), then runs
`schemathesis run --checks all` with backend/tests/contract/schemathesis.toml (its hooks sign in as a
team owner, give worker routes a host's token). The test suite runs the same checks with fewer
examples (backend/tests/contract/test_schema_conformance.py); this is the long run, by hand.
Exit status 1 when any check failed.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
CONFIG = ROOT / "backend" / "tests" / "contract" / "schemathesis.toml"
POSTGRES_ADMIN = os.environ.get(
    "STORBENCH_TEST_POSTGRES", "postgresql://storbench:storbench@127.0.0.1:5432/postgres"
)
POSTGRES_DB = "storbench_schema_check"
OWNER_EMAIL = "owner@schema-check.example"
OWNER_PASSWORD = "schema-check-password"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fresh_postgres_database() -> str:
    """Drop and create POSTGRES_DB; its SQLAlchemy URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(POSTGRES_DB)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(POSTGRES_DB)))
    base = POSTGRES_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{POSTGRES_DB}"


@contextmanager
def running_service(database: str, workdir: Path) -> Iterator[str]:
    """`storbench-api serve` on a free port; its base URL while it runs."""
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith("STORBENCH_")}
    env.update(
        STORBENCH_DATA_DIR=str(workdir / "data"),
        STORBENCH_SPA_DIR=str(workdir / "no-spa"),
        STORBENCH_DATABASE_URL=fresh_postgres_database() if database == "postgresql" else "",
        STORBENCH_SECRET_KEY="schema-check-secret",
        STORBENCH_ADMIN_EMAIL=OWNER_EMAIL,
        STORBENCH_ADMIN_PASSWORD=OWNER_PASSWORD,
    )
    log = (workdir / "api.log").open("wb")
    api = subprocess.Popen(
        [str(BIN / "storbench-api"), "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if api.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the API did not start:\n{(workdir / 'api.log').read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/v1/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        api.terminate()
        try:
            api.wait(timeout=15)
        except subprocess.TimeoutExpired:
            api.kill()
            api.wait()


def check(database: str, max_examples: int, extra: list[str]) -> int:
    """One schemathesis run against a fresh service on `database`; its exit status."""
    print(f"==> schemathesis --checks all against storbench on {database}", flush=True)
    with (
        tempfile.TemporaryDirectory(prefix="storbench-schema-check-") as tmp,
        running_service(database, Path(tmp)) as url,
    ):
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "backend"),
            "STORBENCH_CONTRACT_URL": url,
            "STORBENCH_CONTRACT_EMAIL": OWNER_EMAIL,
            "STORBENCH_CONTRACT_PASSWORD": OWNER_PASSWORD,
        }
        command = [
            str(BIN / "schemathesis"),
            "--config-file",
            str(CONFIG),
            "run",
            f"{url}/api/v1/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(max_examples),
            *extra,
        ]
        return subprocess.run(command, env=env, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    """Run the check on each database asked for."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("-n", "--max-examples", type=int, default=50, help="test cases per operation")
    parser.add_argument("extra", nargs="*", help="after --: more schemathesis options")
    args = parser.parse_args(argv)
    databases = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    failed = [db for db in databases if check(db, args.max_examples, args.extra) != 0]
    if failed:
        print(f"schemathesis found failures on {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"schemathesis found nothing on {', '.join(databases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
