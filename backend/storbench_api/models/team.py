"""Teams, users, memberships and the tokens that authenticate them."""

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storbench_api.db import Base, TimestampMixin, utcnow


class Role(enum.StrEnum):
    """What a member may do in a team."""

    owner = "owner"
    member = "member"
    viewer = "viewer"


class Team(TimestampMixin, Base):
    """A team: the owner of every resource."""

    __tablename__ = "teams"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Unique only among one user's teams (teams.service): a name must not tell who else exists.
    name: Mapped[str] = mapped_column(String(120))
    # How many days fio's raw outputs and runs' per-second series are kept (None: forever); the
    # summaries (results and their figures) are kept forever whatever these say.
    raw_output_retention_days: Mapped[int | None]
    series_retention_days: Mapped[int | None]


class User(TimestampMixin, Base):
    """A person who signs in."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))


class Membership(TimestampMixin, Base):
    """A user's role in a team."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("user_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    role: Mapped[Role] = mapped_column(Enum(Role, native_enum=False, length=16))

    user: Mapped[User] = relationship(lazy="raise")
    team: Mapped[Team] = relationship(lazy="raise")


class AuthToken(TimestampMixin, Base):
    """A bearer token for a user acting in one team; only its hash is stored."""

    __tablename__ = "auth_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16), default="session")
    # API tokens: a name to recognise them by and a role no higher than their creator's.
    name: Mapped[str | None] = mapped_column(String(120))
    role: Mapped[Role | None] = mapped_column(Enum(Role, native_enum=False, length=16))
    expires_at: Mapped[datetime | None]
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class Invitation(TimestampMixin, Base):
    """A single-use link that adds its holder to a team with a role."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[Role] = mapped_column(Enum(Role, native_enum=False, length=16))
    email: Mapped[str | None] = mapped_column(String(254))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    expires_at: Mapped[datetime]
    accepted_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class EnrollmentToken(TimestampMixin, Base):
    """Lets a new target host register itself in a team, and nothing else."""

    __tablename__ = "enrollment_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(120))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    expires_at: Mapped[datetime]
    uses_left: Mapped[int | None]
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]
    # Set by an owner to replace that host: the token re-enrolls it (new credential) and nothing else.
    replaces_host_id: Mapped[int | None] = mapped_column(ForeignKey("hosts.id", ondelete="CASCADE"))


class AuditEvent(Base):
    """Who started, cancelled, created or deleted what, and on which hosts."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor: Mapped[str] = mapped_column(String(300))
    action: Mapped[str] = mapped_column(String(64), index=True)
    resource_type: Mapped[str] = mapped_column(String(32))
    resource_id: Mapped[int | None]
    hosts: Mapped[list[str]] = mapped_column(JSON, default=list)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
