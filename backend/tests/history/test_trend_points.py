"""The points of a series as the trend and change detection read them (history.repository)."""

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from storbench_api.history import repository
from storbench_api.models import Target
from tests.conftest import Caller, make_host, make_target
from tests.support.factories import make_result

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _point(db: Session, target: Target, caller: Caller, at: datetime, iops: float, **extra: object) -> int:
    return make_result(db, team=caller.team, target=target, measured_at=at, iops={"read": iops}, **extra).id


def test_a_series_is_read_newest_first_from_a_position_on_and_without_unfinished_results(
    db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    team = owner.team.id
    old = _point(db, target, owner, T0, 100)
    # Two results measured at the same moment: (measured_at, id) orders them.
    tied_first = _point(db, target, owner, T0 + timedelta(hours=1), 200)
    tied_second = _point(db, target, owner, T0 + timedelta(hours=1), 300)
    partial = _point(db, target, owner, T0 + timedelta(hours=2), 400, partial=True)
    failed = _point(db, target, owner, T0 + timedelta(hours=3), 500, error=5)
    newest = _point(db, target, owner, T0 + timedelta(hours=4), 600)
    _point(db, target, owner, T0 + timedelta(hours=5), 700, job_name="seqwrite-1m")
    key = repository.SeriesKey(team, target.id, "randread-4k", "read", "iops")

    every = repository.trend_points(db, key, limit=10)
    assert [(r[0], r[2]) for r in every] == [
        (newest, 600),
        (failed, 500),
        (partial, 400),
        (tied_second, 300),
        (tied_first, 200),
        (old, 100),
    ]
    assert [r[0] for r in repository.trend_points(db, key, limit=2)] == [newest, failed]

    since_tie = repository.trend_points(db, key, limit=10, since=(T0 + timedelta(hours=1), tied_second))
    assert [r[0] for r in since_tie] == [newest, failed, partial, tied_second]
    since_first = repository.trend_points(db, key, limit=10, since=(T0 + timedelta(hours=1), tied_first))
    assert [r[0] for r in since_first] == [newest, failed, partial, tied_second, tied_first]

    complete = repository.trend_points(db, key, limit=10, since=(T0, old), complete_only=True)
    assert [r[0] for r in complete] == [newest, tied_second, tied_first, old]
    bandwidth = repository.SeriesKey(team, target.id, "randread-4k", "read", "bw_bytes")
    assert repository.trend_points(db, bandwidth, limit=1)[0][2] == 600 * 4096
