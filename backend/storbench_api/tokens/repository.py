"""Queries for API tokens (kind "api"; browser sessions are the auth domain's)."""

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import AuthToken


def list_api_tokens(db: Session, team_id: int) -> Sequence[AuthToken]:
    """The team's API tokens, newest first."""
    return db.scalars(
        select(AuthToken)
        .where(AuthToken.team_id == team_id, AuthToken.kind == "api")
        .order_by(AuthToken.id.desc())
    ).all()


def get_api_token(db: Session, team_id: int, token_id: int) -> AuthToken | None:
    """The team's API token with this id."""
    return db.scalar(
        select(AuthToken).where(
            AuthToken.id == token_id, AuthToken.team_id == team_id, AuthToken.kind == "api"
        )
    )
