"""Teams, roles, invitations, switching, browser sessions."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Role
from storbench_api.settings import get_settings
from tests.conftest import Caller, make_caller, make_host


def test_an_invitation_link_adds_a_new_account_once(client: TestClient, owner: Caller) -> None:
    invited = client.post(
        "/api/v1/teams/current/invitations", json={"role": "viewer"}, headers=owner.headers
    ).json()
    body = {"token": invited["token"], "email": "new.person@example.com", "password": "a-long-password"}
    accepted = client.post("/api/v1/invitations/accept", json=body)
    assert accepted.status_code == 200, accepted.text
    headers = {"Authorization": f"Bearer {accepted.json()['access_token']}"}
    me = client.get("/api/v1/auth/me", headers=headers).json()
    assert me["team"]["id"] == owner.team.id and me["role"] == "viewer"
    again = client.post("/api/v1/invitations/accept", json={**body, "email": "other@example.com"})
    assert again.status_code == 422
    assert "used" in again.json()["message"]


def test_a_user_in_two_teams_switches_and_sees_only_that_teams_hosts(
    client: TestClient, db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_host(db, team=owner.team, name="in-first-team")
    monkeypatch.setattr(get_settings(), "team_creation", "everyone")
    second = client.post("/api/v1/teams", json={"name": "second team"}, headers=owner.headers).json()
    assert [t["name"] for t in client.get("/api/v1/hosts", headers=owner.headers).json()["items"]] == [
        "in-first-team"
    ]
    switched = client.post("/api/v1/auth/switch-team", json={"team_id": second["id"]}, headers=owner.headers)
    assert switched.status_code == 200 and switched.json()["team"]["name"] == "second team"
    assert client.get("/api/v1/hosts", headers=owner.headers).json()["items"] == []
    stranger = make_caller(db)
    refused = client.post(
        "/api/v1/auth/switch-team", json={"team_id": stranger.team.id}, headers=owner.headers
    )
    assert refused.status_code == 404


def test_the_last_owner_cannot_step_down(client: TestClient, owner: Caller) -> None:
    response = client.patch(
        f"/api/v1/teams/current/members/{owner.user.id}", json={"role": "member"}, headers=owner.headers
    )
    assert response.status_code == 409
    assert "owner" in response.json()["message"]


def test_a_removed_member_loses_access_at_once(client: TestClient, db: Session, owner: Caller) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    assert client.get("/api/v1/hosts", headers=member.headers).status_code == 200
    assert (
        client.delete(f"/api/v1/teams/current/members/{member.user.id}", headers=owner.headers).status_code
        == 204
    )
    assert client.get("/api/v1/hosts", headers=member.headers).status_code == 401


def test_browser_sessions_use_httponly_cookies_and_need_csrf_for_changes(
    client: TestClient, db: Session
) -> None:
    caller = make_caller(db, password="cookie-password")
    login = client.post(
        "/api/v1/auth/login", json={"email": caller.user.email, "password": "cookie-password"}
    )
    assert login.status_code == 200, login.text
    set_cookie = login.headers.get_list("set-cookie")
    session_cookie = next(c for c in set_cookie if c.startswith("storbench_session="))
    assert "HttpOnly" in session_cookie and "SameSite=strict" in session_cookie
    csrf = login.json()["csrf_token"]
    assert client.get("/api/v1/hosts").status_code == 200
    without = client.post("/api/v1/hosts", json={"name": "via-cookie"})
    assert without.status_code == 403 and "CSRF" in without.json()["message"]
    with_token = client.post("/api/v1/hosts", json={"name": "via-cookie"}, headers={"X-CSRF-Token": csrf})
    assert with_token.status_code == 201
    assert client.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    client.cookies.clear()
    assert client.get("/api/v1/hosts").status_code == 401


def test_sign_in_is_rate_limited_per_account(client: TestClient, db: Session) -> None:
    caller = make_caller(db, password="right-password")
    statuses = [
        client.post(
            "/api/v1/auth/token", data={"username": caller.user.email, "password": "wrong"}
        ).status_code
        for _ in range(12)
    ]
    # Five failures are free; then the account's backoff (1 s, 2 s, ...) and, whatever the timing,
    # the per-address window of 10 a minute refuse.
    assert statuses[:5] == [401] * 5
    assert statuses[10:] == [429, 429]
    limited = client.post(
        "/api/v1/auth/token", data={"username": caller.user.email, "password": "right-password"}
    )
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0


def test_password_change_needs_the_current_password(client: TestClient, db: Session) -> None:
    caller = make_caller(db, password="first-password")
    wrong = client.post(
        "/api/v1/auth/password",
        json={"current_password": "nope", "new_password": "second-password"},
        headers=caller.headers,
    )
    assert wrong.status_code == 422
    changed = client.post(
        "/api/v1/auth/password",
        json={"current_password": "first-password", "new_password": "second-password"},
        headers=caller.headers,
    )
    assert changed.status_code == 204
    token = client.post(
        "/api/v1/auth/token", data={"username": caller.user.email, "password": "second-password"}
    )
    assert token.status_code == 200


def test_only_the_admin_creates_teams_unless_the_instance_lets_everyone(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = client.post("/api/v1/teams", json={"name": "side project"}, headers=owner.headers)
    assert refused.status_code == 403, refused.text
    assert "STORBENCH_TEAM_CREATION" in refused.json()["message"]
    assert [t["name"] for t in client.get("/api/v1/teams", headers=owner.headers).json()["items"]] == [
        owner.team.name
    ]
    monkeypatch.setattr(get_settings(), "admin_email", owner.user.email.upper())
    assert (
        client.post("/api/v1/teams", json={"name": "side project"}, headers=owner.headers).status_code == 201
    )
    monkeypatch.setattr(get_settings(), "admin_email", "someone-else@example.com")
    monkeypatch.setattr(get_settings(), "team_creation", "everyone")
    assert client.post("/api/v1/teams", json={"name": "hobby"}, headers=owner.headers).status_code == 201


def test_creating_a_team_does_not_tell_which_names_other_teams_have(
    client: TestClient, db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "team_creation", "everyone")
    stranger = make_caller(db)
    # The stranger's team has a name; another user asking for it learns nothing about it.
    taken_elsewhere = client.post("/api/v1/teams", json={"name": stranger.team.name}, headers=owner.headers)
    assert taken_elsewhere.status_code == 201, taken_elsewhere.text
    assert taken_elsewhere.json()["id"] != stranger.team.id
    # One's own teams keep distinct names, so the team switcher never shows two alike.
    again = client.post("/api/v1/teams", json={"name": stranger.team.name}, headers=owner.headers)
    assert again.status_code == 409
    assert "you are already in a team" in again.json()["message"]
    assert client.get("/api/v1/hosts", headers=stranger.headers).status_code == 200
