"""Measured results: one row per job × host, one row per direction for comparison queries."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Index, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storbench_api.db import Base, TimestampMixin, utcnow


class RawOutput(TimestampMixin, Base):
    """An fio output exactly as produced or uploaded, gzip-compressed; shared by its results."""

    __tablename__ = "raw_outputs"
    __table_args__ = (Index("ix_raw_outputs_team_id_sha256", "team_id", "sha256"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    source_format: Mapped[str] = mapped_column(String(32))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    content_gz: Mapped[bytes] = mapped_column(LargeBinary)
    # SHA-256 of the output as stored (UTF-8): an identical output imported again is recognised.
    sha256: Mapped[str | None] = mapped_column(String(64))
    # When the team's retention emptied content_gz (size and digest stay: a re-import is recognised).
    pruned_at: Mapped[datetime | None]


class Result(TimestampMixin, Base):
    """What fio reported for one job on one host (or an imported output)."""

    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("assignment_id", "job_index"),
        # History is read per team, newest first by (measured_at, id), filtered by one of these
        # (migration 0013): a page walks one index backwards from its cursor and stops at `limit`.
        Index("ix_results_team_measured", "team_id", "measured_at", "id"),
        Index("ix_results_team_target_measured", "team_id", "target_id", "measured_at", "id"),
        # A trend is one job on one target, and reads only these columns of each point: its rows are
        # an index-only scan (migration 0018).
        Index(
            "ix_results_series_covering",
            "team_id",
            "target_id",
            "job_name",
            "measured_at",
            "id",
            postgresql_include=["fingerprint", "run_id", "host_name", "repetition", "partial", "error"],
        ),
        Index("ix_results_team_class_measured", "team_id", "storage_class", "measured_at", "id"),
        Index("ix_results_team_job_measured", "team_id", "job_name", "measured_at", "id"),
        Index("ix_results_team_imported_measured", "team_id", "imported", "measured_at", "id"),
        Index("ix_results_team_label_measured", "team_id", "label", "measured_at", "id"),
        Index("ix_results_team_host_measured", "team_id", "host_name", "measured_at", "id"),
        Index("ix_results_team_fingerprint_measured", "team_id", "fingerprint", "measured_at", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    assignment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assignments.id", ondelete="CASCADE"), index=True
    )
    host_id: Mapped[int | None] = mapped_column(ForeignKey("hosts.id", ondelete="SET NULL"))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("targets.id", ondelete="SET NULL"))
    host_name: Mapped[str] = mapped_column(String(255))
    job_name: Mapped[str] = mapped_column(String(120))
    # Position in fio's output: clones of one job without group_reporting share a name.
    job_index: Mapped[int] = mapped_column(default=0)
    fio_version: Mapped[str | None] = mapped_column(String(64))
    imported: Mapped[bool] = mapped_column(default=False)
    # Labels for comparison: from the target for runs, from the uploader for imports.
    storage_class: Mapped[str | None] = mapped_column(String(120), index=True)
    label: Mapped[str | None] = mapped_column(String(200))
    # fio was stopped before the end (cancel, lost worker): figures cover only part of the run.
    partial: Mapped[bool] = mapped_column(default=False)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    cpu: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Full per-direction detail (lat/clat/slat with every percentile), as the API returns it.
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    raw_output_id: Mapped[int | None] = mapped_column(
        ForeignKey("raw_outputs.id", ondelete="SET NULL"), index=True
    )
    # fio's error number for the job (0: none).
    error: Mapped[int] = mapped_column(default=0)
    # The spec version the result was judged by, and what the advisor said when it was stored.
    storage_class_spec_id: Mapped[int | None] = mapped_column(
        ForeignKey("storage_class_specs.id", ondelete="SET NULL"), index=True
    )
    spec_checks: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    findings: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    # When fio measured it: the end of the run, or the timestamp an imported output carries
    # (created_at is when storbench stored it). History and trends are ordered by this.
    measured_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Which repetition of the run's jobs this is (0 for the first; runs repeat N times).
    repetition: Mapped[int] = mapped_column(default=0, server_default="0")
    # What makes results comparable (normalised job options, fio version, host class, mount
    # options, storage class and capacity), and a digest of it: equal digests compare fairly.
    comparability: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    fingerprint: Mapped[str | None] = mapped_column(String(64), index=True)
    # Per direction, whether its IOPS reached steady state and when (runs.steadiness); None: no
    # per-second series or repetitions to tell (imports).
    steady_state: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    directions: Mapped[list["ResultDirection"]] = relationship(
        back_populates="result", lazy="raise", order_by="ResultDirection.direction"
    )


class ResultDirection(Base):
    """Headline figures of one direction of a result, as columns to compare across history."""

    __tablename__ = "result_directions"
    __table_args__ = (
        UniqueConstraint("result_id", "direction"),
        # A trend point's figure without reading the row, for the figures change detection follows
        # (iops also the trend's default); other figures read the row (migration 0018).
        Index(
            "ix_result_directions_figures",
            "result_id",
            "direction",
            postgresql_include=["iops", "bw_bytes", "lat_mean_ns"],
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Looked up through the unique (result_id, direction) and ix_result_directions_figures.
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    direction: Mapped[str] = mapped_column(String(8))
    iops: Mapped[float] = mapped_column(Float)
    bw_bytes: Mapped[float] = mapped_column(Float)
    io_bytes: Mapped[int] = mapped_column(BigInteger)
    runtime_ms: Mapped[int] = mapped_column(BigInteger)
    total_ios: Mapped[int | None] = mapped_column(BigInteger)
    lat_mean_ns: Mapped[float | None] = mapped_column(Float)
    lat_min_ns: Mapped[float | None] = mapped_column(Float)
    lat_max_ns: Mapped[float | None] = mapped_column(Float)
    lat_stddev_ns: Mapped[float | None] = mapped_column(Float)
    clat_p50_ns: Mapped[float | None] = mapped_column(Float)
    clat_p90_ns: Mapped[float | None] = mapped_column(Float)
    clat_p95_ns: Mapped[float | None] = mapped_column(Float)
    clat_p99_ns: Mapped[float | None] = mapped_column(Float)
    clat_p99_9_ns: Mapped[float | None] = mapped_column(Float)
    clat_p99_99_ns: Mapped[float | None] = mapped_column(Float)

    result: Mapped[Result] = relationship(back_populates="directions", lazy="raise")
