"""The SPA's API types and API fixtures, generated from the API itself: the OpenAPI schema is the contract.

    .venv/bin/python scripts/openapi.py           # regenerate (make api-types, npm run gen:api)
    .venv/bin/python scripts/openapi.py --check   # make lint: exit 1 naming each stale file
    .venv/bin/python scripts/openapi.py --schema  # print the OpenAPI schema (JSON)

What it writes:
- frontend/src/lib/api/schema.d.ts: openapi-typescript's rendering of app.openapi(). The application is
  built in-process (create_app, nothing served): the schema is whatever the routes and models declare.
- frontend/src/lib/api/figures.json: the answer of GET /figures, the vocabulary of figures (label, unit,
  which way is better) the SPA labels and formats every figure by (frontend/src/lib/figures.ts).
- frontend/src/test/fixtures/*.json: real exchanges with the same application (request and answer), on
  a throwaway embedded database (SQLite in a temporary directory, migrated, its first admin signed in
  through POST /auth/token), so the SPA's tests render what the API really sends. A backend test
  (backend/tests/contract/) replays them against the application on PostgreSQL.

Nothing here depends on this machine's configuration: every STORBENCH_* variable is dropped first.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import logging
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FRONTEND = ROOT / "frontend"
OPENAPI_TYPESCRIPT = FRONTEND / "node_modules" / ".bin" / "openapi-typescript"
REGENERATE = "make api-types"
SCHEMA_TYPES = "frontend/src/lib/api/schema.d.ts"
FIGURES = "frontend/src/lib/api/figures.json"
MAX_DIFF_LINES = 60


@dataclass(frozen=True)
class Exchange:
    """One request to the API (path relative to /api/v1) and the status it must answer."""

    method: str
    path: str
    body: Any = None
    status: int = 200


# A job as the SPA's plan editor sends it, sizes typed in fio's units.
TYPED_JOB = {
    "name": "job1",
    "rw": "randread",
    "bs": "4k",
    "iodepth": 32,
    "numjobs": 1,
    "size": "1MiB",
    "runtime": 60,
    "time_based": True,
    "direct": True,
    "ioengine": "libaio",
}

# Real exchanges with the API that the SPA's tests replay: fixture file -> request.
FIXTURES = {
    "frontend/src/test/fixtures/presets.json": Exchange("GET", "/presets"),
    # fio reads "1MiB" as 1,000,000 bytes under its default kb_base, "4k" as 4,096.
    "frontend/src/test/fixtures/validate-jobs-sizes.json": Exchange(
        "POST", "/fio/validate-jobs", {"jobs": [TYPED_JOB]}
    ),
    "frontend/src/test/fixtures/validate-jobs-rejected.json": Exchange(
        "POST", "/fio/validate-jobs", {"jobs": [{**TYPED_JOB, "bs": "4q", "iodepth": 0}]}, status=422
    ),
}


class Api:
    """The application as `storbench-api serve` builds it, on a throwaway embedded database."""

    def __init__(self, scratch: Path) -> None:
        for name in [name for name in os.environ if name.startswith("STORBENCH_")]:
            del os.environ[name]
        os.environ["STORBENCH_DATA_DIR"] = str(scratch / "data")
        os.environ["STORBENCH_SPA_DIR"] = str(scratch / "no-spa")
        # Only warnings and errors: not Alembic's line per migration nor a line per request.
        logging.disable(logging.INFO)
        from storbench_api.main import create_app

        self.app = create_app(run_sweeper=False)
        self._token: str | None = None

    def schema(self) -> str:
        """The OpenAPI schema; sorted keys, so the same application always gives the same text."""
        return json.dumps(self.app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def answer(self, exchange: Exchange) -> Any:
        """The JSON body the API answers to a request, asked as the first admin (a real sign-in)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the test client's own deprecation notices
            from fastapi.testclient import TestClient

            client = TestClient(self.app)
        response = client.request(
            exchange.method,
            f"/api/v1{exchange.path}",
            json=exchange.body,
            headers={"Authorization": f"Bearer {self._sign_in(client)}"},
        )
        if response.status_code != exchange.status:
            sys.exit(
                f"{exchange.method} /api/v1{exchange.path} answered {response.status_code}, "
                f"not {exchange.status}: {response.text[:500]}"
            )
        return response.json()

    def _sign_in(self, client: Any) -> str:
        if self._token is None:
            from storbench_api.cli import ensure_admin, migrate
            from storbench_api.settings import get_settings

            with contextlib.redirect_stdout(io.StringIO()):  # "created first admin ..."
                migrate()
                ensure_admin()
            settings = get_settings()
            response = client.post(
                "/api/v1/auth/token",
                data={"username": settings.admin_email, "password": settings.admin_password},
            )
            if response.status_code != 200:
                sys.exit(f"signing in to the throwaway API failed ({response.status_code}): {response.text}")
            self._token = str(response.json()["access_token"])
        return self._token


def write_schema_types(api: Api, out: Path) -> None:
    """The schema as TypeScript types, by openapi-typescript (types only, nothing at run time)."""
    if not OPENAPI_TYPESCRIPT.exists():
        sys.exit(f"{OPENAPI_TYPESCRIPT.relative_to(ROOT)} is missing: run `cd frontend && npm ci` first")
    with tempfile.TemporaryDirectory(prefix="storbench-openapi-") as tmp:
        schema = Path(tmp) / "openapi.json"
        schema.write_text(api.schema(), encoding="utf-8")
        result = subprocess.run(
            [
                str(OPENAPI_TYPESCRIPT),
                str(schema),
                "--output",
                str(out),
                # A property is optional exactly when the schema does not list it as required. By
                # default openapi-typescript also makes every property with a default required, in
                # request bodies too: the SPA would have to send what the API defaults.
                "--default-non-nullable",
                "false",
            ],
            cwd=FRONTEND,
            capture_output=True,
            text=True,
            check=False,
        )
    if result.returncode != 0:
        sys.exit(f"openapi-typescript failed:\n{result.stdout}{result.stderr}")


def fixture(exchange: Exchange) -> Callable[[Api, Path], None]:
    """A generator writing the request and the API's real answer, as the SPA's tests replay them."""

    def write(api: Api, out: Path) -> None:
        recorded = {
            "request": {"method": exchange.method, "path": f"/api/v1{exchange.path}", "body": exchange.body},
            "response": {"status": exchange.status, "body": api.answer(exchange)},
        }
        out.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    return write


def answer(exchange: Exchange) -> Callable[[Api, Path], None]:
    """A generator writing only the API's answer, for the SPA to build on (not just to test with)."""

    def write(api: Api, out: Path) -> None:
        body = api.answer(exchange)
        out.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    return write


GENERATED: dict[str, Callable[[Api, Path], None]] = {
    SCHEMA_TYPES: write_schema_types,
    FIGURES: answer(Exchange("GET", "/figures")),
    **{path: fixture(exchange) for path, exchange in FIXTURES.items()},
}


def generate_all(api: Api, into: Path) -> None:
    """Every generated file, under `into` at its path relative to the repository."""
    for relative, generate in GENERATED.items():
        out = into / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        generate(api, out)


def stale_files(fresh_root: Path) -> list[str]:
    """The committed files that differ from their fresh versions, each with the start of its diff printed."""
    stale = []
    for relative in GENERATED:
        committed, fresh = ROOT / relative, fresh_root / relative
        old = committed.read_text(encoding="utf-8").splitlines(keepends=True) if committed.exists() else []
        new = fresh.read_text(encoding="utf-8").splitlines(keepends=True)
        if old == new:
            continue
        stale.append(relative)
        diff = list(difflib.unified_diff(old, new, f"{relative} (committed)", f"{relative} (the API now)"))
        print(f"{relative} differs from what the API now generates:")
        sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff[:MAX_DIFF_LINES])
        if len(diff) > MAX_DIFF_LINES:
            print(f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)")
        print()
    return stale


def main(argv: list[str] | None = None) -> int:
    """Regenerate, check, or print the schema."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1, naming each stale file")
    mode.add_argument("--schema", action="store_true", help="print the OpenAPI schema and exit")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="storbench-openapi-") as tmp:
        api = Api(Path(tmp))
        if args.schema:
            sys.stdout.write(api.schema())
            return 0
        if not args.check:
            generate_all(api, ROOT)
            for relative in GENERATED:
                print(f"wrote {relative}")
            return 0
        generate_all(api, Path(tmp) / "fresh")
        stale = stale_files(Path(tmp) / "fresh")
    if stale:
        sys.stdout.flush()
        print(
            f"API contract drift: {len(stale)} generated file(s) no longer match the API "
            f"({', '.join(stale)}).\n"
            f"Run `{REGENERATE}` (or `cd frontend && npm run gen:api`), fix what "
            "`cd frontend && npm run lint` and the frontend tests then report,\n"
            "and commit the regenerated files.",
            file=sys.stderr,
        )
        return 1
    print(f"API contract: {', '.join(GENERATED)} match the API")
    return 0


if __name__ == "__main__":
    sys.exit(main())
