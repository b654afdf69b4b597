"""Steady state by the SNIA PTS rule (range ≤ 20 %, fit excursion ≤ 10 % of the mean over 5 rounds)."""

import pytest

from storbench_api.curves.steady_state import find_steady_state, least_squares_slope, window_is_steady


def test_a_flash_device_settling_after_its_fresh_out_of_box_burst_is_steady_from_the_plateau() -> None:
    # Fresh flash writes fast, then falls to its steady rate as garbage collection starts.
    series = [90_000, 70_000, 50_000, 30_000, 21_000, 20_500, 19_800, 20_200, 20_100, 19_900]
    found = find_steady_state(series)
    assert found.reached
    assert found.start == 4


def test_a_series_drifting_steadily_is_never_steady() -> None:
    # Within a 20 % range over every window, but trending 4 % a round: 16 % across the window.
    series = [100 * 1.04**i for i in range(12)]
    assert all(max(series[i : i + 5]) - min(series[i : i + 5]) <= 0.2 * series[i] for i in range(8))
    found = find_steady_state(series)
    assert not found.reached
    assert found.start is None


def test_a_window_wider_than_twenty_percent_is_not_steady_even_without_a_trend() -> None:
    assert not window_is_steady([100, 125, 100, 125, 100])
    assert window_is_steady([100, 110, 100, 110, 100])


def test_too_few_rounds_cannot_reach_steady_state() -> None:
    found = find_steady_state([1, 1, 1, 1])
    assert not found.reached
    assert "needs a window of 5" in found.reason


def test_the_least_squares_slope_of_a_line_is_its_slope() -> None:
    assert least_squares_slope([3, 5, 7, 9]) == pytest.approx(2)
    assert least_squares_slope([4]) == 0
