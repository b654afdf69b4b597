"""The SPA's API fixtures are what this API answers: each recorded exchange, replayed on PostgreSQL.

`make api-types` (scripts/openapi.py) records them from the embedded app into
frontend/src/test/fixtures/; the SPA's tests render them. Here the same requests go to the app on
the test database, signed in as a fresh owner, and must get the recorded status and body, so a
fixture the API would no longer send fails a backend test as well as `make lint`.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Caller

FIXTURES = Path(__file__).resolve().parents[3] / "frontend" / "src" / "test" / "fixtures"


def _recorded() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


def test_there_are_fixtures_to_replay() -> None:
    """The presets fixture the SPA's presets table test renders is among them."""
    assert FIXTURES / "presets.json" in _recorded()


@pytest.mark.parametrize("fixture", _recorded(), ids=lambda path: path.name)
def test_the_api_answers_what_the_fixture_recorded(client: TestClient, owner: Caller, fixture: Path) -> None:
    recorded: dict[str, Any] = json.loads(fixture.read_text(encoding="utf-8"))
    request, expected = recorded["request"], recorded["response"]

    response = client.request(request["method"], request["path"], json=request["body"], headers=owner.headers)

    assert (response.status_code, response.json()) == (expected["status"], expected["body"]), (
        f"{fixture.name} is stale: run `make api-types` and commit the result"
    )
