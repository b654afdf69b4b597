"""Liveness and readiness, without authentication."""

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import text

from storbench_api import __version__
from storbench_api.deps import DB
from storbench_api.settings import get_settings

router = APIRouter(tags=["health"])


class Health(BaseModel):
    """Service status."""

    status: Literal["ok"]
    version: str
    mode: Literal["embedded", "production"]
    database: Literal["ok"]


@router.get("/health", response_model=Health, summary="Service health")
def health(db: DB) -> Health:
    """ok when the database answers."""
    db.execute(text("SELECT 1"))
    return Health(status="ok", version=__version__, mode=get_settings().mode, database="ok")
