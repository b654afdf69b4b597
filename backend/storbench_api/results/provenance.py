"""Where a stored output came from: its content digest, and when fio says it measured."""

import hashlib
from datetime import UTC, datetime, timedelta

from storbench_api.db import utcnow
from storbench_fio.models import FioReport

# fio's own dates before this are a host whose clock was never set (1970), not a measurement.
_EARLIEST = datetime(1995, 1, 1, tzinfo=UTC)
# A text output's date has no zone: read as UTC, it may be up to a day ahead of the server's clock.
_AHEAD = timedelta(days=1)


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
