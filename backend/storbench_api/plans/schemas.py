"""Plan request and response bodies."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from storbench_api.fio_tools.schemas import FioJobIn, FioJobOut
from storbench_api.runs.schemas import SweepAxis, SweepStop
from storbench_api.wire import JSON_INTEGER, NAME, NO_NUL, RequestBody

_NAME_FIELD = Field(min_length=1, max_length=120, pattern=NAME, examples=["NAS 4k random read"])


class PlanSweep(RequestBody):
    """The sweep a plan's runs execute: as POST /runs takes it (sweep, sweep_shuffle, sweep_seed,
    sweep_stop), under shorter names."""

    axes: list[SweepAxis] = Field(min_length=1, max_length=3)
    shuffle: bool = False
    seed: Annotated[int, Field(ge=0, le=2**31, strict=False), JSON_INTEGER] = 0
    stop: SweepStop | None = None


class PlanCreate(RequestBody):
    """A named list of fio jobs; sizes may use fio's units (4k, 1M, 100%)."""

    name: str = _NAME_FIELD
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
    # Its runs sweep these options (a run's own sweep replaces it) and precondition first.
    sweep: PlanSweep | None = None
    precondition: bool = False


class PlanUpdate(RequestBody):
    """Edit a plan: new jobs (or shared_files) make a new version; runs keep the version they ran.

    A field left out stays as it is.
    """

    name: str | None = Field(default=None, min_length=1, max_length=120, pattern=NAME)
    description: str | None = Field(default=None, max_length=4000, pattern=NO_NUL)
    jobs: list[FioJobIn] | None = Field(default=None, min_length=1, max_length=1000)
    shared_files: bool | None = None
    # null removes the sweep; left out, it stays.
    sweep: PlanSweep | None = None
    precondition: bool | None = None


class PlanDuplicate(RequestBody):
    """Copy a plan's current version under a new name (default: '<name> (copy)')."""

    name: str | None = Field(default=None, min_length=1, max_length=120, pattern=NAME)


class PlanOut(BaseModel):
    """A saved plan with normalised jobs (its current version)."""

    id: int
    name: str
    description: str | None
    jobs: list[FioJobOut]
    preset_id: str | None
    shared_files: bool = False
    sweep: PlanSweep | None = None
    precondition: bool = False
    # Editing the jobs adds a version; runs keep the version they ran.
    version: int = 1
    created_at: datetime
    updated_at: datetime | None = None


class PlanList(BaseModel):
    """A page of plans."""

    items: list[PlanOut]
    total: int


class PlanVersionOut(BaseModel):
    """One version of a plan's jobs, as it was saved."""

    version: int
    jobs: list[FioJobOut]
    shared_files: bool
    description: str | None
    created_by: str | None
    created_at: datetime
    # Runs of this version (their results keep it).
    runs: int = 0


class PlanVersionList(BaseModel):
    """Every version of a plan, newest first."""

    items: list[PlanVersionOut]
    total: int
