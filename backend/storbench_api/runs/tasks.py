"""Handing a run's assignments to the broker, after the run is committed."""

import logging

from sqlalchemy.orm import Session

from storbench_api.broker import enqueue_assignment
from storbench_api.errors import BrokerUnavailable
from storbench_api.models import Run
from storbench_api.runs import service

log = logging.getLogger(__name__)


def dispatch_run(db: Session, run: Run) -> None:
    """Enqueue each assignment on its host's queue; a broker failure fails the run with the reason."""
    for assignment in run.assignments:
        try:
            enqueue_assignment(assignment.id, assignment.host_id)
        except Exception as exc:  # kombu/redis raise many types; each means "not delivered"
            log.warning("could not enqueue assignment %s: %s", assignment.id, exc)
            reason = f"the message broker is unreachable ({type(exc).__name__}); the run was not started"
            service.fail_undispatchable(db, run, reason)
            db.commit()
            raise BrokerUnavailable(
                reason + ": check STORBENCH_BROKER_URL and that the broker is running"
            ) from exc
