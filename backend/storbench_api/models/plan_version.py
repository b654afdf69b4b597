"""Every version of a plan's jobs: editing a plan adds one, and runs keep the version they ran."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, utcnow


class PlanVersion(Base):
    """The jobs of one version of a plan; never changed once written."""

    __tablename__ = "plan_versions"
    __table_args__ = (UniqueConstraint("plan_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    plan_id: Mapped[int] = mapped_column(ForeignKey("plans.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column()
    jobs: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    shared_files: Mapped[bool] = mapped_column(default=False, server_default=false())
    description: Mapped[str | None] = mapped_column(Text)
    # Who saved it (an email, or a token's name), as the audit log names actors.
    created_by: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
