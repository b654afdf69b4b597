"""Two schedulers racing on the same slots of the same PostgreSQL database fire each slot once."""

import threading
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import delete, select

from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.models import Host, Membership, Plan, Role, Run, Target, TargetKind, Team, User
from storbench_api.models.schedule import FiringStatus, Schedule, ScheduleFiring
from storbench_api.schedules.scheduler import fire_due_once
from storbench_api.security import new_token
from tests.conftest import ONLINE_FACTS
from tests.schedules.conftest import JOBS

SLOTS = 12


@pytest.fixture
def committed_schedule(engine: Any) -> Iterator[tuple[int, int, datetime]]:
    """A schedule firing every minute, committed for real (both schedulers must see it); removed after."""
    sessions = get_sessionmaker()
    start = utcnow().replace(second=0, microsecond=0) - timedelta(hours=2)
    with sessions() as db:
        team = Team(name=f"race-{new_token('t')[-8:]}")
        user = User(email=f"race-{new_token('u')[-8:].lower()}@example.com", password_hash="x")
        db.add_all([team, user])
        db.flush()
        db.add(Membership(user_id=user.id, team_id=team.id, role=Role.member))
        host = Host(
            team_id=team.id,
            name="race-host",
            credential_hash=new_token("h"),
            facts=ONLINE_FACTS,
            last_seen_at=utcnow(),
        )
        db.add(host)
        db.flush()
        target = Target(
            team_id=team.id, host_id=host.id, name="t", path="/srv/scratch", kind=TargetKind.directory
        )
        plan = Plan(team_id=team.id, name="p", jobs=JOBS)
        db.add_all([target, plan])
        db.flush()
        schedule = Schedule(
            team_id=team.id,
            name="every minute",
            plan_id=plan.id,
            target_id=target.id,
            cron="* * * * *",
            timezone="UTC",
            created_by_id=user.id,
            active_since=start,
            next_fire_at=start,
        )
        db.add(schedule)
        db.commit()
        ids = (team.id, schedule.id, user.id)
    yield ids[0], ids[1], start
    with sessions() as db:
        db.execute(delete(Team).where(Team.id == ids[0]))
        db.execute(delete(User).where(User.id == ids[2]))
        db.commit()


def test_two_schedulers_racing_fire_every_slot_exactly_once(
    committed_schedule: tuple[int, int, datetime],
) -> None:
    team_id, schedule_id, start = committed_schedule
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def scheduler() -> None:
        try:
            for minute in range(SLOTS):
                clock = start + timedelta(minutes=minute, seconds=1)
                barrier.wait(timeout=60)  # both passes start together, on the same due slot
                fire_due_once(now=lambda c=clock: c)
        except BaseException as exc:  # reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors

    with get_sessionmaker()() as db:
        firings = db.scalars(select(ScheduleFiring).where(ScheduleFiring.schedule_id == schedule_id)).all()
        runs = db.scalars(select(Run).where(Run.team_id == team_id)).all()
    per_slot = Counter(f.slot_at for f in firings)
    assert set(per_slot.values()) == {1}
    assert sorted(per_slot) == [start + timedelta(minutes=m) for m in range(SLOTS)]
    assert all(f.status == FiringStatus.started for f in firings)
    assert len(runs) == SLOTS
    assert sorted(r.id for r in runs) == sorted(f.run_id for f in firings if f.run_id is not None)
