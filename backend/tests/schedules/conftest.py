"""Schedule tests: a plan, an online host and its target; the scheduler inside the test's transaction."""

from dataclasses import dataclass

import pytest
from sqlalchemy import Connection
from sqlalchemy.orm import Session, sessionmaker

from storbench_api.models import Host, Plan, Target
from storbench_api.schedules import scheduler
from storbench_api.webhooks import dispatcher
from tests.conftest import Caller, make_host, make_target
from tests.support.factories import make_plan

JOBS = [
    {"name": "randread-4k", "rw": "randread", "bs": 4096, "size": 16 << 20, "runtime": 1, "time_based": True}
]


@dataclass
class Setup:
    """What a schedule needs."""

    host: Host
    target: Target
    plan: Plan


def make_setup(db: Session, caller: Caller) -> Setup:
    """An online host, a directory target on it and a one-job plan, in the caller's team."""
    host, _ = make_host(db, team=caller.team)
    target = make_target(db, host=host)
    plan = make_plan(db, team=caller.team, jobs=JOBS)
    return Setup(host=host, target=target, plan=plan)


@pytest.fixture
def setup(db: Session, owner: Caller) -> Setup:
    return make_setup(db, owner)


@pytest.fixture
def scheduler_in_test_transaction(connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler's sessions join the test's connection (rolled back after the test)."""
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    monkeypatch.setattr(scheduler, "get_sessionmaker", lambda: factory)
    monkeypatch.setattr(dispatcher, "get_sessionmaker", lambda: factory)
