"""The team's result history, and fio outputs imported into it."""

from typing import Annotated

from fastapi import APIRouter, Form, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import NotFound
from storbench_api.ids import OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.results import service
from storbench_api.results.schemas import ImportForm, ImportOut, ResultList

router = APIRouter(prefix="/results", tags=["results"])


@router.get("", response_model=ResultList, summary="The team's result history")
def list_results(
    db: DB,
    principal: ReadAccess,
    page: Annotated[Page, page_params(max_limit=1000)],
    target_id: OptionalIdQuery = None,
    storage_class: Annotated[str | None, Query(max_length=120)] = None,
    imported: bool | None = None,
    job_name: Annotated[str | None, Query(max_length=120)] = None,
) -> ResultList:
    """Results of runs and imports, newest first, filtered by target, storage class or origin."""
    items, total = service.list_results(
        db,
        principal.team_id,
        page.limit,
        page.offset,
        target_id=target_id,
        storage_class=storage_class,
        imported=imported,
        job_name=job_name,
    )
    return ResultList(items=items, total=total)


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
