"""Schedule request and response bodies."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from storbench_api.ids import IdField
from storbench_api.models.schedule import FiringStatus
from storbench_api.wire import JSON_INTEGER, NAME, NO_NUL, RequestBody

Repetitions = Annotated[int, Field(ge=1, le=100, strict=False), JSON_INTEGER]


class ScheduleCreate(RequestBody):
    """Run a saved plan on a target at every slot of a cron expression, read in a timezone."""

    name: str = Field(min_length=1, max_length=120, pattern=NAME, examples=["nightly NAS check"])
    plan_id: IdField
    target_id: IdField
    cron: str = Field(
        min_length=1,
        max_length=120,
        pattern=NO_NUL,
        examples=["0 2 * * *"],
        description="5 fields: minute hour day-of-month month day-of-week",
    )
    timezone: str = Field(
        default="UTC",
        min_length=1,
        max_length=64,
        pattern=NO_NUL,
        examples=["Europe/Berlin"],
        description="IANA timezone the cron expression is read in (DST handled as cron does)",
    )
    enabled: bool = True
    label: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    repetitions: Repetitions = 1
    host_ids: list[IdField] = Field(default_factory=list, max_length=1000)


class ScheduleUpdate(RequestBody):
    """Change a schedule; fields left out stay as they are."""

    name: str | None = Field(default=None, min_length=1, max_length=120, pattern=NAME)
    plan_id: IdField | None = None
    target_id: IdField | None = None
    cron: str | None = Field(default=None, min_length=1, max_length=120, pattern=NO_NUL)
    timezone: str | None = Field(default=None, min_length=1, max_length=64, pattern=NO_NUL)
    enabled: bool | None = None
    label: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    repetitions: Repetitions | None = None
    host_ids: list[IdField] | None = Field(default=None, max_length=1000)


class NamedRef(BaseModel):
    """A plan or target a schedule uses."""

    id: int
    name: str | None


class LocalSlot(BaseModel):
    """A slot as the schedule's zone reads it: the instant with the zone's offset, and the zone named."""

    at: datetime = Field(description="the slot with the zone's UTC offset, e.g. 2026-03-30T02:00:00+02:00")
    timezone: str = Field(description="the schedule's IANA zone, e.g. Europe/Berlin")
    abbreviation: str = Field(description="the zone's abbreviation at that instant, e.g. CEST")
    utc_offset: str = Field(description="e.g. +02:00 (daylight saving time shows here)")


class FiringOut(BaseModel):
    """One slot of a schedule: started (with its run), missed or failed, and why."""

    id: int
    slot_at: datetime
    status: FiringStatus
    reason: str | None
    # A missed row may stand for several slots of one outage.
    missed_count: int
    run_id: int | None
    created_at: datetime


class ScheduleOut(BaseModel):
    """A schedule with its next slots and its latest firing."""

    id: int
    name: str
    plan: NamedRef
    target: NamedRef
    cron: str
    timezone: str
    enabled: bool
    label: str | None
    repetitions: int
    host_ids: list[int]
    created_by: str | None
    next_fire_at: datetime | None
    next_fire_times: list[datetime] = Field(description="the next slots in UTC")
    next_slots: list[LocalSlot] = Field(description="the same slots in the schedule's zone, named")
    last_firing: FiringOut | None
    # Slots missed or refused over the schedule's life.
    missed_total: int
    created_at: datetime
    updated_at: datetime


class ScheduleList(BaseModel):
    """The team's schedules."""

    items: list[ScheduleOut]
    total: int


class FiringList(BaseModel):
    """A schedule's firings, latest slot first."""

    items: list[FiringOut]


class SlotPreview(BaseModel):
    """The next slots of a cron expression in a timezone (to check one before saving it)."""

    cron: str
    timezone: str
    next_fire_times: list[datetime] = Field(description="the next slots in UTC")
    next_slots: list[LocalSlot] = Field(description="the same slots in the zone, named")
