"""What a page of the result history is asked for: its filters, and the cursor of the page before.

Pages are keyset pages: newest first by (measured_at, id), the next page starts strictly after the
last row shown. The cursor is opaque to clients: base64url of that (measured_at, id) and a digest
of the filters it was issued for, so a cursor sent with other filters (or made up) is a 422 saying
to start from the first page, never a page of some other listing.
"""

import base64
import binascii
import json
from dataclasses import dataclass
from datetime import UTC, datetime

from storbench_api.errors import Invalid
from storbench_api.results.filters import ResultFilters

CURSOR_VERSION = 1


def as_utc(moment: datetime | None) -> datetime | None:
    """A query's time in UTC; one without a zone is read as UTC."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class Position:
    """The last row of a page: the next page starts after it."""

    measured_at: datetime
    id: int


def encode_cursor(position: Position, filters: ResultFilters) -> str:
    """The opaque cursor of the page after `position`."""
    payload = {
        "v": CURSOR_VERSION,
        "m": position.measured_at.astimezone(UTC).isoformat(),
        "i": position.id,
        "f": filters.digest(),
    }
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _invalid(reason: str) -> Invalid:
    return Invalid(f"cursor: {reason}", errors=[{"field": "cursor", "reason": reason}])


def decode_cursor(cursor: str, filters: ResultFilters) -> Position:
    """The position a cursor stands for, or 422 when it is not one of ours for these filters."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        payload = json.loads(raw)
        position = Position(measured_at=datetime.fromisoformat(payload["m"]), id=int(payload["i"]))
        version, digest = payload["v"], payload["f"]
    except (binascii.Error, ValueError, TypeError, KeyError, UnicodeDecodeError, OverflowError) as exc:
        raise _invalid(
            "not a cursor this service gave out; pass next_cursor from a previous page, or none for the first"
        ) from exc
    if version != CURSOR_VERSION or position.measured_at.tzinfo is None or not 1 <= position.id <= 2**63 - 1:
        raise _invalid("not a cursor this service gave out; start again from the first page (no cursor)")
    if digest != filters.digest():
        raise _invalid(
            "this cursor was given for other filters; keep the filters of the first page, "
            "or start again from the first page (no cursor)"
        )
    return Position(measured_at=position.measured_at.astimezone(UTC), id=position.id)
