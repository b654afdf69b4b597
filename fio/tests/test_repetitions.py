"""Repeating jobs in one fio invocation, and reading the repetition back from fio's group ids."""

import pytest

from storbench_fio.job import FioJob
from storbench_fio.repetitions import groups_per_repetition, repeat_jobs, repetition_of_group


def _job(name: str, **options: object) -> FioJob:
    return FioJob.model_validate(
        {"name": name, "rw": "randread", "size": 1 << 20, "runtime": 1, **options}
    )


def test_each_repetition_starts_behind_a_stonewall_and_keeps_names() -> None:
    jobs = [_job("a"), _job("b")]
    repeated = repeat_jobs(jobs, 3)
    assert [j.name for j in repeated] == ["a", "b"] * 3
    assert [bool(j.stonewall) for j in repeated] == [True, False] * 3
    assert jobs[0].stonewall is None  # the planned jobs are left as they were
    assert repeat_jobs(jobs, 1) == jobs


@pytest.mark.parametrize("count", [0, 101])
def test_repetitions_are_bounded(count: int) -> None:
    with pytest.raises(ValueError, match="between 1 and 100"):
        repeat_jobs([_job("a")], count)


def test_groups_and_repetition_of_a_group() -> None:
    # a | b c (b stonewalled) | d (new_group): three groups per repetition.
    jobs = [_job("a"), _job("b", stonewall=True), _job("c"), _job("d", new_group=True)]
    assert groups_per_repetition(jobs) == 3
    assert groups_per_repetition([_job("a", stonewall=True)]) == 1
    assert [repetition_of_group(g, 3, 2) for g in range(6)] == [0, 0, 0, 1, 1, 1]
    assert repetition_of_group(99, 3, 2) == 1
