"""Steady state by the SNIA PTS rule, on a series of rounds (per-second samples or repeated points).

Over a measurement window of 5 rounds a figure is steady when its range (max − min) is at most 20 %
of its mean and its least-squares line moves at most 10 % of the mean across the window (the fit's
excursion, slope × (rounds − 1), as the PTS writes it). The first such window is where steady state
was reached; what was measured before it is not steady.
"""

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW_ROUNDS = 5
MAX_RANGE_SHARE = 0.20
MAX_EXCURSION_SHARE = 0.10


@dataclass(frozen=True)
class SteadyState:
    """Whether a series reached steady state, the window where it did, and why (or why not)."""

    reached: bool
    # The first round of the first steady window (0-based), None when never reached.
    start: int | None
    reason: str
    # Range and fit excursion as shares of the mean: of the steady window, else of the last window
    # measured (None: fewer rounds than a window).
    range_share: float | None = None
    excursion_share: float | None = None


def least_squares_slope(values: Sequence[float]) -> float:
    """The slope of the least-squares line through (0, v0), (1, v1), …"""
    n = len(values)
    if n < 2:
        return 0.0
    mean_x = (n - 1) / 2
    mean_y = sum(values) / n
    num = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values))
    den = sum((x - mean_x) ** 2 for x in range(n))
    return num / den


def window_shares(window: Sequence[float]) -> tuple[float, float] | None:
    """The window's range and fit excursion as shares of its mean (None: a mean of zero or less)."""
    mean = sum(window) / len(window)
    if mean <= 0:
        return None
    spread = max(window) - min(window)
    excursion = abs(least_squares_slope(window)) * (len(window) - 1)
    return spread / mean, excursion / mean


def window_is_steady(window: Sequence[float]) -> bool:
    """True when the window's range and fit excursion are within the PTS limits of its mean."""
    shares = window_shares(window)
    return shares is not None and shares[0] <= MAX_RANGE_SHARE and shares[1] <= MAX_EXCURSION_SHARE


def find_steady_state(values: Sequence[float], window: int = WINDOW_ROUNDS) -> SteadyState:
    """The first window of `window` rounds in which the series is steady."""
    if len(values) < window:
        return SteadyState(False, None, f"{len(values)} rounds; steady state needs a window of {window}")
    for start in range(len(values) - window + 1):
        if window_is_steady(values[start : start + window]):
            range_share, excursion_share = window_shares(values[start : start + window]) or (0.0, 0.0)
            return SteadyState(
                True,
                start,
                f"steady from round {start + 1} (rounds {start + 1}–{start + window}: range "
                f"{range_share:.0%}, trend {excursion_share:.0%} of the mean)",
                range_share,
                excursion_share,
            )
    last = window_shares(values[-window:])
    measured = (
        f"; the last {window} rounds ranged {last[0]:.0%} and trended {last[1]:.0%} of their mean"
        if last
        else ""
    )
    return SteadyState(
        False,
        None,
        f"no window of {window} rounds kept its range within {MAX_RANGE_SHARE:.0%} and its trend within "
        f"{MAX_EXCURSION_SHARE:.0%} of its mean{measured}",
        last[0] if last else None,
        last[1] if last else None,
    )
