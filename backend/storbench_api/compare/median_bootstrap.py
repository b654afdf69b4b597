"""The bootstrap interval of a ratio of medians: the fallback for figures that cannot take a log.

Fixed seed: the same samples always give the same interval.
"""

import math
import warnings
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sp

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261123
CONFIDENCE = 0.95

Samples = NDArray[np.float64]

# Rows this short are sorted by a comparator network, longer ones by np.sort.
_NETWORK_MAX = 16


def _order_statistics(values: Samples, axis: int = -1) -> list[Samples]:
    """values sorted along axis, as one array per rank (smallest first): the same values as np.sort.

    The bootstrap's resamples are many short rows (thousands per figure, one value per repetition),
    where np.sort pays its per-row overhead 100,000 times. An odd–even transposition network
    (compare and swap neighbouring ranks, n passes) instead swaps whole ranks of every row at once.
    """
    ranks = np.moveaxis(np.asarray(values, dtype=np.float64), axis, 0)
    n = ranks.shape[0]
    if n > _NETWORK_MAX or not np.isfinite(ranks).all():
        return list(np.sort(ranks, axis=0))
    ordered = [np.array(rank) for rank in ranks]
    for p in range(n):
        for i in range(p % 2, n - 1, 2):
            low, high = ordered[i], ordered[i + 1]
            ordered[i], ordered[i + 1] = np.minimum(low, high), np.maximum(low, high)
    return ordered


def _median(values: Samples, axis: int = -1) -> Samples:
    """The median by sorting (_order_statistics): faster than np.median on the bootstrap's short rows."""
    ordered = _order_statistics(values, axis)
    n = len(ordered)
    middle = ordered[n // 2]
    if n % 2:
        return middle
    below = ordered[n // 2 - 1]
    median: Samples = (below + middle) / 2
    return median


def _median_ratio(baseline: Samples, other: Samples, axis: int = -1) -> Samples:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio: Samples = _median(other, axis) / _median(baseline, axis)
    return ratio


def _bootstrap(
    baseline: Samples, other: Samples, method: str, earlier: Any = None
) -> tuple[Samples, Samples, Any]:
    """The interval's bounds per row, and the bootstrap result (None when it failed).

    With earlier (a result of the same samples), its resamples are reused rather than drawn again:
    the fixed seed would draw the very same ones.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = sp.bootstrap(
                (baseline, other),
                _median_ratio,
                vectorized=True,
                paired=False,
                axis=-1,
                n_resamples=0 if earlier is not None else BOOTSTRAP_RESAMPLES,
                bootstrap_result=earlier,
                confidence_level=CONFIDENCE,
                method=method,
                rng=np.random.default_rng(BOOTSTRAP_SEED),
            )
        except (ValueError, ZeroDivisionError, FloatingPointError):
            nan = np.full(baseline.shape[:-1], np.nan)
            return nan, nan, None
    low, high = result.confidence_interval.low, result.confidence_interval.high
    return np.asarray(low), np.asarray(high), result


def ratio_intervals(baseline: Samples, other: Samples) -> list[tuple[float, float] | None]:
    """Per row, the bootstrap 95 % interval of median(other) / median(baseline) (BCa, else percentile).

    Rows are figures (2-D arrays, one row per figure): one bootstrap for all of them. The
    resamples are drawn once per row and shared by both methods.
    """
    low, high, drawn = _bootstrap(baseline, other, "BCa")
    if not (np.isfinite(low).all() and np.isfinite(high).all()):
        again_low, again_high, _ = _bootstrap(baseline, other, "percentile", drawn)
        redo = ~(np.isfinite(low) & np.isfinite(high))
        low, high = np.where(redo, again_low, low), np.where(redo, again_high, high)
    zero_base = np.median(baseline, axis=-1) == 0
    return [
        None if zero or not (math.isfinite(lo) and math.isfinite(hi)) else (float(lo), float(hi))
        for lo, hi, zero in zip(low.tolist(), high.tolist(), zero_base.tolist(), strict=True)
    ]
