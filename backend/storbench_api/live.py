"""Run-change notifications: whoever commits a change to a run says so, and live viewers listen.

With Redis as the broker, a commit that changed a run publishes the run's id on one pub/sub channel
and every API process holds one subscription to it, whichever process the worker or the browser
talks to. In the embedded mode (one process) notifications go straight to this process's listeners.
A notification carries only the run id: listeners read the state themselves, so a lost one costs
latency, never data (they also re-check on their own now and then).
"""

import asyncio
import logging
import threading
import time
from collections.abc import Iterable
from functools import lru_cache

import redis
import redis.asyncio as aioredis
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction, object_session

from storbench_api.models import Run
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

# Run ids changed by a session's open transaction, kept in Session.info until it commits.
_PENDING_KEY = "storbench_changed_runs"
# After Redis failed, how long to publish only in-process before trying it again.
OUTAGE_RETRY_S = 5.0
# How long the subscription waits for a message before checking the connection is alive.
_LISTEN_POLL_S = 1.0
_RECONNECT_MAX_S = 5.0


def uses_redis(broker_url: str) -> bool:
    """Whether the broker is Redis, which then carries the notifications between API processes."""
    return broker_url.startswith(("redis://", "rediss://"))


def channel_for(client: "redis.Redis | aioredis.Redis") -> str:
    """The channel of one Redis database (pub/sub ignores database numbers; deployments must not)."""
    return f"storbench:db{client.connection_pool.connection_kwargs.get('db', 0)}:run-changed"


def announce_after_commit(run: Run) -> None:
    """Tell the run's live viewers that it changed, once the transaction changing it commits."""
    db = object_session(run)
    if db is None:
        publish([run.id])
        return
    db.info.setdefault(_PENDING_KEY, set()).add(run.id)


@event.listens_for(Session, "after_commit")
def _publish_committed(db: Session) -> None:
    # After the commit, so a viewer woken by the notification reads what was committed.
    run_ids = db.info.pop(_PENDING_KEY, None)
    if run_ids:
        try:
            publish(sorted(run_ids))
        except Exception:  # the change is committed: a lost notification only costs latency
            log.exception("could not announce changes of runs %s", sorted(run_ids))


@event.listens_for(Session, "after_transaction_end")
def _forget_uncommitted(db: Session, transaction: SessionTransaction) -> None:
    # Rolled back or closed without a commit (a commit has published by now).
    if transaction.parent is None:  # the whole transaction, not a savepoint in it
        db.info.pop(_PENDING_KEY, None)


class _RedisPublisher:
    """PUBLISH with short timeouts; while Redis is out, only this process's listeners hear."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self.channel = channel_for(self.client)
        self._down_until = 0.0

    def publish(self, run_ids: list[int]) -> bool:
        """True once Redis took the message."""
        now = time.monotonic()
        if now < self._down_until:
            return False
        try:
            self.client.publish(self.channel, ",".join(str(i) for i in run_ids))
        except redis.RedisError as exc:
            self._down_until = now + OUTAGE_RETRY_S
            log.warning(
                "could not publish run changes on Redis (%s); other API processes re-check by time", exc
            )
            return False
        return True


@lru_cache
def _publisher(url: str) -> _RedisPublisher:
    return _RedisPublisher(url)


def publish(run_ids: Iterable[int]) -> None:
    """Tell every API process that these runs changed; never raises."""
    ids = list(run_ids)
    url = get_settings().effective_broker_url
    if uses_redis(url) and _publisher(url).publish(ids):
        return  # this process's own subscription hears it too
    for hub in _all_hubs():
        hub.deliver_threadsafe(ids)


def _stop_if_cancelled() -> None:
    """Stop the calling task when it was asked to: redis-py can swallow a cancel.

    Measured with redis 8.1: about one cancel in three that lands while the subscription connects
    is lost inside redis-py, and the task then listened for ever, so an event loop closing (a
    server stopping, a test client leaving) waited on it for good. A task asked to stop keeps
    counting the request (Task.cancelling), whoever caught its CancelledError.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class RunNotifications:
    """One event loop's subscription to run changes, fanned out to asyncio listeners by run id."""

    def __init__(self, loop: asyncio.AbstractEventLoop, redis_url: str | None) -> None:
        self.loop = loop
        self._listeners: dict[int, set[asyncio.Event]] = {}
        # In-process notifications cannot be lost; a Redis subscription is only trusted while up.
        self.connected = redis_url is None
        self._task = loop.create_task(self._subscribe(redis_url)) if redis_url else None

    def listen(self, run_id: int, wake: asyncio.Event) -> None:
        """Set `wake` whenever run_id changes."""
        self._listeners.setdefault(run_id, set()).add(wake)

    def unlisten(self, run_id: int, wake: asyncio.Event) -> None:
        """Stop setting `wake`."""
        listeners = self._listeners.get(run_id)
        if listeners is not None:
            listeners.discard(wake)
            if not listeners:
                del self._listeners[run_id]

    def deliver(self, run_ids: Iterable[int]) -> None:
        """Wake the listeners of these runs (in the loop's thread)."""
        for run_id in run_ids:
            for wake in self._listeners.get(run_id, ()):
                wake.set()

    def deliver_threadsafe(self, run_ids: list[int]) -> None:
        """deliver() from any thread; a loop that has closed is forgotten."""
        try:
            self.loop.call_soon_threadsafe(self.deliver, run_ids)
        except RuntimeError:
            _forget(self.loop)

    def _wake_all(self) -> None:
        for listeners in self._listeners.values():
            for wake in listeners:
                wake.set()

    async def _subscribe(self, url: str) -> None:
        """Hold the subscription for the life of the loop, reconnecting after any failure."""
        delay = 0.2
        while True:
            try:
                async with (
                    aioredis.Redis.from_url(
                        url, socket_connect_timeout=2, health_check_interval=15
                    ) as client,
                    client.pubsub(ignore_subscribe_messages=True) as pubsub,
                ):
                    await pubsub.subscribe(channel_for(client))
                    _stop_if_cancelled()
                    if not self.connected:
                        log.info("listening for run changes on Redis")
                    self.connected = True
                    self._wake_all()  # what changed while we were not listening
                    delay = 0.2
                    while True:
                        message = await pubsub.get_message(timeout=_LISTEN_POLL_S)
                        _stop_if_cancelled()
                        if message is not None and message["type"] == "message":
                            self.deliver(int(p) for p in message["data"].split(b",") if p.isdigit())
            except Exception as exc:  # Redis gone or restarted, or anything else: listen again
                _stop_if_cancelled()
                if self.connected:
                    log.warning(
                        "lost the Redis subscription to run changes (%s); live views poll meanwhile", exc
                    )
                self.connected = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, _RECONNECT_MAX_S)


_hubs: dict[asyncio.AbstractEventLoop, RunNotifications] = {}
_hubs_lock = threading.Lock()


def _all_hubs() -> list[RunNotifications]:
    with _hubs_lock:
        return list(_hubs.values())


def _forget(loop: asyncio.AbstractEventLoop) -> None:
    with _hubs_lock:
        _hubs.pop(loop, None)


def notifications() -> RunNotifications:
    """The running loop's notifications (a process serves from one loop), subscribed on first use."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            url = get_settings().effective_broker_url
            hub = _hubs[loop] = RunNotifications(loop, url if uses_redis(url) else None)
            for other in [other for other in _hubs if other.is_closed()]:
                del _hubs[other]
        return hub
