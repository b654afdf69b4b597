"""What a rollup row counts: its key, and n, exact min and max and a histogram of its values.

One row per team, figure, direction and kind of result (target, class as stored, spec, stored
capacity, job name, imported or not, job shape): n, exact min and max, and a histogram of
logarithmic bins of 1 % relative width. A quantile read from it is the bin's geometric middle
(clamped to the exact min/max), within ±0.5 % of the quantile computed on every result.
"""

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from storbench_api.figures.definition import COMPARED_FIGURES, MeasuredPer
from storbench_fio.reported import job_shape

BASE = 1.01
LN_BASE = math.log(BASE)
PRECISION_PCT = 0.5  # (sqrt(1.01) - 1) rounded: the widest relative error of a quantile read from a bin
# The figures comparisons and grouped views show: columns of result_directions, entries of CPU use.
DIRECTION_COLUMNS = tuple(f.key for f in COMPARED_FIGURES if f.per is MeasuredPer.direction)
CPU_FIGURES = {f.value: f.key for f in COMPARED_FIGURES if f.per is MeasuredPer.job}
JOB = "job"  # the direction CPU figures are counted under: they belong to the job, not a direction


class Key(NamedTuple):
    """What a rollup row keeps apart, besides team, direction and figure (sentinels for none)."""

    target_id: int
    storage_class: str
    storage_class_spec_id: int
    capacity_gib: float
    job_name: str
    imported: bool
    rw: str
    bs: str
    iodepth: str
    numjobs: str


Observation = tuple[str, str, float]  # direction, figure, value
RowKey = tuple[int, Key, str, str]  # team, key, direction, figure


def bin_of(value: float) -> int:
    """The logarithmic bin of a value > 0."""
    return math.floor(math.log(value) / LN_BASE)


def stored_capacity(comparability: Mapping[str, Any] | None) -> float | None:
    """The capacity (GiB) the result's comparability stored when it was measured, if it stored one."""
    stored = ((comparability or {}).get("storage") or {}).get("capacity_gib")
    return float(stored) if isinstance(stored, int | float) else None


def _or_none_stored(capacity: float | None) -> float:
    return -1.0 if capacity is None else capacity


def key_of(row: Any) -> Key:
    """The rollup key of a result (anything with the result's columns)."""
    shape = job_shape((row.comparability or {}).get("job") or row.options or {})
    return Key(
        target_id=row.target_id or 0,
        storage_class=row.storage_class or "",
        storage_class_spec_id=row.storage_class_spec_id or 0,
        # -1: none stored (then the target's capacity is read).
        capacity_gib=_or_none_stored(stored_capacity(row.comparability)),
        job_name=row.job_name,
        imported=bool(row.imported),
        rw=shape["rw"],
        bs=shape["bs"],
        iodepth=shape["iodepth"],
        numjobs=shape["numjobs"],
    )


def observations(cpu: Mapping[str, Any] | None, directions: Iterable[Any]) -> list[Observation]:
    """(direction, figure, value) of everything the grouped view can show of one result."""
    found = []
    for name, key in CPU_FIGURES.items():
        value = (cpu or {}).get(key)
        if isinstance(value, int | float):
            found.append((JOB, name, float(value)))
    for d in directions:
        for column in DIRECTION_COLUMNS:
            value = getattr(d, column)
            if value is not None:
                found.append((d.direction, column, float(value)))
    return found


@dataclass
class Acc:
    """n, min, max and the histogram of one rollup row."""

    n: int = 0
    zeros: int = 0
    low: float = math.inf
    high: float = -math.inf
    bins: Counter[int] = field(default_factory=Counter)

    def add(self, value: float) -> None:
        self.n += 1
        self.low = min(self.low, value)
        self.high = max(self.high, value)
        if value > 0:
            self.bins[bin_of(value)] += 1
        else:
            self.zeros += 1

    def merge(
        self, n: int, zeros: int, low: float, high: float, bins: Sequence[int], counts: Sequence[int]
    ) -> None:
        self.n += n
        self.zeros += zeros
        self.low = min(self.low, low)
        self.high = max(self.high, high)
        for b, c in zip(bins, counts, strict=True):
            self.bins[b] += c

    def copy(self) -> "Acc":
        return Acc(n=self.n, zeros=self.zeros, low=self.low, high=self.high, bins=Counter(self.bins))

    def columns(self) -> dict[str, Any]:
        ordered = sorted(b for b, c in self.bins.items() if c)
        return {
            "n": self.n,
            "zeros": self.zeros,
            "low": self.low,
            "high": self.high,
            "bins": ordered,
            "counts": [self.bins[b] for b in ordered],
        }


def accumulate(into: dict[RowKey, Acc], team_id: int, key: Key, obs: Iterable[Observation]) -> None:
    """Add one result's observations under its key."""
    for direction, figure, value in obs:
        into.setdefault((team_id, key, direction, figure), Acc()).add(value)
