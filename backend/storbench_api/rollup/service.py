"""The rollup kept in step with results, in the transaction that stores or deletes them."""

from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy.orm import Session

from storbench_api.models import GroupRollup, Result
from storbench_api.rollup import repository
from storbench_api.rollup.counts import Acc, Key, RowKey, accumulate, key_of, observations


def _in_order(accs: Mapping[RowKey, Acc]) -> list[tuple[RowKey, Acc]]:
    """Rows in one order for every writer, so two transactions never wait on each other in a circle."""
    return sorted(accs.items(), key=lambda item: repr(item[0]))


def _write(db: Session, accs: Mapping[RowKey, Acc], *, merge: bool) -> None:
    """Merge accs into the stored rows (merge=True), or make the stored rows equal to them."""
    for (team_id, key, direction, figure), acc in _in_order(accs):
        row = repository.row_at(db, team_id, key, direction, figure)
        if row is None:
            if acc.n:
                columns = {**key._asdict(), **acc.columns()}
                db.add(GroupRollup(team_id=team_id, direction=direction, figure=figure, **columns))
            continue
        if merge:
            acc = acc.copy()
            acc.merge(row.n, row.zeros, row.low, row.high, row.bins, row.counts)
        if not acc.n:
            db.delete(row)
            continue
        for column, value in acc.columns().items():
            setattr(row, column, value)
    db.flush()


def add_results(db: Session, results: Sequence[Result]) -> None:
    """Count freshly stored results (their directions set on them) into the rollup."""
    if not results:
        return
    accs: dict[RowKey, Acc] = {}
    for result in results:
        accumulate(accs, result.team_id, key_of(result), observations(result.cpu, result.directions))
    repository.lock(db, (r.team_id for r in results))
    _write(db, accs, merge=True)


def removal_of(db: Session, team_id: int, result_ids: Sequence[int]) -> dict[RowKey, Acc]:
    """What these results counted into the rollup (read before they are deleted, for remove())."""
    accs: dict[RowKey, Acc] = {}
    for key, obs in repository.results_by_id(db, team_id, result_ids):
        accumulate(accs, team_id, key, obs)
    return accs


def _left_after(row: GroupRollup, gone: Acc) -> Acc | None:
    """What the row holds once `gone` is taken out, or None when it must be counted afresh.

    Counted afresh: a row that does not hold what is taken out, or whose min or max was among the
    removed values (unless every value of the row is the same): the next extreme is among the
    results that remain.
    """
    left = Acc()
    left.merge(row.n, row.zeros, row.low, row.high, row.bins, row.counts)
    left.n -= gone.n
    left.zeros -= gone.zeros
    left.bins.subtract(gone.bins)
    if left.zeros < 0 or min(left.bins.values(), default=0) < 0 or left.zeros + left.bins.total() != left.n:
        return None
    if left.n and row.low < row.high and (gone.low <= row.low or gone.high >= row.high):
        return None
    return left


def remove(db: Session, team_id: int, removed: Mapping[RowKey, Acc]) -> None:
    """Take deleted results out of the rollup (after the deletion): n, min and max stay exact.

    n, zeros and the histogram lose exactly what the results had added; only the rows _left_after
    cannot tell are recounted from the results that remain. Recounting at every deletion read
    every result of the key: 1.9 s to delete one result of a key of 4,955 on the
    10-million-result bench (48 s with a cold cache), holding the team's rollup lock all along.
    """
    repository.lock(db, [team_id])
    recount: set[Key] = set()
    for (team, key, direction, figure), gone in _in_order(removed):
        row = repository.row_at(db, team, key, direction, figure)
        left = _left_after(row, gone) if row is not None else None
        if row is None or left is None:
            recount.add(key)
        elif left.n == 0:
            db.delete(row)
        else:
            for column, value in left.columns().items():
                setattr(row, column, value)
    db.flush()
    if recount:
        refresh(db, team_id, recount)


def refresh(db: Session, team_id: int, keys: Iterable[Key]) -> None:
    """Recount these keys from the results that remain (after a deletion): exact n, min and max."""
    repository.lock(db, [team_id])
    for key in sorted(set(keys)):
        accs: dict[RowKey, Acc] = {}
        for result_key, obs in repository.results_of_key(db, team_id, key):
            if result_key == key:
                accumulate(accs, team_id, key, obs)
        for row in repository.rows_of_key(db, team_id, key):
            if (team_id, key, row.direction, row.figure) not in accs:
                db.delete(row)
        db.flush()
        _write(db, accs, merge=False)


def detach_targets(db: Session, team_id: int, target_ids: Sequence[int]) -> None:
    """Before targets are deleted (their results keep no target): move their rows to 'no target'."""
    if not target_ids:
        return
    repository.lock(db, [team_id])
    rows = repository.rows_of_targets(db, team_id, target_ids)
    accs: dict[RowKey, Acc] = {}
    for row in rows:
        key = Key(**{**{f: getattr(row, f) for f in Key._fields}, "target_id": 0})
        accs.setdefault((team_id, key, row.direction, row.figure), Acc()).merge(
            row.n, row.zeros, row.low, row.high, row.bins, row.counts
        )
    for row in rows:
        db.delete(row)
    db.flush()
    _write(db, accs, merge=True)
