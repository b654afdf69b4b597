"""Endpoints that put storbench's fio knowledge at the user's disposal."""

from fastapi import APIRouter

from storbench_api.deps import ReadAccess
from storbench_api.fio_tools import service
from storbench_api.fio_tools.schemas import (
    FIO_JOB_RULES,
    FioTextIn,
    JobsIn,
    JobsOut,
    NoticeOut,
    jobs_in,
    jobs_out,
)
from storbench_api.openapi import rules_beyond_schema

router = APIRouter(prefix="/fio", tags=["fio"])


@router.post(
    "/validate",
    response_model=JobsOut,
    summary="Parse a job file or fio command line",
    openapi_extra=rules_beyond_schema(f"the text must be an fio job file or command line; {FIO_JOB_RULES}"),
)
def validate_text(body: FioTextIn, principal: ReadAccess) -> JobsOut:
    """200 with the normalised jobs, or 422 with one {option, value, reason} per offending option."""
    jobs, notices = service.jobs_from_text(body.text)
    return JobsOut(
        jobs=jobs_out(jobs), notices=[NoticeOut.model_validate(n, from_attributes=True) for n in notices]
    )


@router.post(
    "/validate-jobs",
    response_model=JobsOut,
    summary="Validate and normalise fio jobs",
    openapi_extra=rules_beyond_schema(FIO_JOB_RULES),
)
def validate_jobs(body: JobsIn, principal: ReadAccess) -> JobsOut:
    """200 with the normalised jobs, or 422 with one error per offending option."""
    return JobsOut(jobs=jobs_out(service.normalise_jobs(jobs_in(body.jobs))))
