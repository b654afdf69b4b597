"""Run endpoints."""

from fastapi import APIRouter, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.models import RunStatus
from storbench_api.runs import presenters, service, start, tasks
from storbench_api.runs.events import RunEventStream, open_event_stream
from storbench_api.runs.schemas import RunCreate, RunEvent, RunList, RunOut, RunProgress

router = APIRouter(prefix="/runs", tags=["runs"])


@router.get("", response_model=RunList, summary="List runs, newest first")
def list_runs(
    db: DB,
    principal: ReadAccess,
    status: RunStatus | None = None,
    target_id: OptionalIdQuery = None,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0),
) -> RunList:
    """Runs without their results; filter by status or target."""
    return service.list_runs(db, principal.team_id, limit, offset, status, target_id)


@router.post("", response_model=RunOut, status_code=status.HTTP_201_CREATED, summary="Start a run")
def start_run(body: RunCreate, db: DB, principal: WriteAccess) -> RunOut:
    """Queue a plan, preset or inline jobs on a target; its host's worker runs fio."""
    run = start.start_run(db, principal, body)
    db.commit()
    tasks.dispatch_run(db, run)
    return presenters.describe_run(db, run, with_results=False)


@router.get("/{run_id}", response_model=RunOut, summary="A run with its results")
def get_run(run_id: IdPath, db: DB, principal: ReadAccess) -> RunOut:
    """Status, timings, error and the measured results."""
    return presenters.describe_run(db, service.get_run(db, principal.team_id, run_id))


@router.post("/{run_id}/cancel", response_model=RunOut, summary="Cancel a run")
def cancel_run(run_id: IdPath, db: DB, principal: WriteAccess) -> RunOut:
    """Stop a queued or running run; fio is stopped on its host."""
    run = service.cancel_run(db, principal, run_id)
    db.commit()
    return presenters.describe_run(db, run)


@router.get("/{run_id}/progress", response_model=RunProgress, summary="Per-second progress of each host")
def get_progress(run_id: IdPath, db: DB, principal: ReadAccess) -> RunProgress:
    """IOPS, bandwidth and mean latency per direction for every second fio reported."""
    return service.run_progress(db, principal.team_id, run_id)


@router.get(
    "/{run_id}/events",
    summary="Live status and progress (Server-Sent Events)",
    response_class=RunEventStream,
    responses={
        200: {
            "description": "The run's events (text/event-stream), each a RunEvent, until the run ends",
            "model": list[RunEvent],
            "content": {"text/event-stream": {"itemSchema": {"$ref": "#/components/schemas/RunEvent"}}},
        },
        429: {"description": "Too many open streams"},
    },
)
def stream_events(run_id: IdPath, db: DB, principal: ReadAccess) -> RunEventStream:
    """`status` events on every change and a `progress` event per host-second, until the run ends.

    A user may hold `max_event_streams_per_user` streams at once per API process; one more is a 429.
    """
    service.get_run(db, principal.team_id, run_id)
    stream = open_event_stream(principal.team_id, run_id, principal.user_id)
    # The stream may last hours: end the request's transaction now, so its pooled connection is
    # not held until the stream ends.
    db.commit()
    return stream
