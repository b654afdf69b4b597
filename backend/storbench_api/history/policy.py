"""How the team finds changes: E-divisive means, unless its owner chose a threshold."""

from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.history import repository
from storbench_api.history.changepoints import DEFAULT_ALPHA, DetectionMethod, Policy
from storbench_api.history.schemas import PolicyIn, PolicyOut
from storbench_api.models import ChangePointPolicy


def policy_for(db: Session, team_id: int) -> Policy:
    """The team's detection policy (E-divisive when it set none)."""
    row = repository.get_policy(db, team_id)
    if row is None:
        return Policy()
    return Policy(
        method=DetectionMethod(row.method), threshold=row.threshold, min_points_after=row.min_points_after
    )


def describe_policy(db: Session, team_id: int) -> PolicyOut:
    """The team's policy as the API shows it."""
    row = repository.get_policy(db, team_id)
    policy = policy_for(db, team_id)
    return PolicyOut(
        method=policy.method,
        threshold=policy.threshold,
        min_points_after=policy.min_points_after,
        alpha=DEFAULT_ALPHA,
        updated_at=row.updated_at if row else None,
        updated_by=row.updated_by if row else None,
    )


def set_policy(db: Session, principal: Principal, body: PolicyIn) -> PolicyOut:
    """Replace the team's detection policy (owners); changes already found stay."""
    row = repository.get_policy(db, principal.team_id)
    if row is None:
        row = ChangePointPolicy(team_id=principal.team_id)
        db.add(row)
    row.method = body.method.value
    row.threshold = body.threshold
    row.min_points_after = body.min_points_after
    row.updated_by = principal.actor
    row.updated_at = utcnow()
    db.flush()
    return describe_policy(db, principal.team_id)
