"""Steady state applied to results: each group's seconds, the verdict kept, the advisor's finding."""

from datetime import UTC, datetime, timedelta

from storbench_api.advisor.rules_steady import steady_state_findings
from storbench_api.models import ProgressSample
from storbench_api.runs.steadiness import samples_per_group, verdict
from storbench_fio.models import DirectionResult, JobResult
from storbench_protocol.progress import DirectionSample

T0 = datetime(2026, 11, 28, tzinfo=UTC)


def _samples(iops: list[float]) -> list[ProgressSample]:
    return [
        ProgressSample(
            elapsed_s=float(i),
            measured_at=T0 + timedelta(seconds=i),
            directions={"read": DirectionSample(iops=v, bw_bytes=v * 4096, lat_mean_ns=1000.0)},
        )
        for i, v in enumerate(iops)
    ]


def _job(group: int, runtime_ms: int) -> JobResult:
    return JobResult.model_validate(
        {
            "name": "randread",
            "groupid": group,
            "directions": {
                "read": DirectionResult.model_validate(
                    {"iops": 1.0, "bw_bytes": 4096.0, "io_bytes": 4096, "runtime_ms": runtime_ms}
                )
            },
        }
    )


def test_stonewalled_groups_take_their_own_seconds_in_the_order_they_ran() -> None:
    # A 3 s fill (group 0), then two 6 s points: each group gets the seconds of its runtime.
    samples = _samples([5.0] * 3 + [100.0] * 6 + [200.0] * 6)
    groups = samples_per_group(samples, [_job(0, 3000), _job(1, 6000), _job(2, 6000)])
    assert [len(groups[g]) for g in (0, 1, 2)] == [3, 6, 6]
    assert {s.directions["read"].iops for s in groups[2]} == {200.0}


def test_a_settling_series_is_steady_from_its_plateau_and_the_figure_is_flagged_as_averaging_before() -> None:
    found = verdict([90_000, 60_000, 30_000, 20_000, 20_500, 19_800, 20_200, 20_100, 19_900], "per_second")
    assert found["status"] == "steady" and found["reached_at"] == 4
    assert found["range_share"] is not None and found["range_share"] <= 0.2
    [finding] = steady_state_findings({"write": found})
    assert finding.code == "steady_late" and finding.severity == "info"
    assert "ramp_time of at least 3 s" in finding.fix


def test_a_series_that_never_settles_is_a_warning_naming_its_range_and_the_fix() -> None:
    found = verdict([100 * 1.05**i for i in range(10)], "per_second")
    assert found["status"] == "not_steady" and found["reached_at"] is None
    assert "the last 5 rounds ranged" in found["reason"]
    [finding] = steady_state_findings({"read": found})
    assert finding.code == "not_steady" and finding.severity == "warning"
    assert finding.fix.startswith("precondition")


def test_too_few_rounds_say_so_and_flag_nothing() -> None:
    found = verdict([1.0, 1.0, 1.0], "per_second")
    assert found["status"] == "too_short"
    assert steady_state_findings({"read": found}) == []


def test_a_repetition_before_the_repetitions_settled_is_flagged_and_one_after_is_not() -> None:
    rounds = [50.0, 80.0, 100.0, 101.0, 99.0, 100.0, 100.0]
    before = {**verdict(rounds, "repetitions"), "round": 1}
    after = {**verdict(rounds, "repetitions"), "round": 5}
    assert before["reached_at"] == 3
    assert [f.code for f in steady_state_findings({"read": before})] == ["before_steady"]
    assert steady_state_findings({"read": after}) == []
