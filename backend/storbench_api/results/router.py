"""The team's result history, and fio outputs imported into it."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import NotFound
from storbench_api.ids import OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.results import service
from storbench_api.results.listing import ResultFilters, as_utc
from storbench_api.results.schemas import ImportForm, ImportOut, ResultList

router = APIRouter(prefix="/results", tags=["results"])


@router.get("", response_model=ResultList, summary="The team's result history")
def list_results(
    db: DB,
    principal: ReadAccess,
    limit: Annotated[int, Query(ge=1, le=1000, description="rows per page (at most 1000)")] = 100,
    cursor: Annotated[
        str | None, Query(max_length=200, description="next_cursor of the previous page (same filters)")
    ] = None,
    target_id: OptionalIdQuery = None,
    storage_class: Annotated[str | None, Query(max_length=120)] = None,
    imported: bool | None = None,
    job_name: Annotated[str | None, Query(max_length=120)] = None,
    label: Annotated[str | None, Query(max_length=200)] = None,
    host_name: Annotated[str | None, Query(max_length=255)] = None,
    run_id: OptionalIdQuery = None,
    measured_after: Annotated[
        datetime | None, Query(description="measured at or after this time (ISO 8601; UTC when no zone)")
    ] = None,
    measured_before: Annotated[datetime | None, Query(description="measured before this time")] = None,
) -> ResultList:
    """Results of runs and imports, newest first by when fio measured them, one keyset page at a time.

    Every filter is an exact match. `total` counts every match up to 10,000 and is PostgreSQL's
    estimate beyond (`total_is_estimate`).
    """
    filters = ResultFilters(
        target_id=target_id,
        storage_class=storage_class,
        imported=imported,
        job_name=job_name,
        label=label,
        host_name=host_name,
        run_id=run_id,
        measured_after=as_utc(measured_after),
        measured_before=as_utc(measured_before),
    )
    return service.list_results(db, principal.team_id, filters, limit, cursor)


@router.post(
    "/import",
    response_model=ImportOut,
    status_code=status.HTTP_201_CREATED,
    summary="Import an fio output (json, json+, client/server, status-interval stream or text)",
    responses=errors(NotFound),
    openapi_extra=rules_beyond_schema(
        "the file must be text (UTF-8 or UTF-16) holding fio's output with at least one job's results"
    ),
)
def import_output(
    db: DB, principal: WriteAccess, form: Annotated[ImportForm, Form(media_type="multipart/form-data")]
) -> ImportOut:
    """Store an old or external fio output in the team's history, marked as imported."""
    imported = service.import_output(db, principal, form)
    db.commit()
    return imported
