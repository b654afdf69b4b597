"""Run endpoints."""

from typing import Annotated

from fastapi import APIRouter, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.fio_tools.schemas import FIO_JOB_RULES
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.models import RunStatus
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.runs import presenters, service, start, tasks
from storbench_api.runs.events import RunEventStream, TooManyStreams, open_event_stream
from storbench_api.runs.schemas import RunCreate, RunEvent, RunList, RunOut, RunProgress

router = APIRouter(prefix="/runs", tags=["runs"])


@router.get("", response_model=RunList, summary="List runs, newest first")
def list_runs(
    db: DB,
    principal: ReadAccess,
    page: Annotated[Page, page_params(default_limit=50, max_limit=500)],
    status: RunStatus | None = None,
    target_id: OptionalIdQuery = None,
) -> RunList:
    """Runs without their results; filter by status or target."""
    return service.list_runs(db, principal.team_id, page.limit, page.offset, status, target_id)


@router.post(
    "",
    response_model=RunOut,
    status_code=status.HTTP_201_CREATED,
    summary="Start a run",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(
        f"{FIO_JOB_RULES}; the target, plan and hosts must be your team's, the jobs safe on the target "
        "(its kind, allowed paths, free space and memory) and a block device's writes confirmed"
    ),
)
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


@router.post("/{run_id}/cancel", response_model=RunOut, summary="Cancel a run", responses=errors(Conflict))
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
        **errors(TooManyStreams),
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
