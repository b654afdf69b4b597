"""Sign-in and who-am-I endpoints."""

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.security import OAuth2PasswordRequestForm
from sqlalchemy.orm import Session

from storbench_api.auth import service
from storbench_api.auth.schemas import MeOut, TeamRef, TokenOut
from storbench_api.db import get_db
from storbench_api.deps import CurrentPrincipal
from storbench_api.settings import get_settings

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/token", response_model=TokenOut, summary="Sign in with email and password")
def issue_token(
    form: Annotated[OAuth2PasswordRequestForm, Depends()], db: Annotated[Session, Depends(get_db)]
) -> TokenOut:
    """OAuth2 password flow: the form's username is the email."""
    token, expires_at = service.sign_in(db, form.username, form.password, get_settings().token_ttl)
    db.commit()
    return TokenOut(access_token=token, expires_at=expires_at)


@router.get("/me", response_model=MeOut, summary="The signed-in user")
def me(principal: CurrentPrincipal) -> MeOut:
    """Who the token belongs to, and their team and role."""
    return MeOut(
        id=principal.user_id,
        email=principal.email,
        team=TeamRef(id=principal.team_id, name=principal.team_name),
        role=principal.role,
    )
