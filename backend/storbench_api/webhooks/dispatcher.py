"""Keeping deliveries in flight concurrently, a few per team, so no team's receiver delays another's.

Deliveries used to go out one at a time: one receiver answering a byte a second held every team's
deliveries behind it. Now each attempt has a deadline (webhook_timeout, see delivery.post), up to
webhook_concurrency attempts are in flight in each API process, at most webhook_team_concurrency of
one team's, and a slot is refilled as soon as an attempt ends, not at the end of a sweep. So a team
whose receiver is slow holds only its own share of slots for at most the deadline each; the others
are claimed and sent meanwhile. The shares are per process (each API process keeps its own count).

The dispatcher runs an event loop of its own in one thread: the HTTP requests are asynchronous, the
database work (a claim or a recorded outcome, milliseconds each) is synchronous in that thread, so
the API's event loop never waits on it and one session is never used from two threads.
"""

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime

from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.settings import get_settings
from storbench_api.webhooks.delivery import ClaimedDelivery, Outcome, Sender, claim_due, post, record_outcome

log = logging.getLogger(__name__)


class Dispatcher:
    """Claims due deliveries into free slots and sends each in a task of the running event loop."""

    def __init__(self, *, now: Callable[[], datetime] = utcnow, send: Sender | None = None) -> None:
        self._now = now
        self._send: Sender = send or post
        self._in_flight: Counter[int] = Counter()  # team id -> its attempts being sent
        self._tasks: set[asyncio.Task[None]] = set()
        self._slot_freed = asyncio.Event()

    def fill(self, limit: int | None = None) -> int:
        """Claim what is due into the free slots and start sending it; returns how many started."""
        settings = get_settings()
        free = settings.webhook_concurrency - self._in_flight.total()
        if limit is not None:
            free = min(free, limit)
        if free <= 0:
            return 0
        share = settings.webhook_team_concurrency
        room = {team: max(share - busy, 0) for team, busy in self._in_flight.items()}
        with get_sessionmaker()() as db:
            claimed = claim_due(db, self._now(), free, share, room)
            db.commit()
        for delivery in claimed:
            self._in_flight[delivery.team_id] += 1
            task = asyncio.create_task(self._deliver(delivery))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return len(claimed)

    async def _deliver(self, delivery: ClaimedDelivery) -> None:
        try:
            try:
                outcome = await self._send(delivery)
            except Exception as exc:  # never let one receiver stop the others
                log.exception("webhook delivery %s failed unexpectedly", delivery.id)
                error = f"internal error while sending: {type(exc).__name__}"
                outcome = Outcome(delivered=False, error=error)
            with get_sessionmaker()() as db:
                record_outcome(db, delivery.id, outcome, self._now())
                db.commit()
        except Exception:  # the claim's lease brings the delivery back
            log.exception("recording webhook delivery %s failed; retried after its lease", delivery.id)
        finally:
            self._in_flight[delivery.team_id] -= 1
            if self._in_flight[delivery.team_id] <= 0:
                del self._in_flight[delivery.team_id]
            self._slot_freed.set()

    async def drain(self) -> None:
        """Wait until every attempt started has ended (each within the deadline)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def run(self, interval: float, stop: threading.Event) -> None:
        """Fill free slots whenever one frees up, and every interval, until stop is set; then drain."""
        while not stop.is_set():
            try:
                self.fill()
            except Exception:
                log.exception("claiming due webhook deliveries failed; retrying in %.0f s", interval)
            self._slot_freed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._slot_freed.wait(), interval)
        await self.drain()


def deliver_due_once(
    *, now: Callable[[], datetime] = utcnow, send: Sender | None = None, limit: int = 20
) -> int:
    """One pass: claim what is due now, send it concurrently, wait for every outcome; returns the count."""

    async def once() -> int:
        dispatcher = Dispatcher(now=now, send=send)
        started = dispatcher.fill(limit)
        await dispatcher.drain()
        return started

    return asyncio.run(once())


def deliver_until_stopped(stop: threading.Event, *, now: Callable[[], datetime] = utcnow) -> None:
    """Run a dispatcher in this thread until stop is set, then let its attempts end."""
    interval = get_settings().webhook_interval.total_seconds()
    asyncio.run(Dispatcher(now=now).run(interval, stop))
