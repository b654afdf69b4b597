"""Endpoints that put storbench's fio knowledge at the user's disposal."""

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from storbench_api.deps import ReadAccess
from storbench_api.fio_tools import service

router = APIRouter(prefix="/fio", tags=["fio"])


class JobsIn(BaseModel):
    """Jobs to check, as JSON objects of fio options."""

    jobs: list[dict[str, Any]] = Field(examples=[[{"name": "r", "rw": "randread", "bs": "4k"}]])


class JobsOut(BaseModel):
    """Jobs as storbench normalised them."""

    jobs: list[dict[str, Any]]


class FioTextIn(BaseModel):
    """A job file or a pasted fio command line."""

    text: str = Field(
        min_length=1,
        max_length=256 * 1024,
        examples=["fio --name=randread --rw=randread --bs=4k --iodepth=32 --direct=1 --ioengine=libaio"],
    )


@router.post("/validate", response_model=JobsOut, summary="Parse a job file or fio command line")
def validate_text(body: FioTextIn, principal: ReadAccess) -> JobsOut:
    """200 with the normalised jobs, or 422 with one {option, value, reason} per offending option."""
    return JobsOut(jobs=service.jobs_from_text(body.text))


@router.post("/validate-jobs", response_model=JobsOut, summary="Validate and normalise fio jobs")
def validate_jobs(body: JobsIn, principal: ReadAccess) -> JobsOut:
    """200 with the normalised jobs, or 422 with one error per offending option."""
    return JobsOut(jobs=service.normalise_jobs(body.jobs))
