"""Server-Sent Events: a run's status and per-second progress, pushed to the browser as they land.

No viewer polls the database. Per API process, each watched run has one reader (a RunFeed) that
reads the run when a notification says it changed (storbench_api.live), or every
`live_recheck_interval` in case one was lost, and every viewer of that run streams what it read.
The events are runs.schemas.RunEvent; sse-starlette frames them, keeps the connection alive and
ends the stream when the client leaves or the server stops.
"""

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Literal

from sse_starlette import EventSourceResponse, ServerSentEvent

from storbench_api import live
from storbench_api.db import get_sessionmaker
from storbench_api.errors import DomainError
from storbench_api.models import RunStatus
from storbench_api.ops.metrics import count_refusal
from storbench_api.runs import presenters, repository
from storbench_api.runs.schemas import RunProgressData, RunProgressEvent, RunStatusData, RunStatusEvent
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
MAX_STREAM_S = 6 * 3600.0
# How often a feed reads while the notification channel is down, and after a failed read.
DEGRADED_POLL_S = 1.0

ShownStatus = RunStatus | Literal["gone"]


class TooManyStreams(DomainError):
    """The user already has as many live streams open on this server as allowed."""

    status_code = 429
    code = "too_many_streams"


class RunEventStream(EventSourceResponse):
    """A run's live events as text/event-stream (what the OpenAPI schema documents)."""

    media_type = "text/event-stream"


def _frame(event: RunStatusEvent | RunProgressEvent) -> bytes:
    """One event on the wire: `event: <name>` and its data as one JSON line."""
    return ServerSentEvent(sep="\n", **event.model_dump()).encode()


def _snapshot(team_id: int, run_id: int, after_id: int) -> tuple[ShownStatus, list[RunProgressData], bool]:
    """Status, new samples (with host names) and whether the run has ended, from a short session."""
    with get_sessionmaker()() as db:
        run = repository.get_run(db, team_id, run_id)
        if run is None:
            return "gone", [], True
        progress = presenters.run_progress(db, run, after_id)
        samples = [
            RunProgressData(host_name=host.host_name, **sample.model_dump())
            for host in progress.hosts
            for sample in host.samples
        ]
        samples.sort(key=lambda s: s.id)
        return run.status, samples, run.status.is_terminal


class RunFeed:
    """The one reader of a run in this process; its viewers share what it read, framed once."""

    def __init__(self, key: tuple[asyncio.AbstractEventLoop, int, int]) -> None:
        self.key = key
        _, self.team_id, self.run_id = key
        self.progress: list[bytes] = []  # every `progress` event so far, in sample order
        self.status: ShownStatus | None = None
        self.ended = False
        self.viewers = 0
        self.changed = asyncio.Event()  # replaced by a fresh one each time it is set
        self._wake = asyncio.Event()
        self._notifications = live.notifications()
        self._notifications.listen(self.run_id, self._wake)
        self._reader = asyncio.create_task(self._read_until_ended())

    def close(self) -> None:
        """Stop reading (the last viewer left)."""
        self._reader.cancel()
        self._notifications.unlisten(self.run_id, self._wake)

    def _tell_viewers(self) -> None:
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    async def _read_until_ended(self) -> None:
        last_id = 0
        recheck_s = get_settings().live_recheck_interval.total_seconds()
        while True:
            # Cleared before reading: a notification arriving during the read brings one more read,
            # and a burst of them only that one.
            self._wake.clear()
            try:
                status, samples, ended = await asyncio.to_thread(
                    _snapshot, self.team_id, self.run_id, last_id
                )
            except Exception:
                log.exception("could not read run %s for its live viewers; retrying", self.run_id)
                await asyncio.sleep(DEGRADED_POLL_S)
                continue
            if samples:
                last_id = samples[-1].id
                self.progress.extend(
                    _frame(RunProgressEvent(event="progress", data=sample)) for sample in samples
                )
            if samples or status != self.status or ended:
                self.status, self.ended = status, ended
                self._tell_viewers()
            if ended:
                return
            timeout = recheck_s if self._notifications.connected else DEGRADED_POLL_S
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)


_feeds: dict[tuple[asyncio.AbstractEventLoop, int, int], RunFeed] = {}


def _join(team_id: int, run_id: int) -> RunFeed:
    key = (asyncio.get_running_loop(), team_id, run_id)
    feed = _feeds.get(key)
    if feed is None:
        feed = _feeds[key] = RunFeed(key)
    feed.viewers += 1
    return feed


def _leave(feed: RunFeed) -> None:
    feed.viewers -= 1
    if feed.viewers == 0:
        feed.close()
        del _feeds[feed.key]


async def run_events(team_id: int, run_id: int) -> AsyncIterator[bytes]:
    """status and progress events until the run ends (then one last status event)."""
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + MAX_STREAM_S
    feed = _join(team_id, run_id)
    sent: int = 0
    last_status: ShownStatus | None = None
    try:
        while True:
            changed = feed.changed  # taken before looking, so no change slips between look and wait
            while sent < len(feed.progress):
                sent += 1
                yield feed.progress[sent - 1]
            if feed.status is not None and feed.status != last_status:
                last_status = feed.status
                yield _frame(
                    RunStatusEvent(event="status", data=RunStatusData(run_id=run_id, status=last_status))
                )
            if feed.ended and sent == len(feed.progress):
                return
            remaining = give_up_at - loop.time()
            if remaining <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)
    finally:
        _leave(feed)


class _StreamSlots:
    """How many event streams each user has open in this process (each holds a task and a socket)."""

    def __init__(self) -> None:
        self._open: dict[int, int] = {}
        self._lock = threading.Lock()

    def take(self, user_id: int, limit: int) -> Callable[[], None]:
        """A slot for one more stream, or 429; returns its release (safe to call twice)."""
        with self._lock:
            if self._open.get(user_id, 0) >= limit:
                count_refusal("event-streams")
                raise TooManyStreams(
                    f"you already have {limit} live event streams open; close a run page and retry"
                )
            self._open[user_id] = self._open.get(user_id, 0) + 1
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if released.is_set():
                    return
                released.set()
                self._open[user_id] -= 1
                if not self._open[user_id]:
                    del self._open[user_id]

        return release

    def open_streams(self, user_id: int) -> int:
        """Streams the user has open now."""
        with self._lock:
            return self._open.get(user_id, 0)


stream_slots = _StreamSlots()


def open_event_stream(team_id: int, run_id: int, user_id: int) -> RunEventStream:
    """The run's event stream for a user within their stream bound (429 beyond it), released when it ends."""
    release = stream_slots.take(user_id, get_settings().max_event_streams_per_user)

    async def bounded() -> AsyncIterator[bytes]:
        try:
            async for chunk in run_events(team_id, run_id):
                yield chunk
        finally:
            release()

    stream = bounded()
    # A response torn down before its first chunk never runs the finally above.
    weakref.finalize(stream, release)
    return RunEventStream(
        stream, ping=KEEPALIVE_S, sep="\n", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )
