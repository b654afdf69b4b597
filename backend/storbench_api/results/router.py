"""The team's result history, and fio outputs imported into it."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Query, Response, status

from storbench_api.deps import DB, OwnerAccess, ReadAccess, WriteAccess
from storbench_api.errors import Conflict, NotFound
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.results import controls, filing, service
from storbench_api.results.filing_schemas import FiledOut, FileResultsIn, UnfiledGroupList
from storbench_api.results.filters import ResultFilters
from storbench_api.results.listing import as_utc
from storbench_api.results.schemas import (
    ImportForm,
    ImportOut,
    RelabelledOut,
    ResultLabelIn,
    ResultList,
    ResultOut,
    ResultsLabelIn,
)
from storbench_api.wire import ISO_DATETIME

router = APIRouter(prefix="/results", tags=["results"])


@router.get(
    "",
    response_model=ResultList,
    summary="The team's result history",
    openapi_extra=rules_beyond_schema(
        "cursor must be a next_cursor this service gave for the same filters (empty: the first page)"
    ),
)
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
        Annotated[datetime, ISO_DATETIME] | None,
        Query(description="measured at or after this time (ISO 8601; UTC when no zone)"),
    ] = None,
    measured_before: Annotated[
        Annotated[datetime, ISO_DATETIME] | None, Query(description="measured before this time")
    ] = None,
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
    responses={
        **errors(NotFound),
        200: {
            "model": ImportOut,
            "description": "The team already holds this exact output: nothing stored, the earlier results "
            "answered with duplicate=true",
        },
    },
    openapi_extra=rules_beyond_schema(
        "the file must be text (UTF-8 or UTF-16) holding fio's output with at least one job's results"
    ),
)
def import_output(
    db: DB,
    principal: WriteAccess,
    form: Annotated[ImportForm, Form(media_type="multipart/form-data")],
    response: Response,
) -> ImportOut:
    """Store an old or external fio output in the team's history, marked as imported and dated by fio.

    An output the team already holds (byte for byte) is not stored twice: the answer is 200 with
    duplicate=true and the results it became then.
    """
    imported = service.import_output(db, principal, form)
    if imported.duplicate:
        response.status_code = status.HTTP_200_OK
    db.commit()
    return imported


@router.get(
    "/unfiled",
    response_model=UnfiledGroupList,
    summary="Imports not filed under a target, by host name and job",
)
def list_unfiled(db: DB, principal: ReadAccess) -> UnfiledGroupList:
    """Imports without a target grouped by the host name and job fio reported, most recently measured
    first (at most 500 groups): what History lists until they are filed under a target."""
    return filing.unfiled_groups(db, principal.team_id)


@router.post(
    "/file",
    response_model=FiledOut,
    summary="File imports under a target",
    responses=errors(NotFound, Conflict),
    openapi_extra=rules_beyond_schema(
        "give result_ids, or host_name (and job_name) for every unfiled import of it; only imports "
        "not yet filed can be filed, at most 5000 at once"
    ),
)
def file_results(body: FileResultsIn, db: DB, principal: WriteAccess) -> FiledOut:
    """Put imports under one of the team's targets, all or none: they are judged by its storage class
    spec, fingerprinted, counted and watched for changes there as if uploaded onto it; audited.
    A target on another host than the imports' host name is allowed (the answer's notices say what
    that means); another team's target is 404."""
    filed = filing.file_results(db, principal, body)
    db.commit()
    return filed


def _download(file: controls.Download) -> Response:
    disposition = f'attachment; filename="{file.filename}"'
    return Response(file.content, media_type=file.media_type, headers={"Content-Disposition": disposition})


_TEXT_FILE = {"text/plain": {"schema": {"type": "string"}}}


@router.get("/{result_id:int}", response_model=ResultOut, summary="One result", responses=errors(NotFound))
def get_result(result_id: IdPath, db: DB, principal: ReadAccess) -> ResultOut:
    """A result with its figures, percentiles, latency histogram, spec checks and findings."""
    return service.describe(controls.get_result(db, principal.team_id, result_id))


# ":int": only digits are a result id, so /results/import is never read as one (PATCH on it is a 405).
@router.patch("/{result_id:int}", response_model=ResultOut, summary="Relabel a result")
def relabel_result(result_id: IdPath, body: ResultLabelIn, db: DB, principal: WriteAccess) -> ResultOut:
    """Set the label it is compared under (null or blank clears it); recorded in the audit log."""
    (result,) = controls.relabel(db, principal, [result_id], body.label)
    db.commit()
    return service.describe(result)


@router.patch(
    "", response_model=RelabelledOut, summary="Relabel several results at once", responses=errors(NotFound)
)
def relabel_results(body: ResultsLabelIn, db: DB, principal: WriteAccess) -> RelabelledOut:
    """Give every listed result one label; nothing changes when one of them is not the team's (404)."""
    results = controls.relabel(db, principal, body.ids, body.label)
    db.commit()
    return RelabelledOut(items=[service.describe(r) for r in results])


@router.delete("/{result_id:int}", status_code=204, summary="Delete a result (owners)")
def delete_result(result_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """Remove it from the history (its raw output too once no other result uses it); audited."""
    controls.delete(db, principal, result_id)
    db.commit()
    return Response(status_code=204)


@router.get(
    "/{result_id:int}/raw",
    response_class=Response,
    summary="Download fio's raw output",
    responses={
        200: {
            "description": "fio's output as it was written or uploaded",
            "content": {"application/json": {"schema": {"type": "string"}}, **_TEXT_FILE},
        }
    },
)
def download_raw_output(result_id: IdPath, db: DB, principal: ReadAccess) -> Response:
    """The output the result was read from: JSON for fio's JSON formats, text otherwise."""
    return _download(controls.raw_output(db, principal.team_id, result_id))


@router.get(
    "/{result_id:int}/job-file",
    response_class=Response,
    summary="Download the job file",
    responses={200: {"description": "an fio job file", "content": _TEXT_FILE}},
)
def download_job_file(result_id: IdPath, db: DB, principal: ReadAccess) -> Response:
    """A run's result: the jobs fio ran. An import: the job options fio printed (404 when it printed none)."""
    return _download(controls.job_file(db, principal.team_id, result_id))
