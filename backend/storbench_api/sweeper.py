"""Background loop in the API process that fails runs no worker will finish."""

import asyncio
import logging

from storbench_api.db import get_sessionmaker
from storbench_api.runs.service import sweep_stuck_assignments
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)


def sweep_once() -> int:
    """One pass in its own transaction; returns how many assignments were failed."""
    with get_sessionmaker()() as db:
        swept = sweep_stuck_assignments(db)
        db.commit()
    if swept:
        log.info("failed %d stuck assignment(s)", swept)
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
