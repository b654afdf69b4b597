"""Types every part of the protocol uses: ids and the status of a run or assignment."""

import enum
from typing import Annotated

from pydantic import Field

# Ids are positive and fit the database's integer column.
MAX_ID = 2**31 - 1
Id = Annotated[int, Field(ge=1, le=MAX_ID)]


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
