"""Where a stored output came from: who measured it on what, its content digest, when fio measured."""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from storbench_api.db import utcnow
from storbench_api.models import Assignment, Target
from storbench_fio.models import FioReport

# fio's own dates before this are a host whose clock was never set (1970), not a measurement.
_EARLIEST = datetime(1995, 1, 1, tzinfo=UTC)
# A text output's date has no zone: read as UTC, it may be up to a day ahead of the server's clock.
_AHEAD = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a fio output came from, built once by its caller and told to store_report.

    A run's host uploaded it (of_assignment), or someone imported it (of_import). The target is
    the one source of its id, path, kind, capacity and spec; storage_class and label are what the
    results are stored under (a run's are its target's, an import may name its own).
    """

    team_id: int
    target: Target | None = None
    storage_class: str | None = None
    label: str | None = None
    run_id: int | None = None
    assignment_id: int | None = None
    host_id: int | None = None
    host_name: str | None = None  # the host when fio's output names none
    host_facts: dict[str, Any] | None = None  # what the host reported of itself (a run's only)
    hosts_in_run: int = 1
    repetitions: tuple[int, ...] | None = None  # per job of the output, which repetition it was
    partial: bool = False  # fio was stopped before the jobs ended
    imported: bool = False

    @classmethod
    def of_assignment(
        cls, assignment: Assignment, *, partial: bool, repetitions: Sequence[int]
    ) -> "Provenance":
        """An output a run's host uploaded for its assignment (the run and host loaded with it)."""
        run = assignment.run
        return cls(
            team_id=run.team_id,
            target=run.target,
            storage_class=run.target.storage_class,
            label=run.target.name,
            run_id=run.id,
            assignment_id=assignment.id,
            host_id=assignment.host_id,
            host_name=assignment.host.name,
            host_facts=assignment.host.facts,
            hosts_in_run=len(run.assignments),
            repetitions=tuple(repetitions),
            partial=partial,
        )

    @classmethod
    def of_import(
        cls,
        team_id: int,
        *,
        target: Target | None,
        host_name: str | None,
        storage_class: str | None,
        label: str | None,
    ) -> "Provenance":
        """An output someone imported, onto a target or none."""
        return cls(
            team_id=team_id,
            target=target,
            storage_class=storage_class,
            label=label,
            host_name=host_name,
            imported=True,
        )

    @property
    def target_id(self) -> int | None:
        """The target's id, or None."""
        return self.target.id if self.target is not None else None

    @property
    def just_finished(self) -> bool:
        """A run's output has just finished; an import's is dated by fio."""
        return self.run_id is not None


def digest(content: bytes) -> str:
    """SHA-256 of an output as stored: the same output imported again has the same digest."""
    return hashlib.sha256(content).hexdigest()


def fio_time(report: FioReport) -> datetime | None:
    """When fio reported, by its own clock: JSON's timestamp, else a text output's date (as UTC)."""
    when: datetime | None = None
    if report.timestamp is not None:
        try:
            when = datetime.fromtimestamp(report.timestamp, UTC)
        except (OverflowError, OSError, ValueError):
            when = None
    elif report.local_time is not None:
        when = report.local_time.replace(tzinfo=UTC)
    if when is None or not _EARLIEST <= when <= utcnow() + _AHEAD:
        return None
    return when


def measured_at(report: FioReport, *, just_finished: bool = False) -> datetime:
    """When fio finished measuring: its own date when it printed a believable one, else now.

    A run's output has just finished (its host's clock may be a little ahead of ours: never later
    than now); an import's date is whatever fio printed then.
    """
    now = utcnow()
    when = fio_time(report) or now
    return min(when, now) if just_finished else when
