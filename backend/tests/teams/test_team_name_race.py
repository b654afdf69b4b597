"""One user creating teams of one name at once gets one team of that name: the check and the insert
cannot interleave (committed for real against PostgreSQL, each request its own transaction)."""

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from storbench_api.db import get_sessionmaker
from storbench_api.models import AuthToken, Membership, Role, Team, User
from storbench_api.security import new_token, token_digest
from storbench_api.settings import get_settings

ROUNDS = 5
AT_ONCE = 6


@pytest.fixture
def committed_user(engine: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, dict[str, str]]]:
    """A user with a team and a session, committed; every team they end up in is deleted after."""
    monkeypatch.setattr(get_settings(), "team_creation", "everyone")
    sessions = get_sessionmaker()
    token = new_token("sbu")
    with sessions() as db:
        team = Team(name="first")
        user = User(email=f"teams-{new_token('u')[-8:].lower()}@example.com", password_hash="x")
        db.add_all([team, user])
        db.flush()
        db.add(Membership(user_id=user.id, team_id=team.id, role=Role.owner))
        db.add(AuthToken(token_hash=token_digest(token), user_id=user.id, team_id=team.id, kind="session"))
        db.commit()
        user_id = user.id
    yield user_id, {"Authorization": f"Bearer {token}"}
    with sessions() as db:
        teams = select(Membership.team_id).where(Membership.user_id == user_id)
        db.execute(delete(Team).where(Team.id.in_(teams)))
        db.execute(delete(User).where(User.id == user_id))
        db.commit()


def _create_at_once(client: TestClient, headers: dict[str, str], name: str) -> list[int]:
    """AT_ONCE creations of one team name, released together; their status codes."""
    answers: list[int] = []
    start = threading.Barrier(AT_ONCE)

    def create() -> None:
        start.wait()
        answers.append(client.post("/api/v1/teams", json={"name": name}, headers=headers).status_code)

    threads = [threading.Thread(target=create) for _ in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_teams_of_one_name_created_at_once_make_one_team(
    app: FastAPI, committed_user: tuple[int, dict[str, str]]
) -> None:
    user_id, headers = committed_user
    with TestClient(app, raise_server_exceptions=False) as client:
        for round_ in range(ROUNDS):
            name = f"side project {round_}"
            answers = _create_at_once(client, headers, name)
            assert sorted(answers) == [201] + [409] * (AT_ONCE - 1), (round_, answers)
            with get_sessionmaker()() as db:
                same = db.scalar(
                    select(func.count())
                    .select_from(Team)
                    .join(Membership, Membership.team_id == Team.id)
                    .where(Membership.user_id == user_id, Team.name == name)
                )
            assert same == 1, round_
