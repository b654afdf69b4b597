"""The knee of a load curve and the highest load under a p99 bound, on curves with known answers."""

from storbench_api.curves.knee import LoadPoint, find_knee, highest_load_under

QDS = [1, 2, 4, 8, 16, 32, 64, 128, 256]


def _little(qd: float, iops: float) -> float:
    """Mean latency (ns) Little's law gives for this queue depth and rate."""
    return qd / iops * 1e9


def test_a_sata_disk_that_never_overlaps_io_has_its_knee_at_qd_1() -> None:
    # ~332 IOPS at every depth, latency doubling with each step (3 ms at QD 1 → 774 ms at 256).
    points = [LoadPoint(qd, 332 + (qd % 3), _little(qd, 332)) for qd in QDS]
    knee = find_knee(points)
    assert knee.value == 1
    assert knee.next_value == 2
    assert knee.latency_rise is not None and knee.latency_rise > 0.9


def test_a_raid0_that_climbs_to_a_plateau_has_its_knee_at_qd_4() -> None:
    iops = {1: 1216, 2: 4657, 4: 5370, 8: 5540, 16: 5490, 32: 5510, 64: 5460, 128: 5500, 256: 5480}
    points = [LoadPoint(qd, value, _little(qd, value)) for qd, value in iops.items()]
    assert find_knee(points).value == 4


def test_points_given_out_of_order_are_read_along_the_axis() -> None:
    iops = {1: 1216, 2: 4657, 4: 5370, 8: 5540}
    points = [LoadPoint(qd, value, _little(qd, value)) for qd, value in reversed(iops.items())]
    assert find_knee(points).value == 4


def test_a_curve_still_climbing_has_no_knee_in_range_and_says_so() -> None:
    points = [LoadPoint(qd, 1000 * qd, 100_000) for qd in (1, 2, 4, 8)]
    knee = find_knee(points)
    assert knee.value is None
    assert "no knee between 1 and 8" in knee.reason


def test_a_flat_figure_with_flat_latency_is_not_a_knee() -> None:
    # A rate-limited job: the figure stays, but the queue does not wait longer either.
    points = [LoadPoint(qd, 500, 200_000) for qd in (1, 2, 4)]
    assert find_knee(points).value is None


def test_one_point_cannot_have_a_knee() -> None:
    assert find_knee([LoadPoint(1, 100, 1)]).value is None
    assert find_knee([]).value is None


def test_the_highest_load_under_a_p99_bound_stops_at_the_first_point_over_it() -> None:
    p99 = {1: 1.0e6, 2: 1.5e6, 4: 2.5e6, 8: 1.9e6, 16: 9e6}
    points = [LoadPoint(qd, 1, 1, lat_p99_ns=value) for qd, value in p99.items()]
    assert highest_load_under(points, 2e6) == 2
    assert highest_load_under(points, 1e7) == 16
    assert highest_load_under(points, 0.5e6) is None
