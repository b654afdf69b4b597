"""results: fingerprints recomputed by the fio package's one reader of options

Revision ID: b4e1f2a3c5d6
Revises: a3d0e1f2b4c5
Create Date: 2026-11-24 10:00:00

The comparability fingerprint read fio's options with a table of its own that disagreed with the
fio package's (blockalign folded to ba, timeout and io_limit not folded) and left fio's defaults
out, so one job spelled two ways got two fingerprints. Stored results carry the components and
their digest, change points name the digest of their series, and the grouped view's rollup is keyed
by the job shape read from the components: all three are recomputed here with the product's code.

Set-based on PostgreSQL: the components are worked out once per distinct (options, components)
text (a few dozen to thousands even at ten million results) and joined back in one UPDATE. The
rollup is recounted by the group_rollups migration's own backfill, emptied first.
"""

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "b4e1f2a3c5d6"
down_revision: str | None = "a3d0e1f2b4c5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_RESULTS = sa.table(
    "results",
    sa.column("id", sa.Integer),
    sa.column("options", sa.JSON),
    sa.column("comparability", sa.JSON),
    sa.column("fingerprint", sa.String),
)
_OPTIONS_TEXT = sa.cast(_RESULTS.c.options, sa.Text)
_COMPONENTS_TEXT = sa.cast(_RESULTS.c.comparability, sa.Text)


def _recomputed(options_text: str | None, components_text: str | None) -> tuple[dict[str, Any], str] | None:
    """The components with the job read afresh, and their digest; None when nothing was stored."""
    from storbench_api.results.fingerprint import fingerprint, normalised_options

    components = json.loads(components_text) if components_text else None
    if not isinstance(components, dict) or not components:
        return None
    options = json.loads(options_text) if options_text else None
    components["job"] = normalised_options(options if isinstance(options, dict) else {})
    return components, fingerprint(components)


def _changes(bind: sa.Connection) -> list[dict[str, Any]]:
    found = []
    query = sa.select(_OPTIONS_TEXT, _COMPONENTS_TEXT, _RESULTS.c.fingerprint).distinct()
    for options_text, components_text, old in bind.execute(query):
        recomputed = _recomputed(options_text, components_text)
        if recomputed is not None and (recomputed[1] != old or json.loads(components_text) != recomputed[0]):
            found.append(
                {
                    "o": options_text,
                    "c": components_text,
                    "old": old,
                    "comp": recomputed[0],
                    "fp": recomputed[1],
                }
            )
    return found


def _update_results(bind: sa.Connection, changes: list[dict[str, Any]]) -> None:
    rows = [{**c, "comp": json.dumps(c["comp"])} for c in changes]
    if bind.dialect.name != "postgresql":
        bind.execute(
            sa.text(
                "UPDATE results SET comparability = :comp, fingerprint = :fp "
                "WHERE CAST(options AS TEXT) = :o AND CAST(comparability AS TEXT) = :c"
            ),
            rows,
        )
        return
    bind.execute(
        sa.text("CREATE TEMP TABLE refingerprints (o text, c text, comp text, fp text) ON COMMIT DROP")
    )
    bind.execute(sa.text("INSERT INTO refingerprints VALUES (:o, :c, :comp, :fp)"), rows)
    bind.execute(
        sa.text(
            "UPDATE results r SET comparability = t.comp::json, fingerprint = t.fp FROM refingerprints t "
            "WHERE r.options::text = t.o AND r.comparability::text = t.c"
        )
    )


def _update_change_points(bind: sa.Connection, changes: list[dict[str, Any]]) -> None:
    # A series is named by its digest: the old digest's results now carry the new one. Should one old
    # digest split (a value only the new reader tells apart), its change points follow the first.
    renamed: dict[str, str] = {}
    for change in changes:
        if change["old"] is not None and change["old"] != change["fp"]:
            renamed.setdefault(change["old"], change["fp"])
    if renamed:
        bind.execute(
            sa.text("UPDATE change_points SET fingerprint = :new WHERE fingerprint = :old"),
            [{"old": old, "new": new} for old, new in renamed.items()],
        )


def _recount_rollup(bind: sa.Connection) -> None:
    # The group_rollups migration's backfill reads the job shape through the fio package, as the
    # store path does; its module is loaded by path (migration files are not an importable package).
    path = Path(__file__).with_name("2026_11_23_0019-a3d0e1f2b4c5_group_rollup.py")
    spec = importlib.util.spec_from_file_location("group_rollup_migration", path)
    assert spec is not None and spec.loader is not None
    backfill = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backfill)
    bind.execute(sa.text("DELETE FROM group_rollups"))
    if bind.dialect.name == "postgresql":
        # Left by that migration when both run in one transaction (a fresh database).
        for table in ("rollup_sources", "rollup_shapes", "rollup_bins"):
            bind.execute(sa.text(f"DROP TABLE IF EXISTS pg_temp.{table}"))
        backfill._backfill_postgresql(bind)
    else:
        backfill._backfill_batches(bind)


def upgrade() -> None:
    bind = op.get_bind()
    changes = _changes(bind)
    if changes:
        _update_results(bind, changes)
        _update_change_points(bind, changes)
    _recount_rollup(bind)


def downgrade() -> None:
    # The old reader is gone; the recomputed fingerprints are the correct ones and stay.
    pass
