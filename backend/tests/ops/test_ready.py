"""GET /api/v1/ready: the database and the broker answer, or a 503 naming what does not."""

import socket
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from storbench_api.db import get_db
from storbench_api.settings import get_settings
from tests.conftest import Caller


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_ready_when_postgresql_and_redis_answer(client: TestClient) -> None:
    answer = client.get("/api/v1/ready")
    assert answer.status_code == 200
    assert answer.json()["database"] == "ok"
    assert answer.json()["broker"] == "ok"


def test_not_ready_names_redis_when_the_broker_port_is_closed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = closed_port()
    monkeypatch.setattr(get_settings(), "broker_url", f"redis://:secret-pw@127.0.0.1:{port}/0")
    answer = client.get("/api/v1/ready")
    assert answer.status_code == 503
    body = answer.json()
    assert body["database"] == "ok"
    assert body["broker"] != "ok"
    assert f"broker (redis at 127.0.0.1:{port})" in body["message"]
    assert "secret-pw" not in answer.text


def test_not_ready_says_so_within_the_timeout_when_the_broker_never_answers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A listener that accepts connections and never answers: the check gives up, the request does not hang.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        port = silent.getsockname()[1]
        monkeypatch.setattr(get_settings(), "broker_url", f"redis://127.0.0.1:{port}/0")
        monkeypatch.setattr(get_settings(), "ready_timeout", get_settings().ready_timeout / 4)
        answer = client.get("/api/v1/ready")
    assert answer.status_code == 503
    assert "broker (redis at 127.0.0.1" in answer.json()["message"]


def test_health_stays_up_while_the_broker_is_down(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "broker_url", f"redis://127.0.0.1:{closed_port()}/0")
    assert client.get("/api/v1/health").status_code == 200


def test_a_request_while_the_database_is_unreachable_gets_503_saying_so(app: FastAPI, owner: Caller) -> None:
    # As during a PostgreSQL crash or restart: the driver cannot connect.
    down = create_engine(
        f"postgresql+psycopg://storbench:storbench@127.0.0.1:{closed_port()}/storbench",
        connect_args={"connect_timeout": 2},
    )

    def unreachable() -> Iterator[Session]:
        with Session(down) as session:
            yield session

    app.dependency_overrides[get_db] = unreachable
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            answer = client.get("/api/v1/hosts", headers=owner.headers)
    finally:
        app.dependency_overrides.clear()
        down.dispose()
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert "try again" in answer.json()["message"]
    assert answer.headers["Retry-After"] == "5"
