"""The barrier of a synchronized run: how far ahead the common start is set, and the long poll.

A host that reports ready is answered when the start is known (or after BARRIER_HOLD_S, then it
asks again), not told "not yet" to ask again later: polled every 0.25 s by 20 hosts, /ready took
3.5 s (median) on a loaded API and the hosts heard the start at different moments, 329 ms apart
(bench/start_skew.py --fleet). The waiting holds no database connection and no in-flight slot:
it listens for the run's change notification (storbench_api.live) and re-reads the run then.

The start comes a lead after the last host is ready: every host must have heard it before it
comes. The lead grows with how long this process has recently taken to answer a ready report
(a loaded server answers the waiting hosts late too) and with the number of hosts (each answer
is written in turn).
"""

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import timedelta

from starlette.concurrency import run_in_threadpool

from storbench_api import live
from storbench_api.models import RunStatus
from storbench_api.settings import get_settings
from storbench_protocol.assignments import BarrierState

# How long a ready report waits for the start before answering "not yet" (the worker asks again
# at once): well within the worker's 30 s request timeout and any proxy's read timeout.
BARRIER_HOLD_S = 10.0
# While waiting, the run is read again this often even without a notification (one may be lost),
# and more often while the notification channel is down.
RECHECK_S = 2.0
DEGRADED_RECHECK_S = 0.25
# The lead: the configured one (STORBENCH_START_LEAD), plus this many times the slowest recent
# answers to ready reports (95th percentile), plus this much per host, never more than the cap.
LATENCY_FACTOR = 3.0
PER_HOST = timedelta(milliseconds=20)
LONGEST_LEAD = timedelta(seconds=30)
_WINDOW = 200


class AnswerTimes:
    """How long this process took to handle its most recent ready reports (seconds)."""

    def __init__(self, size: int = _WINDOW) -> None:
        self._lock = threading.Lock()
        self._seconds: deque[float] = deque(maxlen=size)

    def record(self, seconds: float) -> None:
        """One ready report handled in `seconds`."""
        with self._lock:
            self._seconds.append(max(seconds, 0.0))

    def p95(self) -> float:
        """The 95th percentile of the recent times (0 before any)."""
        with self._lock:
            ordered = sorted(self._seconds)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


answer_times = AnswerTimes()


def start_lead(host_count: int) -> timedelta:
    """How far after "everyone is ready" the start comes: a lone host starts at once."""
    if host_count <= 1:
        return timedelta()
    grown = (
        get_settings().start_lead
        + timedelta(seconds=LATENCY_FACTOR * answer_times.p95())
        + PER_HOST * host_count
    )
    return min(grown, max(LONGEST_LEAD, get_settings().start_lead))


def settled(state: BarrierState) -> bool:
    """Whether the host has its answer: the start, or the run no longer waits for it."""
    return state.start_at is not None or state.status is not RunStatus.queued


async def wait_for_start(
    run_id: int, read_state: Callable[[], BarrierState], hold_s: float | None = None
) -> BarrierState:
    """Wait until the run's start is known (or it ended), at most hold_s (BARRIER_HOLD_S); the
    state read last.

    read_state reads the host's barrier state in a short session of its own (run off the loop).
    """
    hub = live.notifications()
    wake = asyncio.Event()
    hub.listen(run_id, wake)  # before the first read: a change after it cannot be missed
    try:
        deadline = time.monotonic() + (BARRIER_HOLD_S if hold_s is None else hold_s)
        state = await run_in_threadpool(read_state)
        while not settled(state) and (remaining := deadline - time.monotonic()) > 0:
            recheck = RECHECK_S if hub.connected else DEGRADED_RECHECK_S
            try:
                await asyncio.wait_for(wake.wait(), timeout=min(remaining, recheck))
            except TimeoutError:
                pass
            wake.clear()
            state = await run_in_threadpool(read_state)
        return state
    finally:
        hub.unlisten(run_id, wake)
