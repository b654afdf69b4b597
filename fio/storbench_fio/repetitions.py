"""Running a list of jobs N times in one fio invocation, and telling the repetitions apart after.

Each repetition's first job gets `stonewall`, so a repetition starts only once the previous one has
finished: repetitions never overlap, and each measures what one run of the jobs would. The job
names and files stay the same (the files laid out once serve every repetition).

fio numbers reporting groups in order: a job with `stonewall` or `new_group` starts a new group
unless it is the first job. Every repetition therefore spans the same number of groups, and a
result's `groupid` gives its repetition exactly, whether numjobs clones are reported one by one or
together (group_reporting): clones always stay in their job's group.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from storbench_fio.job import FioJob

MAX_REPETITIONS = 100


def repeat_jobs(jobs: Sequence[FioJob], repetitions: int) -> list[FioJob]:
    """The jobs `repetitions` times in a row, each repetition behind a stonewall."""
    if repetitions < 1 or repetitions > MAX_REPETITIONS:
        raise ValueError(f"repetitions must be between 1 and {MAX_REPETITIONS}")
    if repetitions == 1 or not jobs:
        return list(jobs)
    repeated: list[FioJob] = []
    for _ in range(repetitions):
        repeated.append(jobs[0].model_copy(update={"stonewall": True}))
        repeated.extend(jobs[1:])
    return repeated


def _starts_group(job: FioJob | Mapping[str, Any]) -> bool:
    if isinstance(job, FioJob):
        return bool(job.stonewall or job.new_group)
    return bool(job.get("stonewall") or job.get("new_group"))


def groups_per_repetition(jobs: Sequence[FioJob | Mapping[str, Any]]) -> int:
    """How many fio reporting groups one repetition of these jobs makes."""
    return 1 + sum(1 for job in jobs[1:] if _starts_group(job))


def repetition_of_group(groupid: int, groups: int, repetitions: int) -> int:
    """The 0-based repetition a result with this fio groupid belongs to."""
    return min(max(groupid // max(groups, 1), 0), repetitions - 1)
