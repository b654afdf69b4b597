"""Preconditioning (SNIA PTS): fill the working set sequentially, twice over, before measuring.

Flash answers fresh-out-of-box writes faster than it will once its blocks are all written; a figure
taken before is the device's transient. The fill is each planned job as written (its name, so the
same files, and its size, offset, directory, numjobs, engine and direct I/O) with the workload
options replaced: sequential 128 KiB writes, loops=2 (twice the size), bounded only by the longest
runtime a job may have (a fill of a large device takes what it takes; the safety rules want a
bound). The fill jobs
run together as the invocation's first reporting group, behind the workload's first stonewall;
their results are not measurements (their description marks them, and they are group 0).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from storbench_fio.models import FioReport

PRECONDITION_DESCRIPTION = "storbench preconditioning: sequential fill, twice the working set"
FILL_BLOCK_BYTES = 128 * 1024
FILL_PASSES = 2
FILL_IODEPTH = 32

# The options that shape the measured workload, not where its files are: the fill drops them.
_WORKLOAD_OPTIONS = frozenset(
    {
        "rw",
        "readwrite",
        "bs",
        "blocksize",
        "bsrange",
        "blocksize_range",
        "bssplit",
        "iodepth",
        "rwmixread",
        "rwmixwrite",
        "time_based",
        "runtime",
        "timeout",
        "ramp_time",
        "startdelay",
        "rate",
        "rate_iops",
        "rate_min",
        "rate_iops_min",
        "rate_process",
        "percentage_random",
        "random_distribution",
        "norandommap",
        "randrepeat",
        "io_size",
        "io_limit",
        "number_ios",
        "thinktime",
        "thinktime_blocks",
        "thinktime_spin",
        "loops",
        "stonewall",
        "new_group",
        "wait_for",
        "verify",
        "do_verify",
        "fsync",
        "fdatasync",
        "description",
        "readonly",
        "zonemode",
        "zonesize",
        "zonerange",
        "zoneskip",
    }
)


def fill_jobs(planned: Sequence[Mapping[str, Any]], runtime_s: int) -> list[dict[str, Any]]:
    """The sequential fill of the planned jobs' working set, as one group, stopped at runtime_s."""
    fill = []
    for job in planned:
        kept = {k: v for k, v in job.items() if k not in _WORKLOAD_OPTIONS}
        fill.append(
            {
                **kept,
                "rw": "write",
                "bs": FILL_BLOCK_BYTES,
                "iodepth": FILL_IODEPTH,
                "loops": FILL_PASSES,
                "runtime": runtime_s,
                "description": PRECONDITION_DESCRIPTION,
            }
        )
    return fill


def with_precondition(
    planned: Sequence[Mapping[str, Any]], run_jobs: Sequence[dict[str, Any]], runtime_s: int
) -> list[dict[str, Any]]:
    """The run's jobs behind the fill of the planned jobs' working set (first job stonewalled)."""
    if not run_jobs:
        return []
    first, *rest = run_jobs
    return [*fill_jobs(planned, runtime_s), {**first, "stonewall": True}, *rest]


def is_fill(description: str | None) -> bool:
    """True for a job (in fio's output) that is storbench's preconditioning fill."""
    return description == PRECONDITION_DESCRIPTION


def without_fill(report: FioReport) -> FioReport:
    """A preconditioned run's report without the fill: its group (0) out, later ones renumbered.

    So repetitions and sweep points read their groups as if the fill had not run.
    """
    jobs = [
        job.model_copy(update={"groupid": (job.groupid or 0) - 1})
        for job in report.jobs
        if (job.groupid or 0) > 0
    ]
    return report.model_copy(update={"jobs": jobs})
