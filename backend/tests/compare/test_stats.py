"""Significance on known samples, and the bootstrap interval of the median ratio."""

import numpy as np
import pytest

from storbench_api.compare.stats import SignificanceTest, VerdictKind, compare_samples


def test_a_clear_difference_is_changed() -> None:
    verdict = compare_samples([100, 102, 99, 101, 100.5], [120, 121, 119, 122, 120.5])
    assert verdict.kind is VerdictKind.changed
    assert verdict.test is SignificanceTest.welch_t  # both samples look normal
    assert verdict.p_value is not None and verdict.p_value < 0.001
    assert verdict.ratio == pytest.approx(120.5 / 100.5)
    assert "Welch's t-test" in verdict.text and "95 % CI" in verdict.text


def test_a_tie_is_within_noise() -> None:
    verdict = compare_samples([100, 103, 98, 101, 99], [101, 99, 102, 98, 100])
    assert verdict.kind is VerdictKind.within_noise
    assert verdict.p_value is not None and verdict.p_value > 0.05
    assert verdict.ci_low is not None and verdict.ci_high is not None
    assert verdict.ci_low <= 1 <= verdict.ci_high


def test_skewed_samples_are_judged_by_mann_whitney() -> None:
    baseline = [100, 101, 100, 102, 100, 101, 100, 180]  # one slow outlier: not normal
    other = [130, 131, 130, 132, 131, 130, 133, 131]
    verdict = compare_samples(baseline, other)
    assert verdict.test is SignificanceTest.mann_whitney_u
    assert verdict.kind is VerdictKind.changed
    assert "Mann–Whitney U" in verdict.text


def test_fewer_than_three_repetitions_cannot_tell() -> None:
    verdict = compare_samples([100], [150])
    assert verdict.kind is VerdictKind.single_sample
    assert verdict.text.startswith("single sample — repeat to know")
    assert verdict.p_value is None and verdict.ratio == 1.5
    assert compare_samples([100, 101], [150, 151, 149]).kind is VerdictKind.single_sample


def test_the_same_samples_give_the_same_interval() -> None:
    a, b = [10.0, 11, 9.5, 10.2, 10.8], [12.0, 12.5, 11.8, 12.2, 13]
    assert compare_samples(a, b) == compare_samples(a, b)


def test_the_bootstrap_interval_covers_the_true_ratio_on_generated_data() -> None:
    rng = np.random.default_rng(7)
    true_ratio = 1.25
    trials, covered = 60, 0
    for _ in range(trials):
        baseline = rng.normal(10_000, 400, 8)
        other = rng.normal(10_000 * true_ratio, 500, 8)
        verdict = compare_samples(baseline.tolist(), other.tolist())
        assert verdict.ci_low is not None and verdict.ci_high is not None
        covered += verdict.ci_low <= true_ratio <= verdict.ci_high
    # A 95 % interval on 8 samples a side: most trials cover the truth, never only a few.
    assert covered / trials >= 0.85, covered
