"""Change points on generated series: known steps with noise, outliers, successive steps."""

import numpy as np
import pytest
from scipy import stats

from storbench_api.history.changepoints import DetectionMethod, Policy, _split_statistics, find_changes

# A found change counts for a true one within this many points of it.
TOLERANCE = 2


def _series(kind: str, seed: int, noise: float = 0.05) -> tuple[list[float], list[int]]:
    """A generated series of IOPS around 10,000 with `noise` relative spread, and its true changes."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 80))
    level = np.full(n, 10_000.0)
    truth: list[int] = []
    if kind == "step":
        at = int(rng.integers(10, n - 5))
        level[at:] *= rng.choice([0.7, 0.8, 1.25, 1.4])
        truth = [at]
    elif kind == "two_steps":
        first = int(rng.integers(10, n // 2 - 4))
        second = int(rng.integers(first + 8, n - 4))
        level[first:] *= 0.8
        level[second:] *= 0.8
        truth = [first, second]
    elif kind == "outlier":
        level[int(rng.integers(5, n))] *= rng.choice([0.4, 2.0])
    values = level * (1 + rng.normal(0, noise, n))
    return [float(v) for v in values], truth


def _score(found: list[int], truth: list[int]) -> tuple[int, int, int]:
    """True positives, false positives, false negatives."""
    matched: set[int] = set()
    tp = fp = 0
    for index in found:
        near = [t for t in truth if abs(t - index) <= TOLERANCE and t not in matched]
        if near:
            matched.add(near[0])
            tp += 1
        else:
            fp += 1
    return tp, fp, len(truth) - len(matched)


def test_the_split_statistic_is_scipys_energy_distance_scaled() -> None:
    values = np.random.default_rng(3).normal(100, 5, 24)
    q = _split_statistics(values, 1, 1)
    for tau in (2, 9, 17):
        m, k = tau, len(values) - tau
        expected = m * k / (m + k) * stats.energy_distance(values[:tau], values[tau:]) ** 2
        assert q[tau - 1] == pytest.approx(expected, rel=1e-9)


def test_a_clear_step_is_found_where_it_is_with_its_medians() -> None:
    values = [1000.0 + (i % 3) for i in range(20)] + [700.0 + (i % 3) for i in range(8)]
    (change,) = find_changes(values, Policy())
    assert change.index == 20
    assert change.before_median == pytest.approx(1001)
    assert change.after_median == pytest.approx(701)
    assert change.p_value is not None and change.p_value <= 0.01


def test_a_single_outlier_is_not_a_change() -> None:
    rng = np.random.default_rng(11)
    values = list(10_000 * (1 + rng.normal(0, 0.03, 40)))
    values[25] = 3_000.0
    assert find_changes(values, Policy()) == []
    values[-1] = 3_000.0  # the newest result alone: not (yet) a change either
    assert find_changes(values, Policy()) == []


def test_a_flat_or_short_series_has_no_change() -> None:
    assert find_changes([5.0] * 30, Policy()) == []
    assert find_changes([5.0, 9.0, 1.0], Policy()) == []


@pytest.mark.parametrize(("noise", "floor"), [(0.05, 0.95), (0.10, 0.8)])
def test_precision_and_recall_over_generated_series(
    capsys: pytest.CaptureFixture[str], noise: float, floor: float
) -> None:
    """100 series (fixed seeds): 25 flat, 25 with one step, 25 with two steps, 25 with an outlier."""
    tp = fp = fn = 0
    per_kind: dict[str, tuple[int, int, int]] = {}
    for kind in ("none", "step", "two_steps", "outlier"):
        k_tp = k_fp = k_fn = 0
        for seed in range(25):
            values, truth = _series(kind, seed=1000 * len(kind) + seed, noise=noise)
            found = [c.index for c in find_changes(values, Policy())]
            a, b, c = _score(found, truth)
            k_tp, k_fp, k_fn = k_tp + a, k_fp + b, k_fn + c
        per_kind[kind] = (k_tp, k_fp, k_fn)
        tp, fp, fn = tp + k_tp, fp + k_fp, fn + k_fn
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    with capsys.disabled():
        print(
            f"\nchange points, 100 generated series ({noise:.0%} noise, steps of 20-40%, "
            f"found within {TOLERANCE} points): precision {precision:.3f}, recall {recall:.3f}"
        )
        for kind, (a, b, c) in per_kind.items():
            print(f"  {kind:<10} tp={a} fp={b} fn={c}")
    assert per_kind["outlier"][1] == 0, "a single outlier was flagged"
    assert per_kind["none"][1] == 0, "a flat series was flagged"
    assert per_kind["step"][1] == 0, "a single step was found twice or in the wrong place"
    assert precision >= floor
    assert recall >= floor


def test_a_percent_threshold_flags_the_last_results_beyond_it() -> None:
    history = [1000.0, 1010.0, 990.0, 1005.0, 995.0, 1000.0]
    policy = Policy(method=DetectionMethod.percent, threshold=10, min_points_after=2)
    assert find_changes([*history, 950.0, 940.0], policy) == []
    (change,) = find_changes([*history, 850.0, 860.0], policy)
    assert change.index == len(history)
    assert change.after_median == 855.0
    # One result beyond the threshold is not enough when two are asked for.
    assert find_changes([*history, 1000.0, 700.0], policy) == []


def test_a_zscore_threshold_uses_a_robust_spread() -> None:
    history = [1000.0, 1010.0, 990.0, 1005.0, 995.0, 1000.0, 5000.0]  # one wild value in the history
    policy = Policy(method=DetectionMethod.zscore, threshold=3, min_points_after=1)
    assert find_changes([*history, 1020.0], policy) == []
    (change,) = find_changes([*history, 900.0], policy)
    assert change.index == len(history)
