"""What storbench changes in a job fio would run as written, said as notices instead of refusals.

A job file or a paste from elsewhere is written for a host of its own: it names where fio ran
(`directory=/mnt/nas`), lets a size-bound job run as long as its size takes, or names its log
files. storbench runs the job in a run directory of the chosen target, under a time cap, and names
the logs itself; each change comes back as a Notice so the user sees the job as it will run.
"""

from __future__ import annotations

from collections.abc import Sequence

from storbench_fio.confine import separate_host_paths
from storbench_fio.errors import Notice
from storbench_fio.job import FioJob

__all__ = ["SAFETY_CAP_S", "frame_jobs"]

# The cap put on a size-bound job that names no runtime (fio would run until its size is done).
SAFETY_CAP_S = 600
_LOG_OPTIONS = ("write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log")
_LOG_AVERAGE_MS = 1000


def _runtime_cap(job: FioJob) -> tuple[dict[str, object], list[Notice]]:
    if job.runtime is not None or job.time_based:
        return {}, []
    minutes = SAFETY_CAP_S // 60
    notice = Notice(
        option="runtime",
        value=str(SAFETY_CAP_S),
        message=f"runtime={SAFETY_CAP_S} added as a safety cap: the job ends when its size is "
        f"done or after {minutes} min",
    )
    return {"runtime": SAFETY_CAP_S}, [notice]


def _log_names(job: FioJob) -> tuple[dict[str, object], list[Notice]]:
    extra = job.model_extra or {}
    update: dict[str, object] = {}
    notices: list[Notice] = []
    for option in _LOG_OPTIONS:
        value = extra.get(option)
        if value is None:
            continue
        if value not in ("", "1"):
            update[option] = ""
            notices.append(
                Notice(
                    option=option,
                    value=value,
                    message=f"read as {option}: storbench names the log files (fio's "
                    "default, after the job) and keeps them with the run's results",
                )
            )
    if extra.keys() & set(_LOG_OPTIONS) and job.log_avg_msec is None:
        update["log_avg_msec"] = _LOG_AVERAGE_MS
        notices.append(
            Notice(
                option="log_avg_msec",
                value=str(_LOG_AVERAGE_MS),
                message=f"log_avg_msec={_LOG_AVERAGE_MS} added: logs average over 1 s, so a "
                "long run's logs stay small",
            )
        )
    return update, notices


def frame_jobs(jobs: Sequence[FioJob]) -> tuple[list[FioJob], list[Notice]]:
    """The jobs as storbench will run them, and a notice for every change made."""
    placed, notices = separate_host_paths(list(jobs))
    framed: list[FioJob] = []
    seen = {(n.option, n.value, n.message) for n in notices}
    for job in placed:
        update: dict[str, object] = {}
        for change in (_runtime_cap, _log_names):
            values, said = change(job)
            update.update(values)
            for notice in said:
                key = (notice.option, notice.value, notice.message)
                if key not in seen:
                    seen.add(key)
                    notices.append(notice)
        framed.append(_updated(job, update) if update else job)
    return framed, notices


def _updated(job: FioJob, update: dict[str, object]) -> FioJob:
    """The job with the changes, validated again (extra options are fio text)."""
    data = {**job.model_dump(exclude_none=True), **update}
    return FioJob.model_validate(data)
