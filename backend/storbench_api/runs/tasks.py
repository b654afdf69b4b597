"""Handing assignments to the broker, always after the transaction that made them is committed."""

import logging
import time

from sqlalchemy.orm import Session

from storbench_api.broker import enqueue_assignment
from storbench_api.db import get_sessionmaker
from storbench_api.errors import BrokerUnavailable
from storbench_api.hosts import broker_budget
from storbench_api.models import Run
from storbench_api.runs import lifecycle
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

# When this process began answering hosts (the sweeper's start); None while it has not.
_serving_since: float | None = None


def start_liveness_grace() -> None:
    """Hosts are judged by their silence only from now on: before, they could not reach us
    (the process was importing, migrating or down), whatever their last heartbeat says."""
    global _serving_since
    _serving_since = time.monotonic()


def _enqueue(db: Session, assignment_id: int, host_id: int) -> None:
    """Send one assignment; when Redis is full, cut off the hosts that filled it and send again."""
    try:
        enqueue_assignment(assignment_id, host_id)
    except Exception as exc:
        if not broker_budget.is_out_of_memory(exc) or not broker_budget.cut_off_hosts_over_budget(db):
            raise
        log.warning("the broker was full: hosts over their budget were cut off; sending again")
        enqueue_assignment(assignment_id, host_id)


def dispatch_run(db: Session, run: Run) -> None:
    """Enqueue each assignment on its host's queue; a broker failure fails the run with the reason."""
    for assignment in run.assignments:
        try:
            _enqueue(db, assignment.id, assignment.host_id)
        except Exception as exc:  # kombu/redis raise many types; each means "not delivered"
            log.warning("could not enqueue assignment %s: %s", assignment.id, exc)
            if broker_budget.is_out_of_memory(exc):
                reason = "the message broker is full (Redis maxmemory); the run was not started"
            else:
                reason = f"the message broker is unreachable ({type(exc).__name__}); the run was not started"
            lifecycle.fail_undispatchable(db, run, reason)
            db.commit()
            raise BrokerUnavailable(
                reason + ": check STORBENCH_BROKER_URL and that the broker is running"
            ) from exc


def sweep_once() -> int:
    """One sweeper pass in its own transaction; returns how many assignments were failed.

    It also sends again the queued assignments whose message was lost (after the commit, so a
    rolled-back pass sends nothing).
    """
    # Right after the API (re)starts, silence says nothing about hosts: they could not reach us.
    grace = get_settings().host_offline_after.total_seconds()
    judge_liveness = _serving_since is not None and time.monotonic() - _serving_since >= grace
    with get_sessionmaker()() as db:
        swept = lifecycle.sweep_stuck_assignments(db, judge_liveness=judge_liveness)
        resend = [(a.id, a.host_id) for a in lifecycle.assignments_to_redispatch(db)]
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
