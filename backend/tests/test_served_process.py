"""The process `storbench-api serve` runs: what lives as long as it is frozen out of the collector's way."""

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from storbench_api import cli
from storbench_api.main import create_app


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    # The test process goes on: give the collector back what was frozen.
    gc.unfreeze()


def test_the_served_app_freezes_the_long_lived_heap_once_started(unfrozen: None) -> None:
    app = create_app(run_sweeper=False, settle_heap_at_start=True)
    assert gc.get_freeze_count() == 0
    with TestClient(app) as client:
        assert client.get("/api/v1/health").status_code == 200
        assert gc.get_freeze_count() > 0


def test_an_app_built_for_tests_leaves_the_collector_alone(unfrozen: None) -> None:
    with TestClient(create_app(run_sweeper=False)) as client:
        assert client.get("/api/v1/health").status_code == 200
    assert gc.get_freeze_count() == 0


def test_serve_runs_the_served_app(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[str, bool]] = []
    monkeypatch.setattr(cli, "refuse_unsafe_production", lambda: None)
    monkeypatch.setattr("uvicorn.run", lambda target, factory, **_: started.append((target, factory)))
    cli.serve("127.0.0.1", 0)
    assert started == [("storbench_api.main:create_served_app", True)]
