"""A result's place on a curve's axis: the value of one numeric fio option it ran with."""

from collections.abc import Mapping
from typing import Any

from storbench_fio.reported import read_options

# The fio options a curve (and a sweep) may run along: numbers where a curve against them means something.
AXIS_OPTIONS = ("iodepth", "numjobs", "bs", "rwmixread", "rate", "rate_iops")


def axis_value(options: Mapping[str, Any], option: str) -> float | None:
    """The option's value as a number (fio's default when unset; None when not a single number)."""
    text = read_options(options).get(option)
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return None
