"""Is a difference real? Significance of two sets of repetitions, and the ratio with its interval.

Storage figures vary by a factor rather than by an amount (a latency or an IOPS figure is
near-lognormal), so with positive values on both sides the test is Welch's t-test on the logs and
the interval is its t-interval, turned back into a ratio of geometric means: the verdict says
"changed" exactly when that interval excludes 1, and both stay exact with two or three
repetitions, where a rank test cannot reach p < 0.05 at all (3 vs 3: its smallest p is 0.1).
Measured against known truth by bench/stats_truth.py.

A difference the test could not resolve is "can't tell: repeat", not "noise": only an interval
inside ±NO_CHANGE_WITHIN says there was no change worth the name. Values that cannot take a log
(zero or negative) fall back to Mann–Whitney U with a bootstrap interval of the ratio of medians.
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

from storbench_api.compare.median_bootstrap import CONFIDENCE, ratio_intervals

ALPHA = 0.05
# Repetitions a side needs for a spread, hence for a test or an interval.
MIN_SAMPLES = 2
# An interval inside 1 ± this is "no change": smaller differences are not worth a storage engineer's time.
NO_CHANGE_WITHIN = 0.05

Samples = NDArray[np.float64]


class VerdictKind(enum.StrEnum):
    """What the comparison can say, in the user's words."""

    better = "better"
    worse = "worse"
    no_change = "no_change"
    cant_tell = "cant_tell"
    too_few = "too_few"


class SignificanceTest(enum.StrEnum):
    """The test that decided."""

    welch_t_log = "welch_t_log"
    mann_whitney_u = "mann_whitney_u"
    no_variation = "no_variation"


_TEST_WORDS = {
    SignificanceTest.welch_t_log: "Welch's t-test on log values",
    SignificanceTest.mann_whitney_u: "Mann–Whitney U",
    SignificanceTest.no_variation: "no test (no variation in either sample)",
}

_KIND_WORDS = {
    VerdictKind.better: "better",
    VerdictKind.worse: "worse",
    VerdictKind.no_change: "no change",
    VerdictKind.cant_tell: "can't tell",
    VerdictKind.too_few: "too few on one side",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Better, worse, no change or can't tell, by which test and why, with p and the ratio's interval."""

    kind: VerdictKind
    n_baseline: int
    n_other: int
    ratio: float | None
    test: SignificanceTest | None = None
    test_reason: str = ""
    p_value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    text: str = ""


def _ignoring_warnings(test: Callable[[], Any]) -> Samples:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.atleast_1d(np.asarray(test(), dtype=np.float64))


@dataclass(frozen=True, slots=True)
class _Estimate:
    """One row's ratio, p-value (None: no test) and 95 % interval (None: not known)."""

    ratio: float | None
    p: float | None
    interval: tuple[float, float] | None


def _log_welch(baseline: Samples, other: Samples) -> list[_Estimate]:
    """Per row: Welch's t on log values; the ratio of geometric means and its t-interval.

    Rows have positive values and at least two per side; a side without spread is allowed (its
    variance is 0), both sides without spread are not (no_variation handles them).
    """
    logs_base, logs_other = np.log(baseline), np.log(other)
    n_base, n_other = baseline.shape[1], other.shape[1]
    shift = logs_other.mean(axis=1) - logs_base.mean(axis=1)
    share_base = logs_base.var(axis=1, ddof=1) / n_base
    share_other = logs_other.var(axis=1, ddof=1) / n_other
    error = np.sqrt(share_base + share_other)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (share_base + share_other) ** 2 / (share_base**2 / (n_base - 1) + share_other**2 / (n_other - 1))
        p = 2 * sp.t.sf(np.abs(shift / error), df)
    reach = sp.t.ppf(0.5 + CONFIDENCE / 2, df) * error
    return [
        _Estimate(math.exp(d), float(pv), (math.exp(d - r), math.exp(d + r)))
        for d, pv, r in zip(shift.tolist(), p.tolist(), reach.tolist(), strict=True)
    ]


def _one_against_many(single: Samples, many: Samples) -> tuple[float, float] | None:
    """With one repetition on a side: the interval of log(single / many) borrowing the other side's spread."""
    if len(many) < 2 or (single <= 0).any() or (many <= 0).any():
        return None
    logs = np.log(many)
    shift = float(np.log(single).mean() - logs.mean())
    error = float(logs.std(ddof=1)) * math.sqrt(1 / len(single) + 1 / len(many))
    reach = float(sp.t.ppf(0.5 + CONFIDENCE / 2, len(many) - 1)) * error
    return math.exp(shift - reach), math.exp(shift + reach)


def _rank_test(baseline: Samples, other: Samples) -> list[_Estimate]:
    """Per row: Mann–Whitney U, and the bootstrap interval of the ratio of medians."""
    p = _ignoring_warnings(lambda: sp.mannwhitneyu(baseline, other, axis=-1, alternative="two-sided").pvalue)
    intervals = ratio_intervals(baseline, other)
    ratios = _ratios(baseline, other)
    return [_Estimate(r, float(pv), ci) for r, pv, ci in zip(ratios, p.tolist(), intervals, strict=True)]


def _estimates(baseline: Samples, other: Samples) -> list[tuple[SignificanceTest, _Estimate]]:
    """Per row, the test that fits its values and what it found."""
    positive = (baseline > 0).all(axis=1) & (other > 0).all(axis=1)
    varied = (np.ptp(baseline, axis=1) > 0) | (np.ptp(other, axis=1) > 0)
    by_logs, by_ranks = positive & varied, ~positive & varied
    logs = iter(_log_welch(baseline[by_logs], other[by_logs]) if by_logs.any() else [])
    ranks = iter(_rank_test(baseline[by_ranks], other[by_ranks]) if by_ranks.any() else [])
    found = []
    for i in range(len(baseline)):
        if by_logs[i]:
            found.append((SignificanceTest.welch_t_log, next(logs)))
        elif by_ranks[i]:
            found.append((SignificanceTest.mann_whitney_u, next(ranks)))
        else:
            base, oth = float(baseline[i][0]), float(other[i][0])
            ratio = oth / base if base != 0 else None
            exact = (ratio, ratio) if ratio is not None else None
            same = _Estimate(ratio, 1.0 if base == oth else 0.0, exact)
            found.append((SignificanceTest.no_variation, same))
    return found


def smallest_mann_whitney_p(n_baseline: int, n_other: int) -> float:
    """The smallest two-sided p Mann–Whitney U can give for these sizes (every value of one side below)."""
    return min(1.0, 2 / math.comb(n_baseline + n_other, n_baseline))


def _test_reason(test: SignificanceTest, n_base: int, n_other: int, alpha: float) -> str:
    """Why this test: shown beside the verdict, so a reader can judge it."""
    ranks_blind = smallest_mann_whitney_p(n_base, n_other) >= alpha
    if test is SignificanceTest.no_variation:
        return "every repetition on both sides gave the same value"
    if test is SignificanceTest.mann_whitney_u:
        reason = "some values are zero or negative, so logs cannot be taken: a rank test, bootstrap interval"
        return reason + (
            f"; it cannot reach p < {alpha} at n = {_sizes(n_base, n_other)}" if ranks_blind else ""
        )
    reason = "storage figures vary by a factor, so log values; Welch's form lets the sides spread differently"
    return reason + (
        f"; a rank test cannot reach p < {alpha} at n = {_sizes(n_base, n_other)}" if ranks_blind else ""
    )


def _sizes(n_base: int, n_other: int) -> str:
    return str(n_base) if n_base == n_other else f"{n_other} vs {n_base}"


def _percent(ratio: float) -> str:
    return f"{(ratio - 1) * 100:+.1f} %"


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _effect(ratio: float | None, interval: tuple[float, float] | None) -> str:
    if ratio is None:
        return "ratio unknown (a zero baseline)"
    ci = f", 95 % CI {interval[0]:.3f}–{interval[1]:.3f}" if interval else ""
    return f"{_percent(ratio)} (ratio {ratio:.3f}{ci})"


def _ratio(baseline: Samples, other: Samples) -> float | None:
    base = float(np.median(baseline)) if len(baseline) else 0.0
    return float(np.median(other)) / base if base != 0 and len(other) else None


def _ratios(baseline: Samples, other: Samples) -> list[float | None]:
    """The ratio of medians of each row, with one median call per side."""
    if baseline.shape[1] == 0 or other.shape[1] == 0:
        return [_ratio(b, o) for b, o in zip(baseline, other, strict=True)]
    bases, others = np.median(baseline, axis=-1).tolist(), np.median(other, axis=-1).tolist()
    return [o / b if b != 0 else None for b, o in zip(bases, others, strict=True)]


def _too_few(baseline: Samples, other: Samples) -> Verdict:
    """One repetition on a side: no test, but the ratio and, where the other side spreads, its interval."""
    n_base, n_other = len(baseline), len(other)
    interval = _one_against_many(other, baseline) if n_other < n_base else _one_against_many(baseline, other)
    if interval is not None and n_other > n_base:
        interval = (1 / interval[1], 1 / interval[0])
    positive = n_base > 0 and n_other > 0 and bool((baseline > 0).all() and (other > 0).all())
    ratio = (
        float(np.exp(np.log(other).mean() - np.log(baseline).mean())) if positive else _ratio(baseline, other)
    )
    fewer = min(n_base, n_other)
    reason = f"{fewer or 'no'} repetition{'' if fewer == 1 else 's'} on a side: no spread to test against"
    if interval is not None:
        reason += f"; the interval assumes the spread of the side with {max(n_base, n_other)}"
    return Verdict(
        kind=VerdictKind.too_few,
        n_baseline=n_base,
        n_other=n_other,
        ratio=ratio,
        test_reason=reason,
        ci_low=interval[0] if interval else None,
        ci_high=interval[1] if interval else None,
        text=f"too few on one side (n = {n_other} vs {n_base}): repeat — {_effect(ratio, interval)}",
    )


def _kind(estimate: _Estimate, higher_is_better: bool, alpha: float) -> VerdictKind:
    ratio, p, interval = estimate.ratio, estimate.p, estimate.interval
    if p is not None and p < alpha and ratio is not None and ratio != 1:
        return VerdictKind.better if (ratio > 1) == higher_is_better else VerdictKind.worse
    if (
        interval is not None
        and interval[0] >= 1 / (1 + NO_CHANGE_WITHIN)
        and interval[1] <= 1 + NO_CHANGE_WITHIN
    ):
        return VerdictKind.no_change
    return VerdictKind.cant_tell


def _verdict(
    n_base: int,
    n_other: int,
    test: SignificanceTest,
    estimate: _Estimate,
    higher_is_better: bool,
    alpha: float,
) -> Verdict:
    kind = _kind(estimate, higher_is_better, alpha)
    words = _KIND_WORDS[kind]
    if kind is VerdictKind.cant_tell:
        words = f"can't tell at n = {_sizes(n_base, n_other)}: repeat"
    elif kind is VerdictKind.no_change:
        words = f"no change (within ±{NO_CHANGE_WITHIN:.0%})"
    p = estimate.p if estimate.p is not None else 1.0
    text = f"{words} — {_effect(estimate.ratio, estimate.interval)}; {_TEST_WORDS[test]}"
    if test is not SignificanceTest.no_variation:
        text += f" {_p_text(p)}"
    return Verdict(
        kind=kind,
        n_baseline=n_base,
        n_other=n_other,
        ratio=estimate.ratio,
        test=test,
        test_reason=_test_reason(test, n_base, n_other, alpha),
        p_value=p,
        ci_low=estimate.interval[0] if estimate.interval else None,
        ci_high=estimate.interval[1] if estimate.interval else None,
        text=text + f", n = {n_other} vs {n_base}",
    )


def compare_many(
    baseline: Sequence[Sequence[float]],
    other: Sequence[Sequence[float]],
    higher_is_better: Sequence[bool],
    alpha: float = ALPHA,
) -> list[Verdict]:
    """compare_samples for several figures at once: row i of other against row i of baseline.

    Every row of baseline has the same length, as has every row of other (the repetitions of a
    side); the tests and the bootstrap then run once for all rows.
    """
    base = np.asarray(baseline, dtype=np.float64).reshape(len(baseline), -1)
    oth = np.asarray(other, dtype=np.float64).reshape(len(other), -1)
    n_base, n_other = base.shape[1], oth.shape[1]
    if n_base < MIN_SAMPLES or n_other < MIN_SAMPLES:
        return [_too_few(b, o) for b, o in zip(base, oth, strict=True)]
    return [
        _verdict(n_base, n_other, test, estimate, better, alpha)
        for (test, estimate), better in zip(_estimates(base, oth), higher_is_better, strict=True)
    ]


def compare_samples(
    baseline: Sequence[float], other: Sequence[float], higher_is_better: bool = True, alpha: float = ALPHA
) -> Verdict:
    """The verdict on other against baseline: better, worse, no change, can't tell, or too few to test."""
    base = [x for x in baseline if math.isfinite(x)]
    oth = [x for x in other if math.isfinite(x)]
    if len(base) < MIN_SAMPLES or len(oth) < MIN_SAMPLES:
        return _too_few(np.asarray(base, dtype=np.float64), np.asarray(oth, dtype=np.float64))
    return compare_many([base], [oth], [higher_is_better], alpha)[0]


def spread(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """Median, 25th and 75th percentiles, minimum and maximum."""
    data = np.asarray(values, dtype=np.float64)
    p25, median, p75 = (float(x) for x in np.percentile(data, [25, 50, 75]))
    return median, p25, p75, float(data.min()), float(data.max())
