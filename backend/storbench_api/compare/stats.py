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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sp

ALPHA = 0.05
MIN_SAMPLES = 3
BOOTSTRAP_RESAMPLES = 2000
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


def _median_ratio(baseline: Samples, other: Samples, axis: int = -1) -> Samples | float:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio: Samples | float = np.median(other, axis=axis) / np.median(baseline, axis=axis)
    return ratio


def ratio_interval(baseline: Samples, other: Samples) -> tuple[float, float] | None:
    """Bootstrap 95 % interval of median(other) / median(baseline) (BCa, else percentile), or None."""
    if float(np.median(baseline)) == 0:
        return None
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = sp.bootstrap(
                    (baseline, other),
                    _median_ratio,
                    vectorized=True,
                    paired=False,
                    n_resamples=BOOTSTRAP_RESAMPLES,
                    confidence_level=CONFIDENCE,
                    method=method,
                    rng=np.random.default_rng(BOOTSTRAP_SEED),
                )
            except (ValueError, ZeroDivisionError, FloatingPointError):
                continue
        low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
        if math.isfinite(low) and math.isfinite(high):
            return low, high
    return None


def _looks_normal(sample: Samples, alpha: float) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = float(sp.shapiro(sample).pvalue)
    return math.isfinite(p) and p > alpha


def _test(baseline: Samples, other: Samples, alpha: float) -> tuple[SignificanceTest, float]:
    if np.ptp(baseline) == 0 and np.ptp(other) == 0:
        return SignificanceTest.no_variation, 1.0 if baseline[0] == other[0] else 0.0
    varied = np.ptp(baseline) > 0 and np.ptp(other) > 0
    if varied and _looks_normal(baseline, alpha) and _looks_normal(other, alpha):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(sp.ttest_ind(baseline, other, equal_var=False).pvalue)
        if math.isfinite(p):
            return SignificanceTest.welch_t, p
    p = float(sp.mannwhitneyu(baseline, other, alternative="two-sided").pvalue)
    return SignificanceTest.mann_whitney_u, p


def smallest_mann_whitney_p(n_baseline: int, n_other: int) -> float:
    """The smallest two-sided p Mann–Whitney U can give for these sizes (every value of one side below)."""
    return min(1.0, 2 / math.comb(n_baseline + n_other, n_baseline))


def _percent(ratio: float) -> str:
    return f"{(ratio - 1) * 100:+.1f} %"


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def compare_samples(baseline: Sequence[float], other: Sequence[float], alpha: float = ALPHA) -> Verdict:
    """The verdict on other against baseline: changed, within noise, or too few repetitions to know."""
    base = np.asarray([x for x in baseline if math.isfinite(x)], dtype=np.float64)
    oth = np.asarray([x for x in other if math.isfinite(x)], dtype=np.float64)
    n_base, n_other = len(base), len(oth)
    ratio: float | None = None
    if n_base and n_other and float(np.median(base)) != 0:
        ratio = float(np.median(oth) / np.median(base))
    if n_base < MIN_SAMPLES or n_other < MIN_SAMPLES:
        shown = "single sample" if min(n_base, n_other) <= 1 else f"{n_other} vs {n_base} samples"
        return Verdict(
            kind=VerdictKind.single_sample,
            n_baseline=n_base,
            n_other=n_other,
            ratio=ratio,
            text=f"{shown} — repeat to know (a test needs {MIN_SAMPLES} repetitions on each side)",
        )
    test, p = _test(base, oth, alpha)
    interval = ratio_interval(base, oth)
    kind = VerdictKind.changed if p < alpha else VerdictKind.within_noise
    effect = "" if ratio is None else f"{_percent(ratio)} (median ratio {ratio:.3f}"
    if ratio is not None:
        effect += f", 95 % CI {interval[0]:.3f}–{interval[1]:.3f})" if interval else ")"
    words = "changed" if kind is VerdictKind.changed else "within noise"
    text = f"{words}: {effect}; {_TEST_WORDS[test]} {_p_text(p)}, n = {n_other} vs {n_base}".replace(
        ": ;", ":"
    )
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


def spread(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """Median, 25th and 75th percentiles, minimum and maximum."""
    data = np.asarray(values, dtype=np.float64)
    p25, median, p75 = (float(x) for x in np.percentile(data, [25, 50, 75]))
    return median, p25, p75, float(data.min()), float(data.max())
