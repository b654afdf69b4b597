"""The results a curve is drawn from."""

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from storbench_api.models import Result


def results_for_curves(
    db: Session, team_id: int, result_ids: Sequence[int], run_ids: Sequence[int]
) -> list[Result]:
    """The team's results among these ids and of these runs, with their directions, in id order."""
    wanted = []
    if result_ids:
        wanted.append(Result.id.in_(list(result_ids)))
    if run_ids:
        wanted.append(Result.run_id.in_(list(run_ids)))
    if not wanted:
        return []
    query = (
        select(Result)
        .where(Result.team_id == team_id, wanted[0] if len(wanted) == 1 else wanted[0] | wanted[1])
        .options(selectinload(Result.directions))
        .order_by(Result.id)
    )
    return list(db.scalars(query).all())
