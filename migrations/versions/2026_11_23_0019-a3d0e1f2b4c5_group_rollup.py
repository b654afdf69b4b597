"""compare: the grouped-by-class rollup

Revision ID: a3d0e1f2b4c5
Revises: f2c9d0e1a3b4
Create Date: 2026-11-23 18:30:00

group_rollups: per team, direction, figure and kind of result (target, class as stored, spec,
stored capacity, job name, imported, job shape) n, exact min/max and a histogram of 1 % logarithmic
bins (storbench_api/rollup keeps it up to date). The backfill is set-based on PostgreSQL: the job shape
of each distinct job-option text is computed once with the product's own job_shape (a few dozen
texts even at ten million results), then one INSERT … SELECT … GROUP BY bins every figure. SQLite
(embedded installs, small) is backfilled in batches of results through the same code as the store
path.
"""

import json
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "a3d0e1f2b4c5"
down_revision: str | None = "f2c9d0e1a3b4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEY = ("target_id", "storage_class", "storage_class_spec_id", "capacity_gib", "job_name", "imported")
_SHAPE = ("rw", "bs", "iodepth", "numjobs")
_FIGURES = (
    "iops",
    "bw_bytes",
    "lat_mean_ns",
    "clat_p50_ns",
    "clat_p90_ns",
    "clat_p95_ns",
    "clat_p99_ns",
    "clat_p99_9_ns",
    "clat_p99_99_ns",
)
_BATCH = 2000


def upgrade() -> None:
    op.create_table(
        "group_rollups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("figure", sa.String(length=24), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("storage_class", sa.String(length=120), nullable=False),
        sa.Column("storage_class_spec_id", sa.Integer(), nullable=False),
        sa.Column("capacity_gib", sa.Float(), nullable=False),
        sa.Column("job_name", sa.String(length=120), nullable=False),
        sa.Column("imported", sa.Boolean(), nullable=False),
        sa.Column("rw", sa.Text(), nullable=False),
        sa.Column("bs", sa.Text(), nullable=False),
        sa.Column("iodepth", sa.Text(), nullable=False),
        sa.Column("numjobs", sa.Text(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("zeros", sa.Integer(), nullable=False),
        sa.Column("low", sa.Float(), nullable=False),
        sa.Column("high", sa.Float(), nullable=False),
        sa.Column("bins", sa.JSON(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_group_rollups_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_rollups")),
    )
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        _backfill_postgresql(bind)
    else:
        _backfill_batches(bind)
    op.create_index(
        "uq_group_rollups_key",
        "group_rollups",
        ["team_id", "direction", "figure", *_KEY, *_SHAPE],
        unique=True,
    )
    op.create_index("ix_group_rollups_team_target", "group_rollups", ["team_id", "target_id"], unique=False)


def _shape(source: str) -> dict[str, str]:
    from storbench_fio.reported import job_shape

    options = json.loads(source[1:]) if source[1:] else {}
    return job_shape(options if isinstance(options, dict) else {})


# 'j' + the comparability's job options when they are a non-empty object, else 'o' + the options:
# what compare/grouping reads the job shape from.
_SOURCE = (
    "CASE WHEN json_typeof(r.comparability->'job') = 'object' AND (r.comparability->'job')::text <> '{}' "
    "THEN 'j' || (r.comparability->'job')::text ELSE 'o' || coalesce(r.options::text, '{}') END"
)
_CAPACITY = (
    "CASE WHEN json_typeof(r.comparability->'storage'->'capacity_gib') = 'number' "
    "THEN (r.comparability->'storage'->>'capacity_gib')::float ELSE -1 END"
)


def _backfill_postgresql(bind: sa.Connection) -> None:
    bind.execute(sa.text("SET LOCAL work_mem = '256MB'"))
    bind.execute(
        sa.text("CREATE TEMP TABLE rollup_sources (id serial PRIMARY KEY, source text UNIQUE) ON COMMIT DROP")
    )
    bind.execute(sa.text(f"INSERT INTO rollup_sources (source) SELECT DISTINCT {_SOURCE} FROM results r"))
    bind.execute(
        sa.text(
            "CREATE TEMP TABLE rollup_shapes "
            "(id int PRIMARY KEY, rw text, bs text, iodepth text, numjobs text) ON COMMIT DROP"
        )
    )
    shapes = [
        {"id": i, **_shape(s)} for i, s in bind.execute(sa.text("SELECT id, source FROM rollup_sources"))
    ]
    if shapes:
        bind.execute(
            sa.text("INSERT INTO rollup_shapes VALUES (:id, :rw, :bs, :iodepth, :numjobs)"),
            shapes,
        )
    figures = ", ".join(f"('{f}', d.{f})" for f in _FIGURES)
    key = (
        "r.team_id, coalesce(r.target_id, 0) AS target_id, coalesce(r.storage_class, '') AS storage_class, "
        f"coalesce(r.storage_class_spec_id, 0) AS storage_class_spec_id, {_CAPACITY} AS capacity_gib, "
        "r.job_name, r.imported, s.id AS source_id"
    )
    bin_of = "CASE WHEN f.v > 0 THEN floor(ln(f.v) / ln(1.01))::int END"
    columns = "team_id, target_id, storage_class, storage_class_spec_id, capacity_gib, job_name, imported"
    # Stage 1 (CREATE TABLE AS may run in parallel; INSERT … SELECT may not): per key, figure and bin.
    bind.execute(
        sa.text(
            f"CREATE TEMP TABLE rollup_bins ON COMMIT DROP AS "
            f"SELECT {columns}, source_id, direction, figure, bin, "
            "count(*) AS c, min(v) AS lo, max(v) AS hi FROM ("
            f"  SELECT {key}, d.direction, f.figure, f.v, {bin_of} AS bin"
            f"  FROM results r JOIN rollup_sources s ON s.source = {_SOURCE}"
            f"  JOIN result_directions d ON d.result_id = r.id"
            f"  CROSS JOIN LATERAL (VALUES {figures}) AS f(figure, v) WHERE f.v IS NOT NULL"
            f"  UNION ALL"
            f"  SELECT {key}, 'job', f.figure, f.v, {bin_of}"
            f"  FROM results r JOIN rollup_sources s ON s.source = {_SOURCE}"
            f"  CROSS JOIN LATERAL (VALUES"
            f"    ('cpu_usr_pct', CASE WHEN json_typeof(r.cpu->'usr_pct') = 'number'"
            f"      THEN (r.cpu->>'usr_pct')::float END),"
            f"    ('cpu_sys_pct', CASE WHEN json_typeof(r.cpu->'sys_pct') = 'number'"
            f"      THEN (r.cpu->>'sys_pct')::float END)) AS f(figure, v) WHERE f.v IS NOT NULL"
            f") x GROUP BY {columns}, source_id, direction, figure, bin"
        )
    )
    # Stage 2: sources with the same shape merged, bins summed, histograms as ascending JSON arrays.
    group = f"{columns}, direction, figure, rw, bs, iodepth, numjobs"
    bind.execute(
        sa.text(
            f"INSERT INTO group_rollups ({group}, n, zeros, low, high, bins, counts) "
            f"SELECT {group}, sum(c), sum(CASE WHEN bin IS NULL THEN c ELSE 0 END), min(lo), max(hi), "
            "coalesce(json_agg(bin ORDER BY bin) FILTER (WHERE bin IS NOT NULL), '[]'), "
            "coalesce(json_agg(c ORDER BY bin) FILTER (WHERE bin IS NOT NULL), '[]') FROM ("
            f"  SELECT {columns}, direction, figure, rw, bs, iodepth, numjobs, bin, "
            "   sum(c) AS c, min(lo) AS lo, max(hi) AS hi"
            "   FROM rollup_bins b JOIN rollup_shapes sh ON sh.id = b.source_id"
            f"  GROUP BY {group}, bin"
            f") y GROUP BY {group}"
        )
    )


def _backfill_batches(bind: sa.Connection) -> None:
    from storbench_api.rollup import counts as rollup

    results = sa.table(
        "results",
        *(
            sa.column(c, sa.JSON if c in ("options", "comparability", "cpu") else None)
            for c in ("id", "team_id", "options", "comparability", "cpu", *_KEY[:3], "job_name", "imported")
            if c != "capacity_gib"
        ),
    )
    directions = sa.table(
        "result_directions", sa.column("result_id"), sa.column("direction"), *map(sa.column, _FIGURES)
    )
    accs: dict[Any, Any] = {}
    last = 0
    while True:
        rows = bind.execute(
            sa.select(results).where(results.c.id > last).order_by(results.c.id).limit(_BATCH)
        ).all()
        if not rows:
            break
        ids = [row.id for row in rows]
        by_result: dict[int, list[Any]] = {}
        for d in bind.execute(sa.select(directions).where(directions.c.result_id.in_(ids))):
            by_result.setdefault(d.result_id, []).append(d)
        for row in rows:
            facts = SimpleNamespace(**row._asdict())
            facts.imported = bool(facts.imported)
            rollup.accumulate(
                accs,
                row.team_id,
                rollup.key_of(facts),
                rollup.observations(row.cpu, by_result.get(row.id, [])),
            )
        last = ids[-1]
    table = sa.table(
        "group_rollups", *map(sa.column, ("team_id", "direction", "figure", *_KEY, *_SHAPE, "n"))
    )
    table.append_column(sa.column("zeros"))
    for c in ("low", "high"):
        table.append_column(sa.column(c))
    for c in ("bins", "counts"):
        table.append_column(sa.column(c, sa.JSON))
    values = [
        {"team_id": team_id, "direction": direction, "figure": figure, **key._asdict(), **acc.columns()}
        for (team_id, key, direction, figure), acc in accs.items()
    ]
    if values:
        bind.execute(sa.insert(table), values)


def downgrade() -> None:
    op.drop_index("ix_group_rollups_team_target", table_name="group_rollups")
    op.drop_index("uq_group_rollups_key", table_name="group_rollups")
    op.drop_table("group_rollups")
