"""API tokens: shown once, hashed, scoped to a team and a role, revocable."""

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import AuthToken, Membership, Role
from tests.conftest import Caller, make_caller


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_token_is_shown_once_and_acts_with_its_role(client: TestClient, db: Session, owner: Caller) -> None:
    created = client.post("/api/v1/tokens", json={"name": "ci", "role": "viewer"}, headers=owner.headers)
    assert created.status_code == 201, created.text
    secret = created.json()["token"]
    stored = db.scalar(select(AuthToken).where(AuthToken.id == created.json()["id"]))
    assert stored is not None and secret not in stored.token_hash
    listed = client.get("/api/v1/tokens", headers=owner.headers).json()
    assert "token" not in listed["items"][0]
    assert client.get("/api/v1/targets", headers=_bearer(secret)).status_code == 200
    refused = client.post("/api/v1/hosts", json={"name": "h"}, headers=_bearer(secret))
    assert refused.status_code == 403
    assert client.get("/api/v1/tokens", headers=owner.headers).json()["items"][0]["last_used_at"] is not None


def test_a_revoked_token_stops_working(client: TestClient, owner: Caller) -> None:
    created = client.post("/api/v1/tokens", json={"name": "old"}, headers=owner.headers).json()
    assert client.get("/api/v1/auth/me", headers=_bearer(created["token"])).status_code == 200
    assert client.delete(f"/api/v1/tokens/{created['id']}", headers=owner.headers).status_code == 204
    assert client.get("/api/v1/auth/me", headers=_bearer(created["token"])).status_code == 401


def test_a_token_never_acts_above_its_owners_current_role(
    client: TestClient, db: Session, owner: Caller
) -> None:
    created = client.post("/api/v1/tokens", json={"name": "t", "role": "owner"}, headers=owner.headers).json()
    mine = db.scalar(select(Membership).where(Membership.user_id == owner.user.id))
    assert mine is not None
    mine.role = Role.viewer
    db.commit()
    assert client.get("/api/v1/auth/me", headers=_bearer(created["token"])).json()["role"] == "viewer"


def test_members_cannot_create_tokens(client: TestClient, db: Session, owner: Caller) -> None:
    member = make_caller(db, team=owner.team, role=Role.member)
    assert client.post("/api/v1/tokens", json={"name": "x"}, headers=member.headers).status_code == 403
