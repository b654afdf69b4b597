"""Where a load curve saturates (its knee), and the highest load that keeps p99 latency under a bound.

The knee is the last point before the curve saturates: the next step raises the figure by less than
5 % while mean latency rises by more than 50 %. Past it, by Little's law (IOPS ≈ in-flight I/Os /
latency), the extra queue only waits: a SATA disk's 4 KiB random writes stay at ~332 IOPS from QD 1
while latency doubles with every step (knee: QD 1); a 12-disk RAID0 climbs to a plateau at QD 4 and
only its latency doubles after (knee: QD 4).
"""

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

# The next step adds less than this share of the figure ...
SATURATED_GAIN = 0.05
# ... while mean latency grows by more than this share: the queue only adds wait.
LATENCY_RISE = 0.50


@dataclass(frozen=True)
class LoadPoint:
    """One point of a load curve: the axis value, the figure there, and its latency (ns)."""

    load: float
    figure: float
    lat_mean_ns: float
    lat_p99_ns: float | None = None


@dataclass(frozen=True)
class Knee:
    """The knee of a curve (value None: none in range, and why)."""

    value: float | None
    reason: str
    # The step past the knee: how much the figure gained and mean latency rose (fractions).
    next_value: float | None = None
    gain: float | None = None
    latency_rise: float | None = None


def find_knee(points: Sequence[LoadPoint]) -> Knee:
    """The last point before saturation, by the 5 % gain / 50 % latency rule."""
    ordered = sorted(points, key=lambda p: p.load)
    if len(ordered) < 2:
        return Knee(None, "a knee needs at least two points on the axis")
    for here, after in itertools.pairwise(ordered):
        if here.figure <= 0 or here.lat_mean_ns <= 0:
            continue
        gain = after.figure / here.figure - 1
        rise = after.lat_mean_ns / here.lat_mean_ns - 1
        if gain < SATURATED_GAIN and rise > LATENCY_RISE:
            return Knee(
                here.load,
                f"from {_num(here.load)} to {_num(after.load)} the figure changes by {gain:+.0%} "
                f"while mean latency rises {rise:+.0%}: past {_num(here.load)} the queue only adds wait",
                next_value=after.load,
                gain=gain,
                latency_rise=rise,
            )
    return Knee(
        None,
        f"no knee between {_num(ordered[0].load)} and {_num(ordered[-1].load)}: no step adds less than "
        f"{SATURATED_GAIN:.0%} to the figure while mean latency rises more than {LATENCY_RISE:.0%} "
        "(the curve may still climb past the range: sweep further)",
    )


def highest_load_under(points: Sequence[LoadPoint], p99_bound_ns: float) -> float | None:
    """The highest load whose p99 latency stays under the bound, every lower load also under it."""
    best: float | None = None
    for point in sorted(points, key=lambda p: p.load):
        if point.lat_p99_ns is None or point.lat_p99_ns > p99_bound_ns:
            break
        best = point.load
    return best


def _num(value: float) -> str:
    return f"{value:g}"
