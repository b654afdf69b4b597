"""history: covering indexes for the trend and the previous-run query (helper: scale)

A trend (history.repository.trend_points) reads the newest points of one job on one target: with
the point's columns INCLUDEd in the series index and the figures in a (result_id, direction) index,
both sides of its join are index-only scans (results rows are ~1.5 kB, five to a page: the heap
fetch of each point was a random read). It replaces ix_results_team_target_job_measured (same keys,
so it serves every query that one served); ix_result_directions_result_id goes too (the unique
constraint (result_id, direction) and the new index both lead with result_id).

The previous run of a plan on a target (compare.repository.previous_run) was a bitmap scan of all
the target's runs (37,000 on the bench) filtered by team, plan and status: one index per way a run
names its plan (plan_id, plan_name, neither) makes it a backward walk that stops at the first match.

Plain CREATE INDEX (in the migration's transaction); on 10 million results it takes minutes.
Index-only scans need the visibility map: autovacuum keeps it current in production.

Revision ID: f2c9d0e1a3b4
Revises: e1b8c9d0f2a3
Create Date: 2026-11-23 18:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "f2c9d0e1a3b4"
down_revision: str | None = "e1b8c9d0f2a3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The models declare the same (Result, ResultDirection and Run __table_args__).
_SERIES_KEYS = ["team_id", "target_id", "job_name", "measured_at", "id"]
_SERIES_INCLUDE = ["fingerprint", "run_id", "host_name", "repetition", "partial", "error"]
# The figures change detection follows after every stored result (history.service.DETECTED_METRICS),
# iops the trend's default. All twelve made the index 1.7 GB on the bench (the table is 2.1 GB) for
# no fewer pages read when warm (4 levels either way); these three make it 0.7 GB. A trend of
# another figure reads it (or the unique index) and then the row, as before.
_FIGURES = ["iops", "bw_bytes", "lat_mean_ns"]
_RUN_INDEXES = {
    "ix_runs_team_target_plan": ["team_id", "target_id", "plan_id", "id"],
    "ix_runs_team_target_plan_name": ["team_id", "target_id", "plan_name", "id"],
    "ix_runs_team_target_id": ["team_id", "target_id", "id"],
}


def upgrade() -> None:
    op.create_index("ix_results_series_covering", "results", _SERIES_KEYS, postgresql_include=_SERIES_INCLUDE)
    op.drop_index("ix_results_team_target_job_measured", table_name="results")
    op.create_index(
        "ix_result_directions_figures",
        "result_directions",
        ["result_id", "direction"],
        postgresql_include=_FIGURES,
    )
    op.drop_index("ix_result_directions_result_id", table_name="result_directions")
    for name, columns in _RUN_INDEXES.items():
        op.create_index(name, "runs", columns)


def downgrade() -> None:
    for name in reversed(list(_RUN_INDEXES)):
        op.drop_index(name, table_name="runs")
    op.create_index("ix_result_directions_result_id", "result_directions", ["result_id"])
    op.drop_index("ix_result_directions_figures", table_name="result_directions")
    op.create_index("ix_results_team_target_job_measured", "results", _SERIES_KEYS)
    op.drop_index("ix_results_series_covering", table_name="results")
