"""Guessing one account's password is slowed across every address, without locking its owner out."""

import threading
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api import security
from storbench_api.kit import backoff
from storbench_api.security import HashingBusy, hashing_slot, verify_password
from tests.conftest import make_caller

ATTACKERS = [f"203.0.113.{i}" for i in range(1, 11)]
USERS_MACHINE = "198.51.100.7"


@pytest.fixture(autouse=True)
def long_first_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first delay no loaded machine outlasts between two requests: each refusal is certain.
    monkeypatch.setattr(backoff, "FIRST_DELAY_S", 60.0)


def from_address(app: FastAPI, address: str) -> TestClient:
    """A client the app sees at `address` (the peer address: no proxy header is trusted)."""
    return TestClient(app, client=(address, 50000), raise_server_exceptions=False)


def sign_in(app: FastAPI, address: str, email: str, password: str) -> int:
    answer = from_address(app, address).post(
        "/api/v1/auth/token", data={"username": email, "password": password}
    )
    return answer.status_code


def test_guesses_from_many_addresses_are_refused_after_a_few(
    app: FastAPI, client: TestClient, db: Session
) -> None:
    victim = make_caller(db, password="the-real-password")
    statuses = [sign_in(app, ATTACKERS[i % 10], victim.user.email, f"guess-{i}") for i in range(30)]
    # Each address made only three guesses, far below its own limit of 10 a minute.
    assert statuses == [401] * backoff.FREE_FAILURES + [429] * (30 - backoff.FREE_FAILURES)
    refused = from_address(app, ATTACKERS[0]).post(
        "/api/v1/auth/token", data={"username": victim.user.email, "password": "guess"}
    )
    assert refused.status_code == 429
    # Bounded: never a lockout longer than MAX_DELAY_S.
    assert 0 < int(refused.headers["Retry-After"]) <= backoff.MAX_DELAY_S + 1


def test_the_owner_still_signs_in_from_a_machine_they_used_before(
    app: FastAPI, client: TestClient, db: Session
) -> None:
    victim = make_caller(db, password="the-real-password")
    assert sign_in(app, USERS_MACHINE, victim.user.email, "the-real-password") == 200
    for i in range(20):
        sign_in(app, ATTACKERS[i % 10], victim.user.email, f"guess-{i}")
    assert sign_in(app, ATTACKERS[0], victim.user.email, "the-real-password") == 429
    # The address the owner signed in from before is not held back by strangers' failures.
    assert sign_in(app, USERS_MACHINE, victim.user.email, "the-real-password") == 200
    # And that success does not reopen the account to the attackers' addresses for long: it clears
    # the count, so they are back to a few guesses before the delay.
    statuses = [sign_in(app, ATTACKERS[i % 10], victim.user.email, f"again-{i}") for i in range(8)]
    assert statuses == [401] * backoff.FREE_FAILURES + [429] * 3


def test_wrong_current_passwords_on_a_password_change_are_limited(client: TestClient, db: Session) -> None:
    caller = make_caller(db, password="the-real-password")
    statuses = [
        client.post(
            "/api/v1/auth/password",
            json={"current_password": f"guess-{i}", "new_password": "a-new-password-1"},
            headers=caller.headers,
        ).status_code
        for i in range(10)
    ]
    assert statuses == [422] * backoff.FREE_FAILURES + [429] * (10 - backoff.FREE_FAILURES)


@pytest.fixture
def slot_held() -> Iterator[None]:
    """The process's password-hashing slot, taken as a long sign-in would."""
    with hashing_slot():
        yield


def test_hashing_waits_briefly_then_answers_busy_when_the_slot_is_taken(slot_held: None) -> None:
    outcomes: list[str] = []
    lock = threading.Lock()

    def verify() -> None:
        try:
            verify_password("anything", None)
            outcome = "verified"
        except HashingBusy as exc:
            outcome = f"busy {exc.headers['Retry-After']}"
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=verify) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # Nothing hashed while the slot was held; everybody was told to come back in a second.
    assert outcomes == ["busy 1"] * 12
    assert security.HASHING_AT_ONCE == 1
