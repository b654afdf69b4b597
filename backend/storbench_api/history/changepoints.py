"""Change points in a series of benchmark figures: E-divisive means, or a team's threshold.

E-divisive means (Matteson & James, 2014) is what Apache Otava (formerly Hunter) and MongoDB's
signal-processing-algorithms run on performance history. Neither installs beside our pins:
apache-otava 0.8.0 requires numpy==2.2.* and scipy<1.17 (we pin numpy 2.4.6 and scipy 1.17.1) and
pulls google-cloud-bigquery, slack-sdk and pg8000 in; signal-processing-algorithms 2.1.6 is an
sdist requiring numpy<2, gevent and structlog<25. ruptures (the other well-kept change-point
library) has no E-divisive and needs a penalty, i.e. a hand-set threshold. So the statistics come
from SciPy: the significance of each split is `scipy.stats.permutation_test` (one sample,
permuting its order: the null hypothesis "no change anywhere in this window"), and the divergence
is the energy distance of `scipy.stats.energy_distance` (checked against it in the tests), computed
for every split at once from prefix sums of the pairwise distances. As Otava does, the right end of
each candidate segment is the end of the window (no search over kappa).

The team's alternative is a threshold: the last `min_points_after` figures each lie beyond a
percentage of, or a robust z-score (median and MAD) from, what came before.
"""

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

# Fewest figures before a change: a step needs a history to be a step against.
MIN_POINTS_BEFORE = 4
DEFAULT_MIN_POINTS_AFTER = 3
DEFAULT_ALPHA = 0.01
PERMUTATIONS = 999  # smallest reachable p-value: 1/1000
QUICK_PERMUTATIONS = 99

Floats = NDArray[np.float64]


class DetectionMethod(enum.StrEnum):
    """How a team finds changes in its history."""

    e_divisive = "e_divisive"
    percent = "percent"
    zscore = "zscore"


@dataclass(frozen=True, slots=True)
class Policy:
    """A team's detection policy (threshold only for percent and zscore)."""

    method: DetectionMethod = DetectionMethod.e_divisive
    threshold: float | None = None
    min_points_after: int = DEFAULT_MIN_POINTS_AFTER
    alpha: float = DEFAULT_ALPHA


@dataclass(frozen=True, slots=True)
class Change:
    """A change found at `index`: the first figure of the new level."""

    index: int
    before_median: float
    after_median: float
    p_value: float | None
    method: str

    @property
    def ratio(self) -> float:
        """after / before (inf when the level was 0)."""
        return self.after_median / self.before_median if self.before_median else float("inf")


def _split_statistics(series: Floats, min_before: int, min_after: int) -> Floats:
    """q-hat of every split tau (left [0, tau), right [tau, n)) for a batch of series (..., n).

    q-hat(tau) = m k / (m + k) * D^2(left, right), D^2 being SciPy's energy distance squared
    (2 E|X-Y| - E|X-X'| - E|Y-Y'|, the V-statistic). Splits outside [min_before, n - min_after]
    are -inf.
    """
    n = series.shape[-1]
    distances = np.abs(series[..., :, None] - series[..., None, :])
    prefix = distances.cumsum(axis=-1).cumsum(axis=-2)  # prefix[i, j] = sum over [0..i] x [0..j]
    total = prefix[..., -1, -1]
    taus = np.arange(1, n)
    within_left = prefix[..., taus - 1, taus - 1]
    rows_left = prefix[..., taus - 1, -1]  # rows [0, tau) against every column
    cross = rows_left - within_left
    within_right = total[..., None] - within_left - 2 * cross
    m = taus.astype(np.float64)
    k = (n - taus).astype(np.float64)
    energy = 2 * cross / (m * k) - within_left / (m * m) - within_right / (k * k)
    q = (m * k / (m + k)) * energy
    allowed = (taus >= min_before) & (n - taus >= min_after)
    return np.where(allowed, q, -np.inf)


def best_split(series: Floats, min_before: int, min_after: int) -> tuple[int, float]:
    """The split maximising q-hat, and its value (index -1 when no split is allowed)."""
    q = _split_statistics(series, min_before, min_after)
    if not np.isfinite(q).any():
        return -1, -np.inf
    best = int(np.argmax(q))
    return best + 1, float(q[best])


def _split_p_value(series: Floats, min_before: int, min_after: int, seed: int, alpha: float) -> float:
    """p-value of the best split under 'no change in this window' (the order permuted).

    A first pass of few permutations settles the clear cases (Besag and Clifford's sequential idea):
    only a split that may be significant pays for the full test.
    """

    def statistic(values: Floats, axis: int = -1) -> Floats:
        moved = np.moveaxis(values, axis, -1)
        return np.asarray(_split_statistics(moved, min_before, min_after).max(axis=-1))

    p_value = 1.0
    for resamples in (QUICK_PERMUTATIONS, PERMUTATIONS):
        result = stats.permutation_test(
            (series,),
            statistic,
            permutation_type="pairings",
            vectorized=True,
            n_resamples=resamples,
            alternative="greater",
            batch=100,
            rng=np.random.default_rng(seed),
        )
        p_value = float(result.pvalue)
        if p_value > max(5 * alpha, 0.05):
            break
    return p_value


def e_divisive(series: Floats, *, min_after: int, alpha: float, seed: int = 0) -> dict[int, float]:
    """Indices where a new level starts (with their p-values), by bisection while splits are significant."""
    found: dict[int, float] = {}
    pending = [(0, len(series))]
    while pending:
        start, end = pending.pop()
        segment = series[start:end]
        if len(segment) < MIN_POINTS_BEFORE + min_after or np.ptp(segment) == 0:
            continue
        tau, _ = best_split(segment, MIN_POINTS_BEFORE, min_after)
        if tau < 0:
            continue
        p_value = _split_p_value(segment, MIN_POINTS_BEFORE, min_after, seed + start, alpha)
        if p_value > alpha:
            continue
        found[start + tau] = p_value
        # Segments on either side may hold further changes; inner ones need no history minimum
        # beyond what a split itself asks.
        pending.extend([(start, start + tau), (start + tau, end)])
    return dict(sorted(found.items()))


def _describe(series: Floats, p_values: dict[int, float], method: str) -> list[Change]:
    indices = list(p_values)
    bounds = [0, *indices, len(series)]
    changes = []
    for position, index in enumerate(indices):
        before = series[bounds[position] : index]
        after = series[index : bounds[position + 2]]
        changes.append(
            Change(
                index=index,
                before_median=float(np.median(before)),
                after_median=float(np.median(after)),
                p_value=p_values.get(index),
                method=method,
            )
        )
    return changes


def _threshold_change(series: Floats, policy: Policy) -> list[Change]:
    """A change at the last min_points_after figures when each lies beyond the team's threshold."""
    after_count = policy.min_points_after
    if policy.threshold is None or len(series) < MIN_POINTS_BEFORE + after_count:
        return []
    before, after = series[:-after_count], series[-after_count:]
    centre = float(np.median(before))
    if policy.method == DetectionMethod.percent:
        if centre == 0:
            return []
        deviation = (after - centre) / abs(centre) * 100
    else:
        spread = float(stats.median_abs_deviation(before, scale="normal"))
        if spread == 0:
            return []
        deviation = (after - centre) / spread
    beyond_up = bool(np.all(deviation >= policy.threshold))
    beyond_down = bool(np.all(deviation <= -policy.threshold))
    if not (beyond_up or beyond_down):
        return []
    index = len(series) - after_count
    return [
        Change(
            index=index,
            before_median=centre,
            after_median=float(np.median(after)),
            p_value=None,
            method=f"{policy.method.value}>={policy.threshold:g}",
        )
    ]


def find_changes(values: list[float], policy: Policy, *, seed: int = 0) -> list[Change]:
    """Changes in values (oldest first) by the team's policy; each with its medians either side."""
    series = np.asarray(values, dtype=np.float64)
    if policy.method != DetectionMethod.e_divisive:
        return _threshold_change(series, policy)
    found = e_divisive(series, min_after=policy.min_points_after, alpha=policy.alpha, seed=seed)
    return _describe(series, found, "e-divisive")


def as_jsonable(change: Change) -> dict[str, Any]:
    """A change as plain JSON."""
    return {
        "index": change.index,
        "before_median": change.before_median,
        "after_median": change.after_median,
        "ratio": change.ratio,
        "p_value": change.p_value,
        "method": change.method,
    }
