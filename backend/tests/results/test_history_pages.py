"""GET /results: keyset pages over the history, newest first by measured_at, with every filter."""

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Result
from storbench_api.results import repository
from tests.conftest import Caller, make_caller, make_host, make_target

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _result(db: Session, caller: Caller, measured_at: datetime, **columns: Any) -> Result:
    values: dict[str, Any] = {
        "job_name": "randread",
        "host_name": "client-1",
        "options": {},
        "cpu": {},
        "detail": {},
        **columns,
    }
    result = Result(team_id=caller.team.id, measured_at=measured_at, **values)
    db.add(result)
    return result


def _all_pages(client: TestClient, caller: Caller, query: str, limit: int) -> tuple[list[int], list[Any]]:
    ids: list[int] = []
    bodies: list[Any] = []
    cursor = None
    while True:
        url = f"/api/v1/results?limit={limit}{query}" + (f"&cursor={cursor}" if cursor else "")
        response = client.get(url, headers=caller.headers)
        assert response.status_code == 200, response.text
        body = response.json()
        bodies.append(body)
        ids.extend(item["id"] for item in body["items"])
        cursor = body["next_cursor"]
        if cursor is None:
            return ids, bodies
        assert len(bodies) < 100, "pages never end"


def test_pages_cover_every_result_once_newest_first_with_ties_broken_by_id(
    client: TestClient, owner: Caller, db: Session
) -> None:
    # 23 results on 7 distinct times: many share a measured_at, and ids do not follow time.
    times = [T0 + timedelta(minutes=(n * 5) % 7) for n in range(23)]
    results = [_result(db, owner, moment) for moment in times]
    db.commit()
    expected = [r.id for r in sorted(results, key=lambda r: (r.measured_at, r.id), reverse=True)]

    ids, bodies = _all_pages(client, owner, "", limit=4)

    assert ids == expected
    assert [len(b["items"]) for b in bodies] == [4, 4, 4, 4, 4, 3]
    assert {b["total"] for b in bodies} == {23}
    assert not any(b["total_is_estimate"] for b in bodies)


def test_an_empty_cursor_is_the_first_page(client: TestClient, owner: Caller, db: Session) -> None:
    newest = _result(db, owner, T0 + timedelta(hours=1))
    _result(db, owner, T0)
    db.commit()
    body = client.get("/api/v1/results?limit=1&cursor=", headers=owner.headers).json()
    assert [item["id"] for item in body["items"]] == [newest.id]


def test_a_page_that_ends_exactly_at_the_last_result_has_no_next_cursor(
    client: TestClient, owner: Caller, db: Session
) -> None:
    for n in range(4):
        _result(db, owner, T0 + timedelta(hours=n))
    db.commit()
    ids, bodies = _all_pages(client, owner, "", limit=2)
    assert len(ids) == 4
    assert len(bodies) == 2


def test_every_filter_narrows_the_list_and_pages_keep_it(
    client: TestClient, owner: Caller, db: Session
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    other = make_target(db, host=host, name="other", path="/srv/other")
    for n in range(12):
        _result(
            db,
            owner,
            T0 + timedelta(days=n),
            target_id=target.id if n % 2 else other.id,
            storage_class="NAS capacity type" if n % 3 == 0 else "SSD cloud disk",
            imported=n % 4 == 0,
            job_name="seqwrite" if n < 6 else "randread",
            label="after firmware 2.1" if n >= 9 else None,
            host_name="client-2" if n in (1, 2) else "client-1",
        )
    db.commit()
    everything = {r.id: r for r in db.query(Result).filter(Result.team_id == owner.team.id)}

    def expected(keep: Any) -> list[int]:
        kept = [r for r in everything.values() if keep(r)]
        return [r.id for r in sorted(kept, key=lambda r: (r.measured_at, r.id), reverse=True)]

    cases = {
        f"&target_id={target.id}": lambda r: r.target_id == target.id,
        "&storage_class=NAS%20capacity%20type": lambda r: r.storage_class == "NAS capacity type",
        "&imported=true": lambda r: r.imported,
        "&imported=false": lambda r: not r.imported,
        "&job_name=seqwrite": lambda r: r.job_name == "seqwrite",
        "&label=after%20firmware%202.1": lambda r: r.label == "after firmware 2.1",
        "&host_name=client-2": lambda r: r.host_name == "client-2",
        "&measured_after=2026-03-04T12:00:00Z&measured_before=2026-03-07T12:00:00%2B00:00": (
            lambda r: T0 + timedelta(days=3) <= r.measured_at < T0 + timedelta(days=6)
        ),
        # A time without a zone is UTC.
        "&measured_after=2026-03-10T12:00:00": lambda r: r.measured_at >= T0 + timedelta(days=9),
        f"&job_name=randread&target_id={target.id}": lambda r: (
            r.job_name == "randread" and r.target_id == target.id
        ),
    }
    for query, keep in cases.items():
        ids, bodies = _all_pages(client, owner, query, limit=2)
        assert ids == expected(keep), query
        assert bodies[0]["total"] == len(ids), query
        assert 0 < len(ids) < 12, query


def test_run_id_filter_lists_that_runs_results(client: TestClient, owner: Caller, db: Session) -> None:
    _result(db, owner, T0)
    db.commit()
    response = client.get("/api/v1/results?run_id=2147483647", headers=owner.headers)
    assert response.status_code == 200
    assert response.json()["items"] == []
    assert response.json()["total"] == 0


def test_another_teams_results_never_appear(client: TestClient, owner: Caller, db: Session) -> None:
    stranger = make_caller(db)
    _result(db, stranger, T0)
    mine = _result(db, owner, T0)
    db.commit()
    ids, _ = _all_pages(client, owner, "", limit=10)
    assert ids == [mine.id]


def test_a_cursor_from_other_filters_is_refused_saying_to_start_again(
    client: TestClient, owner: Caller, db: Session
) -> None:
    for n in range(3):
        _result(db, owner, T0 + timedelta(hours=n), job_name="seqwrite")
    db.commit()
    cursor = client.get("/api/v1/results?limit=1&job_name=seqwrite", headers=owner.headers).json()[
        "next_cursor"
    ]
    assert cursor

    response = client.get(f"/api/v1/results?limit=1&job_name=randread&cursor={cursor}", headers=owner.headers)

    assert response.status_code == 422
    body = response.json()
    assert body["errors"][0]["field"] == "cursor"
    assert "other filters" in body["message"]
    assert "first page" in body["message"]


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "%00%01",
        base64.urlsafe_b64encode(b'{"v":1,"m":"yesterday","i":3,"f":"x"}').decode(),
        base64.urlsafe_b64encode(json.dumps([1, 2]).encode()).decode(),
        base64.urlsafe_b64encode(b'{"v":1,"m":"2026-01-01T00:00:00","i":3,"f":"x"}').decode(),
    ],
)
def test_a_cursor_this_service_did_not_give_is_a_422_not_a_500(
    client: TestClient, owner: Caller, cursor: str
) -> None:
    response = client.get(f"/api/v1/results?cursor={cursor}", headers=owner.headers)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "cursor"
    assert "next_cursor" in response.json()["message"] or "first page" in response.json()["message"]


def test_an_unknown_filter_is_a_422_naming_it_and_what_is_accepted(client: TestClient, owner: Caller) -> None:
    response = client.get("/api/v1/results?labels=nightly", headers=owner.headers)
    assert response.status_code == 422
    body = response.json()
    assert body["errors"] == [
        {"field": "labels", "reason": body["errors"][0]["reason"]},
    ]
    assert "labels" in body["message"]
    for accepted in ("label", "storage_class", "cursor", "measured_after"):
        assert accepted in body["message"]
    # The old offset paging is gone from this list: said, not ignored.
    assert client.get("/api/v1/results?offset=50", headers=owner.headers).status_code == 422


def test_small_histories_are_counted_exactly(client: TestClient, owner: Caller, db: Session) -> None:
    for n in range(7):
        _result(db, owner, T0 + timedelta(minutes=n))
    db.commit()
    body = client.get("/api/v1/results?limit=2", headers=owner.headers).json()
    assert (body["total"], body["total_is_estimate"]) == (7, False)


def test_beyond_the_exact_count_cap_the_total_is_an_estimate_and_says_so(
    client: TestClient, owner: Caller, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(repository, "EXACT_COUNT_CAP", 5)
    for n in range(9):
        _result(db, owner, T0 + timedelta(minutes=n), job_name="seqwrite" if n < 3 else "randread")
    db.commit()

    everything = client.get("/api/v1/results?limit=2", headers=owner.headers).json()
    few = client.get("/api/v1/results?limit=2&job_name=seqwrite", headers=owner.headers).json()

    assert everything["total_is_estimate"] is True
    assert everything["total"] > 5  # never below what was seen to match
    assert (few["total"], few["total_is_estimate"]) == (3, False)
