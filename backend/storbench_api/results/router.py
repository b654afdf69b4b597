"""The team's result history, and fio outputs imported into it."""

from typing import Annotated

from fastapi import APIRouter, File, Form, Query, UploadFile, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import DomainError, Invalid
from storbench_api.ids import MAX_ID, OptionalIdQuery
from storbench_api.results import repository, service
from storbench_api.results.schemas import ImportOut, ResultList
from storbench_api.targets import service as targets_service

router = APIRouter(prefix="/results", tags=["results"])

MAX_IMPORT_BYTES = 32 * 1024 * 1024


class TooLarge(DomainError):
    """An upload above the service's limit."""

    status_code = 413
    code = "too_large"


@router.get("", response_model=ResultList, summary="The team's result history")
def list_results(
    db: DB,
    principal: ReadAccess,
    target_id: OptionalIdQuery = None,
    storage_class: str | None = Query(None, max_length=120),
    imported: bool | None = None,
    job_name: str | None = Query(None, max_length=120),
    limit: int = Query(100, ge=1, le=1000),
    offset: int = Query(0, ge=0),
) -> ResultList:
    """Results of runs and imports, newest first, filtered by target, storage class or origin."""
    rows, total = repository.list_results(
        db,
        principal.team_id,
        limit,
        offset,
        target_id=target_id,
        storage_class=storage_class,
        imported=imported,
        job_name=job_name,
    )
    return ResultList(items=[service.describe(r) for r in rows], total=total)


@router.post(
    "/import",
    response_model=ImportOut,
    status_code=status.HTTP_201_CREATED,
    summary="Import an fio output (json, json+, client/server, status-interval stream or text)",
)
def import_output(
    db: DB,
    principal: WriteAccess,
    file: Annotated[UploadFile, File(description="fio's output as produced or pasted")],
    target_id: Annotated[int | None, Form(ge=1, le=MAX_ID)] = None,
    storage_class: Annotated[str | None, Form(max_length=120)] = None,
    host_name: Annotated[str | None, Form(max_length=255)] = None,
    label: Annotated[str | None, Form(max_length=200)] = None,
) -> ImportOut:
    """Store an old or external fio output in the team's history, marked as imported."""
    content = file.file.read(MAX_IMPORT_BYTES + 1)
    if len(content) > MAX_IMPORT_BYTES:
        raise TooLarge(f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MiB")
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = content.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Invalid(f"{file.filename or 'the file'} is not text (UTF-8 or UTF-16)") from exc
    target = targets_service.get_target(db, principal.team_id, target_id) if target_id is not None else None
    report = service.parse_output(text)
    results = service.store_report(
        db,
        team_id=principal.team_id,
        raw_text=text,
        report=report,
        host_name=host_name,
        target_id=target.id if target else None,
        imported=True,
        storage_class=storage_class or (target.storage_class if target else None),
        label=label or (target.name if target else file.filename),
    )
    db.commit()
    return ImportOut(
        source_format=report.source_format,
        fio_version=report.fio_version,
        results=[service.describe(r) for r in results],
    )
