"""Background loops in every API process: stuck runs, hosts over their broker budget, schedule
slots, webhook deliveries, retention.

Each loop runs its pass in a thread every interval (webhook deliveries: a dispatcher running in a
thread of its own); a failing pass is logged, never fatal. Several
API processes run them at once: each pass is safe to race (runs: status transitions; schedules:
a unique (schedule, slot) firing row; webhooks: deliveries claimed before they are sent; retention:
pruning what is already pruned changes nothing).
"""

import asyncio
import logging
import threading
from collections.abc import Callable

from storbench_api.hosts.broker_budget import budget_pass
from storbench_api.retention.service import apply_once as apply_retention_once
from storbench_api.runs.tasks import start_liveness_grace, sweep_once
from storbench_api.schedules.scheduler import fire_due_once
from storbench_api.settings import get_settings
from storbench_api.webhooks.dispatcher import deliver_until_stopped

log = logging.getLogger(__name__)


async def _every(interval: float, what: str, run_pass: Callable[[], object]) -> None:
    while True:
        try:
            await asyncio.to_thread(run_pass)
        except Exception:
            log.exception("%s failed; retrying in %.0f s", what, interval)
        await asyncio.sleep(interval)


async def sweep_forever() -> None:
    """Run every background loop until cancelled."""
    settings = get_settings()
    start_liveness_grace()
    await asyncio.gather(
        _every(settings.sweep_interval.total_seconds(), "sweep", sweep_once),
        _every(settings.sweep_interval.total_seconds(), "broker budget pass", budget_pass),
        _every(settings.schedule_interval.total_seconds(), "schedule pass", fire_due_once),
        _every(settings.retention_interval.total_seconds(), "retention pass", apply_retention_once),
        _deliver_webhooks(settings.webhook_interval.total_seconds()),
    )


async def _deliver_webhooks(interval: float) -> None:
    # Not a pass per interval: the dispatcher refills a slot the moment an attempt ends, so it
    # runs for the life of the process in a thread of its own, told to stop when this is cancelled.
    stop = threading.Event()
    try:
        while True:
            try:
                await asyncio.to_thread(deliver_until_stopped, stop)
            except Exception:
                log.exception("webhook delivery failed; restarting in %.0f s", interval)
            await asyncio.sleep(interval)
    finally:
        stop.set()
