"""The grouped view's rollup answers as the results do: n, min, max exact, quantiles within 0.5 %."""

import importlib.util
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from storbench_api.models import GroupRollup, Host, Result, ResultDirection, Team
from storbench_api.results import controls as results_controls
from storbench_api.rollup import repository as rollup_repository
from storbench_api.rollup import service as rollup
from storbench_api.rollup.counts import Key
from tests.compare.outputs import shaped, template
from tests.compare.test_compare_router import imported
from tests.compare.test_groups_and_views import classed_target, groups
from tests.conftest import Caller

PRECISION = 0.005
# A time filter the rollup cannot answer but which every result passes: the per-result path.
EVERY_RESULT = "measured_after=2001-01-01T00:00:00Z"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _both(client: TestClient, caller: Caller, query: str) -> tuple[dict[str, Any], dict[str, Any]]:
    fast = groups(client, caller, query)
    slow = groups(client, caller, f"{query}&{EVERY_RESULT}")
    assert fast.status_code == 200 and slow.status_code == 200, (fast.text, slow.text)
    return fast.json(), slow.json()


def _assert_same(rolled: dict[str, Any], exact: dict[str, Any]) -> int:
    assert rolled["source"] == "rollup" and exact["source"] == "results"
    assert "±0.5 %" in rolled["note"] and not rolled["truncated"]
    key = lambda g: (g["key"], tuple(sorted(g["shape"].items())))  # noqa: E731
    assert sorted(map(key, rolled["groups"])) == sorted(map(key, exact["groups"]))
    by_key = {key(g): g for g in exact["groups"]}
    for group in rolled["groups"]:
        want = by_key[key(group)]
        assert (group["n"], group["min"], group["max"]) == (want["n"], want["min"], want["max"])
        for field in ("median", "p25", "p75", "per_gib", "dollars_per_1000_iops", "dollars_per_mbps"):
            if want[field] is None:
                assert group[field] is None, field
            else:
                assert group[field] == pytest.approx(want[field], rel=PRECISION), (field, group, want)
        assert group["capacity_gib"] == want["capacity_gib"]
        assert group["price_per_gib_month"] == want["price_per_gib_month"]
    return len(rolled["groups"])


def test_rollup_and_results_agree_on_imported_results_of_several_classes(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    rng = random.Random(7)
    targets = [
        classed_target(client, db, owner, "NAS performance", price=0.3, capacity=1000),
        classed_target(client, db, owner, "NAS capacity", price=0.1, capacity=500),
        classed_target(client, db, owner, "CFS turbo", price=None, capacity=2000),
    ]
    stamp = 1_700_000_000
    for t, center in zip(targets, (40_000, 10_000, 20_000), strict=True):
        for bs in ("4k", "64k"):
            for _ in range(9):
                stamp += 1
                iops = center * rng.lognormvariate(0, 0.3)
                content = shaped(base, iops=iops, bs=bs, timestamp=stamp, usr_cpu=rng.uniform(0, 30))
                imported(client, owner, content, target_id=str(t.id))
    # One without a target or class, and one with no IOPS at all.
    imported(client, owner, shaped(base, iops=5_000, timestamp=stamp + 1))
    idle = shaped(base, iops=0, timestamp=stamp + 2, lat_us=100)
    imported(client, owner, idle, target_id=str(targets[0].id))

    checked = 0
    for query in (
        "by=storage_class&figure=iops&direction=read",
        "by=vendor&figure=bw_bytes&direction=read",
        "by=bs&figure=clat_p99_ns&direction=read",
        "by=tier&figure=lat_mean_ns&direction=read",
        "by=storage_class&figure=cpu_usr_pct&direction=read",
        f"by=iodepth&figure=iops&direction=read&target_id={targets[1].id}",
        "by=storage_class&figure=iops&direction=read&storage_class=NAS%20capacity&imported=true",
    ):
        checked += _assert_same(*_both(client, owner, query))
    assert checked > 15

    # Host and label need each result: the per-result path answers, and says so.
    by_host = groups(client, owner, "by=host&figure=iops&direction=read").json()
    assert by_host["source"] == "results"


def test_deleting_results_keeps_n_min_and_max_exact(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    target = classed_target(client, db, owner, "Disk ESSD", price=0.2, capacity=100)
    outputs = [
        shaped(base, iops=v, timestamp=1_700_000_000 + i) for i, v in enumerate([1_000, 2_000, 3_000, 4_000])
    ]
    ids = [imported(client, owner, out, target_id=str(target.id))["id"] for out in outputs]
    query = "by=storage_class&figure=iops&direction=read"
    (group,) = groups(client, owner, query).json()["groups"]
    assert (group["n"], group["min"], group["max"]) == (4, 1_000, 4_000)

    assert client.delete(f"/api/v1/results/{ids[3]}", headers=owner.headers).status_code == 204
    assert client.delete(f"/api/v1/results/{ids[0]}", headers=owner.headers).status_code == 204
    rolled, exact = _both(client, owner, query)
    _assert_same(rolled, exact)
    (group,) = rolled["groups"]
    assert (group["n"], group["min"], group["max"]) == (2, 2_000, 3_000)
    assert group["median"] == pytest.approx(2_500, rel=PRECISION)

    for result_id in ids[1:3]:
        assert client.delete(f"/api/v1/results/{result_id}", headers=owner.headers).status_code == 204
    assert groups(client, owner, query).json()["groups"] == []
    rows = db.scalars(select(GroupRollup).where(GroupRollup.team_id == owner.team.id)).all()
    assert rows == []


def test_deleting_a_result_that_holds_no_extreme_takes_it_out_without_counting_again(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = classed_target(client, db, owner, "Disk PL2", price=0.2, capacity=100)
    values = [1_000, 1_500, 2_000, 2_500, 3_000]
    # Every figure of the middle result lies between the others' (CPU too); a figure the same in every
    # result keeps its min and max whichever leaves.
    ids = [
        imported(
            client,
            owner,
            shaped(base, iops=v, timestamp=1_700_000_000 + i, usr_cpu=v / 100),
            target_id=str(target.id),
        )["id"]
        for i, v in enumerate(values)
    ]
    recounted: list[Key] = []
    real_stored = rollup_repository.results_of_key
    monkeypatch.setattr(
        rollup_repository,
        "results_of_key",
        lambda db, team_id, key: recounted.append(key) or real_stored(db, team_id, key),
    )

    assert client.delete(f"/api/v1/results/{ids[2]}", headers=owner.headers).status_code == 204
    assert recounted == []  # taken out of the histogram, not counted again from every result of its key
    query = "by=storage_class&figure=iops&direction=read"
    rolled, exact = _both(client, owner, query)
    _assert_same(rolled, exact)
    (group,) = rolled["groups"]
    assert (group["n"], group["min"], group["max"]) == (4, 1_000, 3_000)

    # The minimum deleted: the next one is found among those that remain.
    assert client.delete(f"/api/v1/results/{ids[0]}", headers=owner.headers).status_code == 204
    assert recounted != []
    rolled, exact = _both(client, owner, query)
    _assert_same(rolled, exact)
    assert [(g["n"], g["min"], g["max"]) for g in rolled["groups"]] == [(3, 1_500, 3_000)]


def test_a_rollup_row_that_drifted_is_counted_afresh_when_a_result_leaves_it(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    target = classed_target(client, db, owner, "Disk PL3", price=0.2, capacity=100)
    ids = [
        imported(client, owner, shaped(base, iops=v, timestamp=1_700_000_000 + i), target_id=str(target.id))[
            "id"
        ]
        for i, v in enumerate([1_000, 2_000, 3_000])
    ]
    for row in db.scalars(select(GroupRollup).where(GroupRollup.team_id == owner.team.id)):
        row.n, row.bins, row.counts = 1, row.bins[:1], row.counts[:1]  # lost counts, whatever the cause
    db.commit()
    assert client.delete(f"/api/v1/results/{ids[1]}", headers=owner.headers).status_code == 204
    rolled, exact = _both(client, owner, "by=storage_class&figure=iops&direction=read")
    _assert_same(rolled, exact)
    assert [(g["n"], g["min"], g["max"]) for g in rolled["groups"]] == [(2, 1_000, 3_000)]


def test_deleting_a_host_keeps_its_targets_imports_counted_without_a_target(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    target = classed_target(client, db, owner, "NAS archive", price=None, capacity=100)
    for i, v in enumerate([1_000, 3_000]):
        imported(client, owner, shaped(base, iops=v, timestamp=1_700_000_000 + i), target_id=str(target.id))
    host = db.get(Host, target.host_id)
    assert host is not None
    host.last_seen_at = None  # never connected: then a host may be deleted
    db.commit()
    host_id = target.host_id
    response = client.delete(f"/api/v1/hosts/{host_id}", headers=owner.headers)
    assert response.status_code in (200, 204), response.text
    rolled, exact = _both(client, owner, "by=storage_class&figure=iops&direction=read")
    _assert_same(rolled, exact)
    assert [(g["n"], g["min"], g["max"]) for g in rolled["groups"]] == [(2, 1_000, 3_000)]


def _result(team_id: int, iops: float) -> Result:
    result = Result(
        team_id=team_id,
        host_name="h",
        job_name="randread-4k",
        job_index=0,
        fio_version="fio-3.33",
        imported=True,
        partial=False,
        options={"rw": "randread", "bs": "4k", "iodepth": "32"},
        cpu={"usr_pct": 1.0},
        detail={},
        measured_at=datetime.now(UTC),
        comparability={},
        fingerprint="f",
        repetition=0,
        spec_checks=[],
        findings=[],
    )
    result.directions = [
        ResultDirection(direction="read", iops=iops, bw_bytes=iops * 4096, io_bytes=0, runtime_ms=1)
    ]
    return result


@contextmanager
def _committed_team(engine: Any, iops: Sequence[float]) -> Iterator[tuple[int, list[int]]]:
    """A team of its own with results of these IOPS, committed and counted; removed afterwards."""
    with Session(engine) as setup:
        team = Team(name=f"rollup-race-{random.randrange(10**9)}")
        setup.add(team)
        setup.flush()
        results = [_result(team.id, value) for value in iops]
        setup.add_all(results)
        setup.flush()
        rollup.add_results(setup, results)
        setup.commit()
        team_id, ids = team.id, [r.id for r in results]
    try:
        yield team_id, ids
    finally:
        with Session(engine) as cleanup:
            cleanup.execute(delete(Team).where(Team.id == team_id))
            cleanup.commit()


def _waits_then_goes_on(second: Callable[[], object], first: Session) -> None:
    """`second` runs while `first` holds what it needs: it waits until `first` commits, then ends."""
    thread = threading.Thread(target=second)
    thread.start()
    thread.join(timeout=1.0)
    assert thread.is_alive()  # waiting for the first transaction
    first.commit()
    thread.join(timeout=30)
    assert not thread.is_alive()


def _rows(engine: Any, team_id: int) -> Sequence[GroupRollup]:
    with Session(engine) as check:
        return check.scalars(select(GroupRollup).where(GroupRollup.team_id == team_id)).all()


def test_two_imports_at_once_lose_no_counts(engine: Any) -> None:
    """Two transactions counting into the same rollup row: the second waits for the first (PostgreSQL)."""
    with _committed_team(engine, [1_000]) as (team_id, _), Session(engine) as a, Session(engine) as b:
        slow = _result(team_id, 2_000)
        a.add(slow)
        a.flush()
        rollup.add_results(a, [slow])  # holds the team's rollup until it commits

        def other() -> None:
            fast = _result(team_id, 3_000)
            b.add(fast)
            b.flush()
            rollup.add_results(b, [fast])
            b.commit()

        _waits_then_goes_on(other, a)
        rows = _rows(engine, team_id)
        assert {r.figure for r in rows} >= {"iops", "bw_bytes", "cpu_usr_pct"}
        assert [(r.figure, r.n, sum(r.counts)) for r in rows] == [(r.figure, 3, 3) for r in rows]
        iops = next(r for r in rows if r.figure == "iops")
        assert (iops.low, iops.high) == (1_000, 3_000)


def _migration(name: str) -> Any:
    """A migration module, loaded from its file (the versions folder is not a package)."""
    (path,) = (Path(__file__).parents[3] / "migrations" / "versions").glob(f"*{name}.py")
    spec = importlib.util.spec_from_file_location(f"migration_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rollup_rows(db: Session, team_id: int) -> list[tuple[Any, ...]]:
    rows = db.scalars(select(GroupRollup).where(GroupRollup.team_id == team_id)).all()
    columns = [c.key for c in GroupRollup.__table__.columns if c.key != "id"]
    return sorted(tuple(repr(getattr(row, c)) for c in columns) for row in rows)


def test_the_upgrade_builds_the_rollup_the_store_path_keeps_from_existing_results(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    """Migration 0019 counts the results already stored: as the store path would have, row for row."""
    rng = random.Random(19)
    targets = [
        classed_target(client, db, owner, "NAS backfill", price=0.3, capacity=1000),
        classed_target(client, db, owner, "CFS backfill", price=None, capacity=2000),
    ]
    stamp = 1_700_000_000
    ids = []
    for t in targets:
        for bs, rw in (("4k", "randread"), ("64k", "randread"), ("1m", "read")):
            for _ in range(4):
                stamp += 1
                out = shaped(base, iops=20_000 * rng.lognormvariate(0, 0.4), bs=bs, rw=rw, timestamp=stamp)
                ids.append(imported(client, owner, out, target_id=str(t.id))["id"])
    imported(client, owner, shaped(base, iops=5_000, timestamp=stamp + 1))  # no target, no class
    idle = shaped(base, iops=0, timestamp=stamp + 2, lat_us=100)
    imported(client, owner, idle, target_id=str(targets[0].id))
    for result_id in ids[::5]:  # the store path recounts what deletions leave
        assert client.delete(f"/api/v1/results/{result_id}", headers=owner.headers).status_code == 204
    kept_by_store_path = _rollup_rows(db, owner.team.id)
    assert len(kept_by_store_path) > 50

    migration = _migration("a3d0e1f2b4c5_group_rollup")
    # Each backfill over the same results, as the upgrade runs it on PostgreSQL and on SQLite.
    for backfill in (migration._backfill_postgresql, migration._backfill_batches):
        db.execute(delete(GroupRollup))
        backfill(db.connection())
        db.expire_all()
        assert _rollup_rows(db, owner.team.id) == kept_by_store_path, backfill.__name__


def test_a_result_deleted_by_two_requests_at_once_leaves_the_rollup_once(engine: Any) -> None:
    """The second deletion finds the row gone (it waited on the first): it takes nothing out again."""
    # Two alike in the middle: taking one out twice would leave a row that still adds up.
    with (
        _committed_team(engine, [1_000, 2_000, 2_000, 3_000]) as (team_id, ids),
        Session(engine) as a,
        Session(engine) as b,
    ):
        first, second = a.get(Result, ids[1]), b.get(Result, ids[1])
        assert first is not None and second is not None
        results_controls.delete_result(a, first)  # holds the row until it commits
        _waits_then_goes_on(lambda: (results_controls.delete_result(b, second), b.commit()), a)
        iops = next(r for r in _rows(engine, team_id) if r.figure == "iops")
        assert (iops.n, sum(iops.counts), iops.low, iops.high) == (3, 3, 1_000, 3_000)
