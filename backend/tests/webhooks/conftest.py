"""Webhook tests: loopback allowed (the receiver runs on 127.0.0.1), deliveries in the test's transaction."""

import pytest
from sqlalchemy import Connection
from sqlalchemy.orm import sessionmaker

from storbench_api.settings import get_settings
from storbench_api.webhooks import dispatcher


@pytest.fixture
def allow_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator setting that lets webhooks reach 127.0.0.1 (for the local receiver)."""
    monkeypatch.setattr(get_settings(), "webhook_allowed_networks", ["127.0.0.1/32"])


@pytest.fixture
def sweep_in_test_transaction(connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """The delivery sweep's sessions join the test's connection (rolled back after the test)."""
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    monkeypatch.setattr(dispatcher, "get_sessionmaker", lambda: factory)
