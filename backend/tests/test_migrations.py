"""The schema comes only from migrations, and they match the models."""

from typing import Any

from alembic import command
from sqlalchemy import inspect

from storbench_api.cli import alembic_config


def test_models_and_migrations_do_not_drift(engine: Any) -> None:
    command.check(alembic_config())


def test_every_resource_table_belongs_to_a_team(engine: Any) -> None:
    inspector = inspect(engine)
    for table in ("hosts", "targets", "plans", "runs", "results", "raw_outputs"):
        columns = {c["name"] for c in inspector.get_columns(table)}
        assert "team_id" in columns, table
