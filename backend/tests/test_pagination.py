"""Every list a team can grow pages with `limit` and `offset`, bounded, and says how many there are."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.webhooks.service import enqueue_event
from tests.conftest import Caller
from tests.teams.test_quotas import EVENT, Create, _class, _schedule, _view, _webhook


def _ids(answer: Any) -> list[int]:
    assert answer.status_code == 200, answer.text
    return [item["id"] for item in answer.json()["items"]]


@pytest.mark.parametrize(
    ("create", "path"),
    [
        (_view, "/api/v1/compare/views"),
        (_class, "/api/v1/storage-classes"),
        (_webhook, "/api/v1/webhooks"),
        (_schedule, "/api/v1/schedules"),
    ],
)
def test_a_teams_list_pages_through_everything_once(
    client: TestClient, db: Session, owner: Caller, create: Create, path: str
) -> None:
    for n in range(3):
        assert create(client, owner, db, n).status_code == 201
    everything = client.get(path, headers=owner.headers, params={"limit": 500}).json()
    total = everything["total"]
    assert total == len(everything["items"]) >= 3
    pages = [
        _ids(client.get(path, headers=owner.headers, params={"limit": 2, "offset": offset}))
        for offset in range(0, total, 2)
    ]
    assert all(len(page) <= 2 for page in pages)
    assert [i for page in pages for i in page] == [item["id"] for item in everything["items"]]
    too_many = client.get(path, headers=owner.headers, params={"limit": 501})
    assert too_many.status_code == 422
    assert "limit" in too_many.text


def test_a_webhooks_deliveries_page_newest_first(client: TestClient, db: Session, owner: Caller) -> None:
    webhook = _webhook(client, owner, db, 0).json()
    for n in range(5):
        enqueue_event(db, owner.team.id, EVENT, {"n": n})
    db.commit()
    path = f"/api/v1/webhooks/{webhook['id']}/deliveries"
    first = client.get(path, headers=owner.headers, params={"limit": 2}).json()
    rest = client.get(path, headers=owner.headers, params={"limit": 200, "offset": 2}).json()
    assert first["total"] == rest["total"] == 5
    ids = [d["id"] for d in first["items"] + rest["items"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 5
    assert client.get(path, headers=owner.headers, params={"limit": 201}).status_code == 422
