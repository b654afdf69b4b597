"""Test plans: one or more fio jobs saved under a name."""

from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, TimestampMixin


class Plan(TimestampMixin, Base):
    """A saved list of normalised fio jobs."""

    __tablename__ = "plans"
    __table_args__ = (UniqueConstraint("team_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    description: Mapped[str | None] = mapped_column(Text)
    jobs: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    preset_id: Mapped[str | None] = mapped_column(String(80))
    # Hosts of a multi-host run share one set of files instead of writing their own.
    shared_files: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The sweep its runs execute (RunCreate's sweep, sweep_shuffle, sweep_seed, sweep_stop) and
    # whether they precondition the working set first; None / False: plain runs.
    sweep: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    precondition: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The current version (plan_versions keeps every version's jobs; runs keep the one they ran).
    version: Mapped[int] = mapped_column(default=1, server_default="1")
