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
    past_the_end = client.get(path, headers=owner.headers, params={"offset": total}).json()
    assert (past_the_end["items"], past_the_end["total"]) == ([], total)


LISTS = ["/api/v1/compare/views", "/api/v1/storage-classes", "/api/v1/webhooks", "/api/v1/schedules"]
BAD_PAGES = [
    ("limit", "0"),
    ("limit", "-1"),
    ("limit", "501"),
    ("limit", str(2**64)),
    ("limit", "ten"),
    ("offset", "-1"),
    ("offset", str(2**31)),
    ("offset", str(2**64)),
    ("offset", "1e3"),
]


@pytest.mark.parametrize("path", LISTS)
@pytest.mark.parametrize(("parameter", "value"), BAD_PAGES)
def test_a_bad_page_is_refused_naming_the_parameter(
    client: TestClient, owner: Caller, path: str, parameter: str, value: str
) -> None:
    refused = client.get(path, headers=owner.headers, params={parameter: value})
    assert refused.status_code == 422, refused.text
    assert [(e["field"], e["value"]) for e in refused.json()["errors"]] == [(parameter, value)]


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
