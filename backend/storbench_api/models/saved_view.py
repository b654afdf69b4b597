"""Saved comparisons: a named compare or grouped view a team opens again by id."""

from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, TimestampMixin


class SavedView(TimestampMixin, Base):
    """A named comparison (result ids and a baseline) or grouped query, shared by the team."""

    __tablename__ = "saved_views"
    __table_args__ = (UniqueConstraint("team_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    # "compare" (ids, baseline) or "groups" (by, figure, direction and the results list's filters).
    kind: Mapped[str] = mapped_column(String(16))
    query: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
