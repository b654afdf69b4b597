"""Slots of cron expressions in timezones, across daylight-saving changes."""

from datetime import UTC, datetime

import pytest

from storbench_api.errors import Invalid
from storbench_api.schedules import cron


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def test_a_daily_slot_follows_the_local_clock_across_dst_in_berlin() -> None:
    # 02:00 local is 01:00 UTC in winter (CET) and 00:00 UTC in summer (CEST).
    slots = cron.next_slots("0 2 * * *", "Europe/Berlin", _utc(2026, 3, 27, 12), 3)
    assert slots[0] == _utc(2026, 3, 28, 1)
    # 29 March 2026: 02:00 does not exist (clocks jump to 03:00): cron runs at 03:00 CEST, once.
    assert slots[1] == _utc(2026, 3, 29, 1)
    assert slots[2] == _utc(2026, 3, 30, 0)


def test_a_slot_in_the_autumn_repeated_hour_fires_once() -> None:
    # 25 October 2026: 02:30 happens twice in Berlin; the daily job runs at the first one only.
    slots = cron.next_slots("30 2 * * *", "Europe/Berlin", _utc(2026, 10, 24, 12), 3)
    assert slots == [_utc(2026, 10, 25, 0, 30), _utc(2026, 10, 26, 1, 30), _utc(2026, 10, 27, 1, 30)]


def test_new_york_and_utc_read_the_same_expression_differently() -> None:
    after = _utc(2026, 7, 1, 0)
    assert cron.next_slots("0 9 * * 1-5", "America/New_York", after, 1) == [_utc(2026, 7, 1, 13)]
    assert cron.next_slots("0 9 * * 1-5", "UTC", after, 1) == [_utc(2026, 7, 1, 9)]


def test_due_slots_and_the_latest_one() -> None:
    slots, more = cron.due_slots("0 * * * *", "UTC", _utc(2026, 1, 1, 0), _utc(2026, 1, 1, 5, 30), 100)
    assert slots == [_utc(2026, 1, 1, h) for h in range(6)] and not more
    capped, more = cron.due_slots("* * * * *", "UTC", _utc(2026, 1, 1, 0), _utc(2026, 1, 2, 0), 10)
    assert len(capped) == 10 and more
    assert cron.latest_slot_at_or_before("*/15 * * * *", "UTC", _utc(2026, 1, 1, 10, 44)) == _utc(
        2026, 1, 1, 10, 30
    )
    assert cron.latest_slot_at_or_before("*/15 * * * *", "UTC", _utc(2026, 1, 1, 10, 45)) == _utc(
        2026, 1, 1, 10, 45
    )


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("* * *", "3 fields"),
        ("0 0 * * * *", "6 fields"),
        ("61 * * * *", "Bad minute"),
        ("0 25 * * *", "Bad hour"),
        ("0 0 31 2 *", "Bad day-of-month"),
        ("@daily", "1 fields"),
    ],
)
def test_a_bad_expression_names_the_cron_field(expression: str, reason: str) -> None:
    with pytest.raises(Invalid) as raised:
        cron.normalise_cron(expression)
    [error] = raised.value.errors
    assert error["field"] == "cron" and reason in error["reason"]


@pytest.mark.parametrize("name", ["Mars/Olympus", "../etc/passwd", "", "Europe/"])
def test_an_unknown_timezone_names_the_timezone_field(name: str) -> None:
    with pytest.raises(Invalid) as raised:
        cron.zone(name)
    assert raised.value.errors[0]["field"] == "timezone"
