"""Accepting an invitation is limited as sign-in is: per account and per token, across addresses."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.kit import backoff
from tests.conftest import Caller, make_caller

ATTACKERS = [f"203.0.113.{i}" for i in range(1, 11)]


@pytest.fixture(autouse=True)
def long_first_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first delay no loaded machine outlasts between two requests: each refusal is certain.
    monkeypatch.setattr(backoff, "FIRST_DELAY_S", 60.0)


def accept(app: FastAPI, address: str, token: str, email: str, password: str) -> int:
    """Accept an invitation as a client at `address` would; the status code."""
    client = TestClient(app, client=(address, 50000), raise_server_exceptions=False)
    body = {"token": token, "email": email, "password": password}
    return client.post("/api/v1/invitations/accept", json=body).status_code


def test_an_open_invitation_is_no_password_oracle_across_addresses(
    app: FastAPI, client: TestClient, db: Session, owner: Caller
) -> None:
    # Whoever holds an open invitation (their own team's) could try another account's password.
    victim = make_caller(db, password="the-real-password")
    token = client.post(
        "/api/v1/teams/current/invitations", json={"role": "viewer"}, headers=owner.headers
    ).json()["token"]
    statuses = [
        accept(app, ATTACKERS[i % 10], token, victim.user.email, f"guess-number-{i}") for i in range(20)
    ]
    # Two guesses per address, far below its own limit: the account's backoff refuses them.
    assert statuses == [401] * backoff.FREE_FAILURES + [429] * (20 - backoff.FREE_FAILURES)


def test_one_token_is_tried_only_a_few_times_from_many_addresses(app: FastAPI, client: TestClient) -> None:
    token = "sbi_" + "guessed-token" * 3
    statuses = [
        accept(app, ATTACKERS[i % 10], token, f"person{i}@example.com", "a-long-password") for i in range(12)
    ]
    # Each try names another account from another address: only the token's own count stops them.
    assert statuses == [422] * backoff.FREE_FAILURES + [429] * (12 - backoff.FREE_FAILURES)
