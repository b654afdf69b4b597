"""Is a difference real? Significance of two sets of repetitions, and the effect size with its interval.

With at least three repetitions on each side: Welch's t-test when both samples look normal
(Shapiro–Wilk at the same alpha), else Mann–Whitney U; "changed" below alpha, else "within noise".
The effect size is the ratio of medians (other / baseline) with a bootstrap 95 % confidence interval
(fixed seed: the same samples always give the same interval). Fewer repetitions cannot tell a change
from noise, and the verdict says so.
"""

import enum
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sp

ALPHA = 0.05
MIN_SAMPLES = 3
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20261123
CONFIDENCE = 0.95

Samples = NDArray[np.float64]


class VerdictKind(enum.StrEnum):
    """What the test concluded."""

    changed = "changed"
    within_noise = "within_noise"
    single_sample = "single_sample"


class SignificanceTest(enum.StrEnum):
    """The test that decided."""

    welch_t = "welch_t"
    mann_whitney_u = "mann_whitney_u"
    no_variation = "no_variation"


_TEST_WORDS = {
    SignificanceTest.welch_t: "Welch's t-test",
    SignificanceTest.mann_whitney_u: "Mann–Whitney U",
    SignificanceTest.no_variation: "no variation in either sample",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Changed or within noise, by which test, with p-value and the ratio of medians with its interval."""

    kind: VerdictKind
    n_baseline: int
    n_other: int
    ratio: float | None
    test: SignificanceTest | None = None
    p_value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    text: str = ""


# Rows this short are sorted by a comparator network, longer ones by np.sort.
_NETWORK_MAX = 16


def _order_statistics(values: Samples, axis: int = -1) -> list[Samples]:
    """values sorted along axis, as one array per rank (smallest first): the same values as np.sort.

    The bootstrap's resamples are many short rows (1000 per figure, one value per repetition),
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


def ratio_interval(baseline: Samples, other: Samples) -> tuple[float, float] | None:
    """Bootstrap 95 % interval of median(other) / median(baseline), or None."""
    return ratio_intervals(np.atleast_2d(baseline), np.atleast_2d(other))[0]


def _ignoring_warnings(test: Callable[[], Any]) -> Samples:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.atleast_1d(np.asarray(test(), dtype=np.float64))


def _tests(baseline: Samples, other: Samples, alpha: float) -> list[tuple[SignificanceTest, float]]:
    """Per row: Welch's t where both rows look normal (Shapiro–Wilk), else Mann–Whitney U."""
    base_varied, other_varied = np.ptp(baseline, axis=-1) > 0, np.ptp(other, axis=-1) > 0
    normal = base_varied & other_varied
    if normal.any():
        normal &= _ignoring_warnings(lambda: sp.shapiro(baseline, axis=-1).pvalue) > alpha
        normal &= _ignoring_warnings(lambda: sp.shapiro(other, axis=-1).pvalue) > alpha
    welch = (
        _ignoring_warnings(lambda: sp.ttest_ind(baseline, other, axis=-1, equal_var=False).pvalue)
        if normal.any()
        else np.full(len(baseline), np.nan)
    )
    ranks = _ignoring_warnings(
        lambda: sp.mannwhitneyu(baseline, other, axis=-1, alternative="two-sided").pvalue
    )
    found = []
    for i in range(len(baseline)):
        if not base_varied[i] and not other_varied[i]:
            found.append((SignificanceTest.no_variation, 1.0 if baseline[i][0] == other[i][0] else 0.0))
        elif normal[i] and math.isfinite(welch[i]):
            found.append((SignificanceTest.welch_t, float(welch[i])))
        else:
            found.append((SignificanceTest.mann_whitney_u, float(ranks[i])))
    return found


def smallest_mann_whitney_p(n_baseline: int, n_other: int) -> float:
    """The smallest two-sided p Mann–Whitney U can give for these sizes (every value of one side below)."""
    return min(1.0, 2 / math.comb(n_baseline + n_other, n_baseline))


def _percent(ratio: float) -> str:
    return f"{(ratio - 1) * 100:+.1f} %"


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _ratio(baseline: Samples, other: Samples) -> float | None:
    base = float(np.median(baseline)) if len(baseline) else 0.0
    return float(np.median(other)) / base if base != 0 and len(other) else None


def _ratios(baseline: Samples, other: Samples) -> list[float | None]:
    """_ratio of each row, with one median call per side."""
    if baseline.shape[1] == 0 or other.shape[1] == 0:
        return [_ratio(b, o) for b, o in zip(baseline, other, strict=True)]
    bases, others = np.median(baseline, axis=-1).tolist(), np.median(other, axis=-1).tolist()
    return [o / b if b != 0 else None for b, o in zip(bases, others, strict=True)]


def _too_few(n_base: int, n_other: int, ratio: float | None) -> Verdict:
    shown = "single sample" if min(n_base, n_other) <= 1 else f"{n_other} vs {n_base} samples"
    return Verdict(
        kind=VerdictKind.single_sample,
        n_baseline=n_base,
        n_other=n_other,
        ratio=ratio,
        text=f"{shown} — repeat to know (a test needs {MIN_SAMPLES} repetitions on each side)",
    )


def _verdict(
    n_base: int,
    n_other: int,
    ratio: float | None,
    test: SignificanceTest,
    p: float,
    interval: tuple[float, float] | None,
    alpha: float,
) -> Verdict:
    kind = VerdictKind.changed if p < alpha else VerdictKind.within_noise
    words = "changed" if kind is VerdictKind.changed else "within noise"
    effect = ""
    if ratio is not None:
        ci = f", 95 % CI {interval[0]:.3f}–{interval[1]:.3f}" if interval else ""
        effect = f" {_percent(ratio)} (median ratio {ratio:.3f}{ci});"
    text = f"{words}:{effect} {_TEST_WORDS[test]} {_p_text(p)}, n = {n_other} vs {n_base}"
    if (
        kind is VerdictKind.within_noise
        and test is SignificanceTest.mann_whitney_u
        and smallest_mann_whitney_p(n_base, n_other) >= alpha
    ):
        text += f" (with {n_other} and {n_base} samples this test cannot reach p < {alpha}: repeat more)"
    return Verdict(
        kind=kind,
        n_baseline=n_base,
        n_other=n_other,
        ratio=ratio,
        test=test,
        p_value=p,
        ci_low=interval[0] if interval else None,
        ci_high=interval[1] if interval else None,
        text=text,
    )


def compare_many(
    baseline: Sequence[Sequence[float]], other: Sequence[Sequence[float]], alpha: float = ALPHA
) -> list[Verdict]:
    """compare_samples for several figures at once: row i of other against row i of baseline.

    Every row of baseline has the same length, as has every row of other (the repetitions of a
    side); the tests and the bootstrap then run once for all rows.
    """
    base = np.asarray(baseline, dtype=np.float64).reshape(len(baseline), -1)
    oth = np.asarray(other, dtype=np.float64).reshape(len(other), -1)
    n_base, n_other = base.shape[1], oth.shape[1]
    ratios = _ratios(base, oth)
    if n_base < MIN_SAMPLES or n_other < MIN_SAMPLES:
        return [_too_few(n_base, n_other, r) for r in ratios]
    tests = _tests(base, oth, alpha)
    intervals = ratio_intervals(base, oth)
    return [
        _verdict(n_base, n_other, r, test, p, interval, alpha)
        for r, (test, p), interval in zip(ratios, tests, intervals, strict=True)
    ]


def compare_samples(baseline: Sequence[float], other: Sequence[float], alpha: float = ALPHA) -> Verdict:
    """The verdict on other against baseline: changed, within noise, or too few repetitions to know."""
    base = [x for x in baseline if math.isfinite(x)]
    oth = [x for x in other if math.isfinite(x)]
    if not base or not oth or len(base) < MIN_SAMPLES or len(oth) < MIN_SAMPLES:
        return _too_few(len(base), len(oth), _ratio(np.asarray(base), np.asarray(oth)))
    return compare_many([base], [oth], alpha)[0]


def spread(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """Median, 25th and 75th percentiles, minimum and maximum."""
    data = np.asarray(values, dtype=np.float64)
    p25, median, p75 = (float(x) for x in np.percentile(data, [25, 50, 75]))
    return median, p25, p75, float(data.min()), float(data.max())
