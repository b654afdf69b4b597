"""Run endpoints."""

from typing import Annotated

from fastapi import APIRouter, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.fio_tools.schemas import FIO_JOB_RULES
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.models import RunStatus
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.runs import again, precheck, presenters, service, start, tasks
from storbench_api.runs.events import RunEventStream, TooManyStreams, open_event_stream
from storbench_api.runs.schemas import (
    RunAgain,
    RunCheckOut,
    RunCreate,
    RunEvent,
    RunList,
    RunOut,
    RunProgress,
    RunUpdate,
)

router = APIRouter(prefix="/runs", tags=["runs"])


@router.get("", response_model=RunList, summary="List runs, newest first")
def list_runs(
    db: DB,
    principal: ReadAccess,
    page: Annotated[Page, page_params(default_limit=50, max_limit=500)],
    status: RunStatus | None = None,
    target_id: OptionalIdQuery = None,
    label: Annotated[
        str | None, Query(max_length=200, pattern=r"^[^\x00]*$", description="label or note contains this")
    ] = None,
    plan_id: OptionalIdQuery = None,
) -> RunList:
    """Runs without their results, each with its headline figure; filter by status, target, label, plan."""
    return service.list_runs(
        db, principal.team_id, page.limit, page.offset, status, target_id, label, plan_id
    )


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


@router.post(
    "/check",
    response_model=RunCheckOut,
    summary="Check a run before starting it",
    openapi_extra=rules_beyond_schema(
        f"{FIO_JOB_RULES}; the target, plan, preset and hosts must be your team's"
    ),
)
def check_run(body: RunCreate, db: DB, principal: WriteAccess) -> RunCheckOut:
    """What the run needs (space, fio's memory) against what its hosts have, and every reason POST /runs
    would refuse it (the preset's platform, limits, free space, repetitions, offline hosts, clocks), each
    as it would answer; nothing is started."""
    return precheck.check_run(db, principal.team_id, body)


@router.get("/{run_id:int}", response_model=RunOut, summary="A run with its results")
def get_run(run_id: IdPath, db: DB, principal: ReadAccess) -> RunOut:
    """Status, timings, error and the measured results."""
    return presenters.describe_run(db, service.get_run(db, principal.team_id, run_id))


@router.patch("/{run_id:int}", response_model=RunOut, summary="Label or annotate a run")
def update_run(run_id: IdPath, body: RunUpdate, db: DB, principal: WriteAccess) -> RunOut:
    """Set or clear the run's label ("after firmware 2.1") and note, at any time."""
    run = service.update_run(db, principal, run_id, body)
    db.commit()
    return presenters.describe_run(db, run)


@router.post(
    "/{run_id}/run-again",
    response_model=RunOut,
    status_code=status.HTTP_201_CREATED,
    summary="Run a run again",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(
        "the jobs must still be safe on the target and its hosts online (as when starting a run)"
    ),
)
def run_again(run_id: IdPath, body: RunAgain, db: DB, principal: WriteAccess) -> RunOut:
    """The same jobs on the same target and hosts, keeping its plan and version; label and note
    are the earlier run's unless given."""
    run = again.run_again(db, principal, run_id, body)
    db.commit()
    tasks.dispatch_run(db, run)
    return presenters.describe_run(db, run, with_results=False)


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
