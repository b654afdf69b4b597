"""Target hosts: machines that run a storbench worker."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, TimestampMixin


class Host(TimestampMixin, Base):
    """A host registered by a team; its worker authenticates with a host credential."""

    __tablename__ = "hosts"
    # A name is unique among the team's hosts that are not removed (a removed host's name is free).
    __table_args__ = (
        Index(
            "uq_hosts_team_id_name_active",
            "team_id",
            "name",
            unique=True,
            postgresql_where=text("removed_at IS NULL"),
            sqlite_where=text("removed_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    credential_hash: Mapped[str] = mapped_column(String(64), unique=True)
    last_seen_at: Mapped[datetime | None]
    fio_version: Mapped[str | None] = mapped_column(String(64))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Free-form labels to start a run on every host that has one (e.g. "rack4", "nfs-clients").
    labels: Mapped[list[str]] = mapped_column(JSON, default=list)
    # Revoked: its credential and broker user are gone; its history stays.
    revoked_at: Mapped[datetime | None]
    # Why, when the service revoked it (it wrote past its broker budget); None when an owner did.
    revoked_reason: Mapped[str | None] = mapped_column(String(300))
    # Removed: gone from lists and pickers, credential and broker user revoked; runs and results stay.
    removed_at: Mapped[datetime | None]
