"""Which results a question is about: the filters of the results list, of comparisons and of groups."""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement

from storbench_api.models import Result


@dataclass(frozen=True, slots=True)
class ResultFilters:
    """Filters on the team's results; None is "any", every other value an exact match."""

    ids: Sequence[int] | None = None  # only these results (grouped views)
    target_id: int | None = None
    storage_class: str | None = None
    imported: bool | None = None
    job_name: str | None = None
    label: str | None = None
    host_name: str | None = None
    run_id: int | None = None
    # measured_after is inclusive, measured_before exclusive.
    measured_after: datetime | None = None
    measured_before: datetime | None = None

    def conditions(self) -> list[ColumnElement[bool]]:
        """WHERE clauses on results (the team's own condition is the caller's)."""
        found: list[ColumnElement[bool]] = []
        if self.ids is not None:
            found.append(Result.id.in_(list(self.ids)))
        equal: dict[str, Any] = {
            "target_id": self.target_id,
            "storage_class": self.storage_class,
            "imported": self.imported,
            "job_name": self.job_name,
            "label": self.label,
            "host_name": self.host_name,
            "run_id": self.run_id,
        }
        for column, value in equal.items():
            if value is not None:
                found.append(getattr(Result, column) == value)
        if self.measured_after is not None:
            found.append(Result.measured_at >= self.measured_after)
        if self.measured_before is not None:
            found.append(Result.measured_at < self.measured_before)
        return found

    def digest(self) -> str:
        """A short digest of the filters, to recognise a cursor issued for others."""
        values = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in asdict(self).items()}
        if values["ids"] is None:
            del values["ids"]  # the digest the results list gave before ids were a filter: its cursors hold
        else:
            values["ids"] = list(values["ids"])
        return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:16]
