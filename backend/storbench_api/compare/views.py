"""Saved views: a comparison or grouped query kept under a name for the whole team."""

from sqlalchemy.orm import Session

from storbench_api.compare import repository
from storbench_api.compare.schemas import CompareDirection, GroupBy, SavedViewIn, SavedViewOut
from storbench_api.compare.service import parse_ids
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.figures.definition import COMPARED_FIGURES
from storbench_api.models import SavedView, User
from storbench_api.pagination import Page
from storbench_api.teams import quotas

_COMPARE_KEYS = frozenset({"ids", "baseline"})
_GROUP_FILTERS = frozenset(
    {
        "ids",
        "target_id",
        "storage_class",
        "imported",
        "job_name",
        "label",
        "host_name",
        "run_id",
        "measured_after",
        "measured_before",
    }
)
_GROUP_KEYS = frozenset({"by", "figure", "direction"}) | _GROUP_FILTERS
_CHOICES: dict[str, tuple[str, ...]] = {
    "by": tuple(GroupBy),
    "figure": tuple(COMPARED_FIGURES),
    "direction": tuple(CompareDirection),
}


def _refuse(key: str, value: str, reason: str) -> Invalid:
    return Invalid(
        f"query.{key}: {reason}", [{"field": f"query.{key}", "value": value[:80], "reason": reason}]
    )


def _check_compare(db: Session, team_id: int, query: dict[str, str]) -> dict[str, str]:
    if "ids" not in query:
        raise _refuse("ids", "", "a compare view needs ids (comma-separated result ids)")
    ids = parse_ids(query["ids"], "query.ids")
    missing = [i for i in ids if i not in repository.existing_result_ids(db, team_id, ids)]
    if missing:
        raise _refuse("ids", query["ids"], f"no result {', '.join(map(str, missing[:20]))} in your team")
    baseline = query.get("baseline", str(ids[0])).strip()
    if not baseline.isdigit() or int(baseline) not in ids:
        raise _refuse("baseline", baseline, "the baseline must be one of the ids")
    return {"ids": ",".join(map(str, ids)), "baseline": baseline}


def _check_groups(query: dict[str, str]) -> dict[str, str]:
    for key, choices in _CHOICES.items():
        if key in query and query[key] not in choices:
            allowed = ", ".join(choices)
            raise _refuse(key, query[key], f"must be one of {allowed}")
    if "by" not in query:
        raise _refuse("by", "", "a groups view needs by (what to group by)")
    return dict(query)


def _validated(db: Session, team_id: int, body: SavedViewIn) -> dict[str, str]:
    allowed = _COMPARE_KEYS if body.kind == "compare" else _GROUP_KEYS
    unknown = sorted(set(body.query) - allowed)
    if unknown:
        raise _refuse(
            unknown[0],
            body.query[unknown[0]],
            f"not a key of a {body.kind} view ({', '.join(sorted(allowed))})",
        )
    if body.kind == "compare":
        return _check_compare(db, team_id, body.query)
    return _check_groups(body.query)


def describe(view: SavedView, creator: str | None) -> SavedViewOut:
    """A saved view as the API shows it."""
    return SavedViewOut(
        id=view.id,
        name=view.name,
        kind=view.kind,
        query={str(k): str(v) for k, v in view.query.items()},
        path=f"/compare?view={view.id}",
        created_at=view.created_at,
        created_by=creator,
    )


def _creator(db: Session, view: SavedView) -> str | None:
    if view.created_by_id is None:
        return None
    user = db.get(User, view.created_by_id)
    return user.email if user else None


def create_view(db: Session, team_id: int, user_id: int, body: SavedViewIn) -> SavedViewOut:
    """Keep a view under a name unique in the team."""
    query = _validated(db, team_id, body)
    if repository.view_named(db, team_id, body.name) is not None:
        raise Conflict(f"your team already has a saved view named '{body.name}'; choose another name")
    quotas.ensure_room(db, team_id, quotas.SAVED_VIEWS, SavedView.team_id)
    view = SavedView(team_id=team_id, name=body.name, kind=body.kind, query=query, created_by_id=user_id)
    db.add(view)
    db.flush()
    return describe(view, _creator(db, view))


def list_views(db: Session, team_id: int, page: Page) -> tuple[list[SavedViewOut], int]:
    """A page of the team's saved views, newest first, and how many it has."""
    rows, total = repository.list_views(db, team_id, page)
    return [describe(v, _creator(db, v)) for v in rows], total


def get_view(db: Session, team_id: int, view_id: int) -> SavedViewOut:
    """One saved view of the team, or 404."""
    view = repository.get_view(db, team_id, view_id)
    if view is None:
        raise NotFound(f"no saved view {view_id} in your team")
    return describe(view, _creator(db, view))


def delete_view(db: Session, team_id: int, view_id: int) -> None:
    """Forget a saved view (the results stay)."""
    view = repository.get_view(db, team_id, view_id)
    if view is None:
        raise NotFound(f"no saved view {view_id} in your team")
    db.delete(view)
    db.flush()
