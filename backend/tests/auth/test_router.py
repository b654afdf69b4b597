"""Signing in and bearer tokens."""

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import AuthToken
from tests.conftest import Caller, make_caller


def test_sign_in_returns_a_token_that_identifies_the_user(client: TestClient, db: Session) -> None:
    caller = make_caller(db, password="correct horse")
    response = client.post(
        "/api/v1/auth/token", data={"username": caller.user.email, "password": "correct horse"}
    )
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    me = client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200
    assert me.json()["email"] == caller.user.email
    assert me.json()["team"]["id"] == caller.team.id
    assert me.json()["role"] == "owner"


def test_wrong_password_and_unknown_email_get_the_same_answer(client: TestClient, db: Session) -> None:
    caller = make_caller(db, password="right-password")
    wrong = client.post("/api/v1/auth/token", data={"username": caller.user.email, "password": "nope"})
    unknown = client.post("/api/v1/auth/token", data={"username": "nobody@example.com", "password": "nope"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert "password" in wrong.json()["message"]


def test_calls_without_a_token_are_refused_with_a_json_error(client: TestClient) -> None:
    response = client.get("/api/v1/hosts")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"
    assert "Bearer" in response.json()["message"]


def test_an_expired_token_is_refused(client: TestClient, db: Session, owner: Caller) -> None:
    token = db.scalar(select(AuthToken).where(AuthToken.user_id == owner.user.id))
    assert token is not None
    token.expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    assert client.get("/api/v1/auth/me", headers=owner.headers).status_code == 401


def test_health_needs_no_token(client: TestClient) -> None:
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"
    assert response.json()["mode"] == "production"


def test_a_browser_asks_whether_it_is_signed_in_without_an_error_status(
    client: TestClient, db: Session
) -> None:
    # A first visit (no cookie) and a stale cookie both answer 200 "not signed in".
    assert client.get("/api/v1/auth/status").json() == {"signed_in": False, "session": None}
    client.cookies.set("storbench_session", "not-a-session")
    stale = client.get("/api/v1/auth/status")
    assert stale.status_code == 200
    assert stale.json()["signed_in"] is False
    client.cookies.clear()
    caller = make_caller(db, password="status-password")
    credentials = {"email": caller.user.email, "password": "status-password"}
    login = client.post("/api/v1/auth/login", json=credentials)
    assert login.status_code == 200, login.text
    status = client.get("/api/v1/auth/status").json()
    assert status["signed_in"] is True
    assert status["session"]["email"] == caller.user.email
    assert status["session"]["csrf_token"] == login.json()["csrf_token"]
