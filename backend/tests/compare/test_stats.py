"""Verdicts on generated samples whose truth is known, and what they say about what they cannot know."""

import numpy as np
import pytest

from storbench_api.compare.stats import SignificanceTest, VerdictKind, compare_many, compare_samples


def _lognormal(rng: np.random.Generator, median: float, cv: float, size: tuple[int, ...] | int) -> list:
    return (median * rng.lognormal(0.0, float(np.sqrt(np.log1p(cv**2))), size)).tolist()


def test_a_large_effect_at_three_repetitions_is_worse_not_noise() -> None:
    # The case a rank test missed: p50 latency down 83 % with 3 vs 3 (its smallest p is 0.1).
    rng = np.random.default_rng(24)
    baseline, other = _lognormal(rng, 600_000, 0.03, 3), _lognormal(rng, 100_000, 0.03, 3)
    verdict = compare_samples(baseline, other, higher_is_better=False)
    assert verdict.kind is VerdictKind.better  # lower latency
    assert verdict.test is SignificanceTest.welch_t_log
    assert "rank test cannot reach p < 0.05 at n = 3" in verdict.test_reason
    assert verdict.ci_low is not None and verdict.ci_high is not None and verdict.ci_high < 1
    assert verdict.text.startswith("better")
    assert compare_samples(baseline, other, higher_is_better=True).kind is VerdictKind.worse


def test_identical_distributions_are_not_called_changed() -> None:
    rng = np.random.default_rng(5)
    for n_base, n_other in [(3, 2), (3, 3), (5, 5), (10, 10)]:
        baseline = _lognormal(rng, 10_000, 0.10, (400, n_base))
        other = _lognormal(rng, 10_000, 0.10, (400, n_other))
        verdicts = compare_many(baseline, other, [True] * 400)
        changed = sum(v.kind in (VerdictKind.better, VerdictKind.worse) for v in verdicts)
        assert changed / 400 <= 0.08, (n_base, n_other, changed)  # alpha 0.05, with room for 400 draws
        covered = sum(
            v.ci_low is not None and v.ci_high is not None and v.ci_low <= 1 <= v.ci_high for v in verdicts
        )
        assert covered / 400 >= 0.92, (n_base, n_other, covered)


def test_an_unresolved_difference_is_cant_tell_and_asks_for_repetitions() -> None:
    verdict = compare_samples([100, 130, 85], [110, 150, 95])
    assert verdict.kind is VerdictKind.cant_tell
    assert verdict.text.startswith("can't tell at n = 3: repeat")
    assert verdict.ratio is not None and verdict.ci_low is not None and verdict.ci_low < 1 < verdict.ci_high


def test_a_tight_tie_is_no_change() -> None:
    verdict = compare_samples([100, 101, 99.5, 100.5, 100], [100.5, 99.8, 100.2, 100.9, 99.6])
    assert verdict.kind is VerdictKind.no_change
    assert verdict.p_value is not None and verdict.p_value > 0.05
    assert verdict.ci_low is not None and verdict.ci_high is not None
    assert 1 / 1.05 <= verdict.ci_low <= 1 <= verdict.ci_high <= 1.05


def test_two_against_three_is_tested_and_names_both_sizes() -> None:
    verdict = compare_samples([100, 101], [150, 151, 149])
    assert verdict.kind is VerdictKind.better
    assert "n = 3 vs 2" in verdict.text


def test_one_repetition_on_a_side_is_too_few_but_shows_the_ratio_and_interval() -> None:
    verdict = compare_samples([100, 102, 98], [150])
    assert verdict.kind is VerdictKind.too_few
    assert verdict.text.startswith("too few on one side (n = 1 vs 3): repeat")
    assert verdict.p_value is None and verdict.ratio == pytest.approx(1.5, rel=0.01)
    assert (
        verdict.ci_low is not None and verdict.ci_high is not None and verdict.ci_low < 1.5 < verdict.ci_high
    )
    alone = compare_samples([100], [150])
    assert alone.kind is VerdictKind.too_few and alone.ratio == pytest.approx(1.5) and alone.ci_low is None


def test_values_that_cannot_take_a_log_fall_back_to_ranks() -> None:
    verdict = compare_samples([10, 11, 10, 12, 11, 10, 11, 0], [30, 31, 30, 32, 31, 30, 33, 31])
    assert verdict.test is SignificanceTest.mann_whitney_u and verdict.kind is VerdictKind.better
    assert verdict.ci_low is not None and verdict.ci_low > 1
    assert "logs cannot be taken" in verdict.test_reason
    # With 2 vs 2 a rank test cannot resolve anything: can't tell, and the reason says so.
    unresolved = compare_samples([0, 10], [30, 31])
    assert unresolved.kind is VerdictKind.cant_tell and "cannot reach p < 0.05" in unresolved.test_reason


def test_the_same_samples_give_the_same_verdict() -> None:
    a, b = [10.0, 11, 9.5, 10.2, 10.8], [12.0, 12.5, 11.8, 12.2, 13]
    assert compare_samples(a, b) == compare_samples(a, b)
