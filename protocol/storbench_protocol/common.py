"""Types every part of the protocol uses: ids and the status of a run or assignment."""

import enum
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _whole_number(value: object) -> object:
    """JSON's integers include 2.0 (JSON Schema says so); strings and booleans are not numbers."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# JSON Schema's integers (2 or 2.0, never "2" or true, with WireModel's strictness). Placed after
# a type's constraints, so the schema states them.
WholeNumber = BeforeValidator(_whole_number)
Int = Annotated[int, WholeNumber]
NonNegativeInt = Annotated[int, Field(ge=0), WholeNumber]
# Ids are positive and fit the database's integer column.
MAX_ID = 2**31 - 1
Id = Annotated[int, Field(ge=1, le=MAX_ID), WholeNumber]


class WireModel(BaseModel):
    """A protocol body: values have the types its schema states (5, not "5"; false, not 0).

    Pydantic would otherwise coerce them, and the API's schema would not say what it accepts.
    Datetimes and enums stay lax (Field(strict=False)): JSON carries them as strings.
    """

    model_config = ConfigDict(strict=True)


class WireRequest(WireModel):
    """A body a worker sends: a field the server does not declare is refused (422 naming it).

    So a field misspelt or added on one side only is an error, never silently dropped. What a
    worker reads stays a WireModel, tolerant of fields a newer server adds; so do the host's facts
    and a second's figures inside a request (HostFacts, DirectionSample): the server also reads
    them back from what it stored, and a fact an older worker did not know is left out, not sent.
    """

    model_config = ConfigDict(extra="forbid")


class RunStatus(enum.StrEnum):
    """Lifecycle of a run and of each host's share: queued → running → completed | failed | cancelled."""

    queued = "queued"
    running = "running"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_terminal(self) -> bool:
        """True once the run (or assignment) can no longer change."""
        return self in (RunStatus.completed, RunStatus.failed, RunStatus.cancelled)

    @property
    def stops_fio(self) -> bool:
        """True when a worker running fio for it must stop (cancelled, or failed meanwhile)."""
        return self in (RunStatus.cancelled, RunStatus.failed)
