"""Schemathesis drives every operation of the OpenAPI schema: no input may cause a server error."""

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from sqlalchemy.orm import Session

from storbench_api.db import get_db
from storbench_api.main import create_app
from storbench_api.models import AuthToken
from storbench_api.rate_limit import sign_in_window
from storbench_api.security import new_token, token_digest
from tests.conftest import Caller, make_host, make_target

# Operations that end the caller's own session would only make the rest of the run trivially 401.
SKIPPED = {("POST", "/api/v1/auth/logout"), ("POST", "/api/v1/auth/password")}


app = create_app(run_sweeper=False)
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)


@pytest.fixture(autouse=True)
def _app_uses_the_tests_session(db: Session) -> Iterator[None]:
    """Serve the schema's app from the test's rolled-back session."""

    def _db() -> Iterator[Session]:
        # As get_db: commit at the boundary, roll back what a failed request did.
        try:
            yield db
            db.commit()
        except Exception:
            db.rollback()
            raise

    app.dependency_overrides[get_db] = _db
    sign_in_window.reset()
    yield
    app.dependency_overrides.clear()


@pytest.fixture
def credentials(db: Session, owner: Caller) -> dict[str, Any]:
    """An owner with a host and a target, so generated ids sometimes hit real resources."""
    host, host_token = make_host(db, team=owner.team)
    make_target(db, host=host, path="/srv/fuzz")
    # Committed (to a savepoint), so a request that fails and rolls back cannot take them along.
    db.commit()
    return {"owner": owner, "host_token": host_token}


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_no_input_causes_a_server_error(case: Any, db: Session, credentials: dict[str, Any]) -> None:
    if (case.method.upper(), case.path) in SKIPPED or case.path.startswith("/api/v1/auth/token"):
        return
    if case.path.startswith("/api/v1/worker/"):
        token = credentials["host_token"]
    else:
        # A fresh session per example: an earlier example may have switched or ended the last one.
        owner: Caller = credentials["owner"]
        token = new_token("sbu")
        db.add(
            AuthToken(
                token_hash=token_digest(token), user_id=owner.user.id, team_id=owner.team.id, kind="session"
            )
        )
        db.commit()
    response = case.call(headers={"Authorization": f"Bearer {token}"})
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    )
