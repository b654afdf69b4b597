"""One enrollment token is tried only a few times, however many addresses and names try it."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from storbench_api.kit import backoff
from tests.conftest import Caller

ATTACKERS = [f"203.0.113.{i}" for i in range(1, 11)]


@pytest.fixture(autouse=True)
def long_first_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first delay no loaded machine outlasts between two requests: each refusal is certain.
    monkeypatch.setattr(backoff, "FIRST_DELAY_S", 60.0)


def enroll(app: FastAPI, address: str, token: str, name: str) -> int:
    """Enroll as a worker at `address` would; the status code."""
    client = TestClient(app, client=(address, 50000), raise_server_exceptions=False)
    return client.post("/api/v1/worker/enroll", json={"token": token, "name": name}).status_code


def test_a_token_is_refused_after_a_few_failures_from_many_addresses(
    app: FastAPI, client: TestClient, owner: Caller
) -> None:
    token = client.post("/api/v1/enrollment-tokens", json={}, headers=owner.headers).json()["token"]
    assert enroll(app, "198.51.100.7", token, "nas-client-1") == 201
    # Used up now: each further try, from another address with another name, is a failure.
    statuses = [enroll(app, ATTACKERS[i % 10], token, f"client-{i}") for i in range(12)]
    assert statuses == [401] * backoff.FREE_FAILURES + [429] * (12 - backoff.FREE_FAILURES)


def test_a_fleet_enrolls_many_hosts_with_one_token(app: FastAPI, client: TestClient, owner: Caller) -> None:
    token = client.post("/api/v1/enrollment-tokens", json={"uses": 30}, headers=owner.headers).json()["token"]
    assert [enroll(app, "198.51.100.7", token, f"client-{i}") for i in range(30)] == [201] * 30
