"""Plan request and response bodies."""

from datetime import datetime

from pydantic import BaseModel, Field

from storbench_api.fio_tools.schemas import FioJobIn, FioJobOut
from storbench_api.wire import NAME, NO_NUL, RequestBody


class PlanCreate(RequestBody):
    """A named list of fio jobs; sizes may use fio's units (4k, 1M, 100%)."""

    name: str = Field(min_length=1, max_length=120, pattern=NAME, examples=["NAS 4k random read"])
    description: str | None = Field(default=None, max_length=4000, pattern=NO_NUL)
    jobs: list[FioJobIn] = Field(
        min_length=1,
        max_length=1000,
        examples=[[{"name": "randread-4k", "rw": "randread", "bs": "4k", "iodepth": 32}]],
    )
    preset_id: str | None = Field(default=None, max_length=80, pattern=NO_NUL)
    # On a shared file system, run by several hosts: all hosts use one set of files (laid out
    # once) instead of each host writing its own.
    shared_files: bool = False


class PlanOut(BaseModel):
    """A saved plan with normalised jobs."""

    id: int
    name: str
    description: str | None
    jobs: list[FioJobOut]
    preset_id: str | None
    shared_files: bool = False
    created_at: datetime


class PlanList(BaseModel):
    """A page of plans."""

    items: list[PlanOut]
    total: int
