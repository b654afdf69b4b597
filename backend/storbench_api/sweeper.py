"""Background loop in the API process that fails runs no worker will finish (runs.tasks.sweep_once)."""

import asyncio
import logging

from storbench_api.runs.tasks import sweep_once
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)


async def sweep_forever() -> None:
    """Sweep every sweep_interval until cancelled; a failing pass is logged, not fatal."""
    interval = get_settings().sweep_interval.total_seconds()
    while True:
        try:
            await asyncio.to_thread(sweep_once)
        except Exception:
            log.exception("sweep failed; retrying in %.0f s", interval)
        await asyncio.sleep(interval)
