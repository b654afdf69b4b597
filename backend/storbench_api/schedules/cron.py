"""Cron expressions (5 fields) read in an IANA timezone, and the slots they give, in UTC.

cronsim does the calendar work, DST included as Debian's cron does it: a daily 02:30 slot that
falls in a spring-forward gap runs at the first valid minute after it, and one that occurs twice
in an autumn fall-back runs once (the first occurrence).
"""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import islice, pairwise
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from storbench_api.errors import Invalid


def normalise_cron(expression: str) -> str:
    """The expression with single spaces, if it is a valid 5-field cron; else Invalid naming `cron`."""
    fields = expression.split()
    if len(fields) != 5:
        raise Invalid(
            "cron must have 5 fields: minute hour day-of-month month day-of-week",
            [
                {
                    "field": "cron",
                    "value": expression[:120],
                    "reason": f"{len(fields)} fields given; e.g. '0 2 * * *' is every day at 02:00",
                }
            ],
        )
    text = " ".join(fields)
    try:
        CronSim(text, datetime(2000, 1, 1, tzinfo=UTC))
    except (CronSimError, ValueError, IndexError) as exc:
        raise Invalid(
            f"cron '{text}' cannot be read: {exc}",
            [{"field": "cron", "value": text, "reason": str(exc) or "not a cron expression"}],
        ) from exc
    return text


def zone(name: str) -> ZoneInfo:
    """The IANA timezone of that name; else Invalid naming `timezone`."""
    try:
        if not name or name.startswith(("/", ".")) or ".." in name:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise Invalid(
            f"unknown timezone '{name[:64]}'",
            [
                {
                    "field": "timezone",
                    "value": name[:64],
                    "reason": "an IANA name such as Europe/Berlin or UTC",
                }
            ],
        ) from exc


def slots_after(cron: str, timezone: str, after: datetime) -> Iterator[datetime]:
    """The slots strictly after `after`, in order, as UTC datetimes."""
    local = after.astimezone(zone(timezone)).replace(microsecond=0)
    for slot in CronSim(cron, local):
        yield slot.astimezone(UTC)


def next_slots(cron: str, timezone: str, after: datetime, count: int) -> list[datetime]:
    """The next `count` slots after `after`."""
    return list(islice(slots_after(cron, timezone, after), count))


def first_slot_from(cron: str, timezone: str, since: datetime) -> datetime | None:
    """The first slot at or after `since`."""
    return next(slots_after(cron, timezone, since - timedelta(seconds=1)), None)


def due_slots(
    cron: str, timezone: str, first: datetime, now: datetime, cap: int
) -> tuple[list[datetime], bool]:
    """Slots from `first` (a slot) up to `now` included, at most cap of them, and whether more were due."""
    slots = [first] if first <= now else []
    if not slots:
        return [], False
    for slot in slots_after(cron, timezone, first):
        if slot > now:
            return slots, False
        if len(slots) >= cap:
            return slots, True
        slots.append(slot)
    return slots, False


def slots_before(cron: str, timezone: str, before: datetime, first: datetime, count: int) -> list[datetime]:
    """Up to `count` slots strictly before `before` and not before `first`, oldest first."""
    local = before.astimezone(zone(timezone)).replace(microsecond=0)
    found: list[datetime] = []
    for slot in CronSim(cron, local, reverse=True):
        moment = slot.astimezone(UTC)
        if moment < first or len(found) >= count:
            break
        if moment < before:
            found.append(moment)
    return found[::-1]


def latest_slot_at_or_before(cron: str, timezone: str, now: datetime) -> datetime | None:
    """The last slot at or before `now` (searching backwards)."""
    local = (now + timedelta(seconds=1)).astimezone(zone(timezone)).replace(microsecond=0)
    for slot in CronSim(cron, local, reverse=True):
        return slot.astimezone(UTC)
    return None


def closest_slots(cron: str) -> timedelta:
    """The shortest time between two slots of the expression, or an hour when none are closer.

    Read from the minute and hour fields: under an hour apart, two slots fall in one hour or in
    neighbouring ones (23:00 and 00:00 count as neighbours, whatever the days allow).
    """
    sim = CronSim(cron, datetime(2000, 1, 1, tzinfo=UTC))
    minutes = sorted(sim.minutes)
    gaps = [b - a for a, b in pairwise(minutes)]
    if any((hour + 1) % 24 in sim.hours for hour in sim.hours):
        gaps.append(60 - minutes[-1] + minutes[0])
    return timedelta(minutes=min([60, *gaps]))


def ensure_spaced(cron: str, minimum: timedelta) -> None:
    """Invalid naming `cron` if two of its slots come closer than minimum."""
    closest = closest_slots(cron)
    if closest < minimum:
        least, apart = int(minimum.total_seconds() // 60), int(closest.total_seconds() // 60)
        raise Invalid(
            f"cron '{cron}' fires {apart} min apart; schedules must be "
            f"at least {least} min apart (STORBENCH_SCHEDULE_MIN_INTERVAL)",
            [
                {
                    "field": "cron",
                    "value": cron,
                    "reason": f"two slots come {apart} min apart; at least {least} min",
                }
            ],
        )
