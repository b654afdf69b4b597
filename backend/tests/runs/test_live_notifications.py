"""Run-change notifications: sent once the change commits, heard by that run's listeners only."""

import asyncio
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from storbench_api import live
from storbench_api.models import Run
from storbench_api.settings import Settings
from tests.conftest import Caller, make_host, make_target
from tests.support.factories import make_run
from tests.support.redis_server import PrivateRedis


def _run(db: Session, owner: Caller) -> Run:
    host, _ = make_host(db, team=owner.team)
    return make_run(db, target=make_target(db, host=host))


def test_a_change_is_announced_after_its_commit_and_a_rolled_back_one_never(
    db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[list[int]] = []
    monkeypatch.setattr(live, "publish", lambda run_ids: sent.append(list(run_ids)))
    run = _run(db, owner)
    live.announce_after_commit(run)
    live.announce_after_commit(run)
    db.flush()
    assert sent == []  # a viewer woken now would read the state before the change
    db.commit()
    assert sent == [[run.id]]
    db.commit()
    assert sent == [[run.id]]
    run.error = "never kept"
    db.flush()
    live.announce_after_commit(run)
    db.rollback()
    db.commit()
    assert sent == [[run.id]]


def test_in_the_embedded_mode_notifications_reach_this_process_listeners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live, "get_settings", lambda: Settings(broker_url="", database_url="sqlite://"))

    async def scenario() -> None:
        hub = live.notifications()
        assert hub.connected  # nothing to lose in-process: listeners need no quick re-checks
        mine, other = asyncio.Event(), asyncio.Event()
        hub.listen(7, mine)
        hub.listen(8, other)
        await asyncio.to_thread(live.publish, [7])  # from a request's thread, as after its commit
        await asyncio.wait_for(mine.wait(), 2)
        assert not other.is_set()
        hub.unlisten(7, mine)
        mine.clear()
        await asyncio.to_thread(live.publish, [7])
        await asyncio.sleep(0.1)
        assert not mine.is_set()

    asyncio.run(scenario())


def test_through_a_redis_outage_listeners_still_hear_this_process_and_catch_up_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = PrivateRedis(tmp_path)
    monkeypatch.setattr(live, "get_settings", lambda: Settings(broker_url=server.url))

    async def until(predicate: object, what: str) -> None:
        for _ in range(200):
            if callable(predicate) and predicate():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")

    async def scenario() -> None:
        hub = live.notifications()
        wake = asyncio.Event()
        hub.listen(7, wake)
        await until(lambda: hub.connected, "the subscription")
        wake.clear()
        await asyncio.to_thread(live.publish, [7])
        await asyncio.wait_for(wake.wait(), 2)

        server.stop()
        await until(lambda: not hub.connected, "the subscription to be seen lost")
        wake.clear()
        await asyncio.to_thread(live.publish, [7])  # cannot reach Redis: delivered in-process
        await asyncio.wait_for(wake.wait(), 2)

        wake.clear()
        server.start()
        await until(lambda: hub.connected, "the subscription to come back")
        # What changed meanwhile elsewhere was not heard: every listener re-reads once.
        await asyncio.wait_for(wake.wait(), 2)

    server.start()
    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_subscription_asked_to_stop_while_it_connects_stops(tmp_path: Path) -> None:
    # redis-py loses some cancels that land while it connects and subscribes; the subscription
    # then listened for ever and a closing event loop (a server stopping) waited on it for good.
    server = PrivateRedis(tmp_path)

    async def scenario() -> list[int]:
        loop = asyncio.get_running_loop()
        lingering = []
        # Cancelled after 0, 1, 2, … turns of the loop: each lands somewhere in connect and subscribe.
        for turns in range(40):
            hub = live.RunNotifications(loop, server.url)
            task = hub._task
            assert task is not None
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            done, _ = await asyncio.wait([task], timeout=2 * live._LISTEN_POLL_S)
            if not done:
                lingering.append(turns)
                task.cancel()  # so this test's own loop can close
                await asyncio.wait([task], timeout=5)
        return lingering

    server.start()
    try:
        assert asyncio.run(scenario()) == [], "subscriptions that went on listening after a cancel"
    finally:
        server.stop()
