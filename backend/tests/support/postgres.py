"""Fresh PostgreSQL databases for tests, on the server scripts/services.sh started."""

import os

import psycopg
from psycopg import sql

ADMIN_URL = os.environ.get(
    "STORBENCH_TEST_POSTGRES", "postgresql://storbench:storbench@127.0.0.1:5432/postgres"
)


def fresh_database(name: str) -> str:
    """Drop and create database `name`; return its SQLAlchemy URL."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{name}"
