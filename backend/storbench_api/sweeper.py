"""Background loop in the API process that fails runs no worker will finish."""

import asyncio
import logging
import time

from storbench_api.broker import enqueue_assignment
from storbench_api.db import get_sessionmaker
from storbench_api.runs.service import assignments_to_redispatch, sweep_stuck_assignments
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)


_started = time.monotonic()


def sweep_once() -> int:
    """One pass in its own transaction; returns how many assignments were failed.

    It also sends again the queued assignments whose message was lost (after the commit, so a
    rolled-back pass sends nothing).
    """
    # Right after the API (re)starts, silence says nothing about hosts: they could not reach us.
    judge_liveness = time.monotonic() - _started >= get_settings().host_offline_after.total_seconds()
    with get_sessionmaker()() as db:
        swept = sweep_stuck_assignments(db, judge_liveness=judge_liveness)
        resend = [(a.id, a.host_id) for a in assignments_to_redispatch(db)]
        db.commit()
    if swept:
        log.info("failed %d stuck assignment(s)", swept)
    for assignment_id, host_id in resend:
        try:
            enqueue_assignment(assignment_id, host_id)
            log.info("sent assignment %s again: its host never fetched it", assignment_id)
        except Exception as exc:  # the broker is down: the next pass tries again
            log.warning("could not send assignment %s again: %s", assignment_id, exc)
    return swept


async def sweep_forever() -> None:
    """Sweep every sweep_interval until cancelled; a failing pass is logged, not fatal."""
    interval = get_settings().sweep_interval.total_seconds()
    while True:
        try:
            await asyncio.to_thread(sweep_once)
        except Exception:
            log.exception("sweep failed; retrying in %.0f s", interval)
        await asyncio.sleep(interval)
