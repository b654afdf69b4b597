"""What a preset is: fio jobs as a publisher printed them, and the figures it says they show."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_serializer

from storbench_fio.budget import footprint_bytes
from storbench_fio.job import FioJob, validate_job_dict

__all__ = ["ExpectedFigure", "Measure", "Preset", "build_preset", "expected_figure"]

Measure = Literal["latency", "iops", "throughput"]
# expected: what the publisher says one client host should see; measured: what the source measured
# on a device it names (a reference, not a promise); ceiling: a limit outside the storage (the
# client's network) that the result cannot exceed.
FigureBasis = Literal["expected", "measured", "ceiling"]


class ExpectedFigure(BaseModel):
    """A figure the source gives for a recipe, as published."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: str  # as published: IOPS, MB/s, GiB/s, ms
    note: str | None = None
    basis: FigureBasis = "expected"
    job: str | None = None  # the job it is for when the preset has several (None: all of them)


class Preset(BaseModel):
    """A ready-made benchmark: fio jobs as published plus what they should show."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    source: str
    measures: Measure
    description: str
    # The publisher's common options, for display; already applied to every job below.
    global_options: dict[str, str]
    jobs: list[FioJob]  # complete, runnable jobs
    platform: Literal["linux", "windows"] = "linux"
    target_kind: Literal["directory", "block_device"] = "directory"
    expected: list[ExpectedFigure] = []
    scratch_size: int | None = None  # bytes of files the jobs lay out, None on a device
    # Where the publisher points fio at its storage (directory=<mount>, directory=Z:\, a UNC
    # filename): not in the jobs, because storbench runs them in the chosen target instead.
    target_options: dict[str, str] = {}
    # The command exactly as the source prints it, where it prints one.
    published_command: str | None = None
    # Not a fio command the source published: storbench built it from the source's description.
    derived: bool = False

    @field_serializer("jobs")
    def _only_options_set(self, jobs: list[FioJob]) -> list[dict[str, Any]]:
        # As a job file would say it: the options the recipe sets, not every option left unset.
        return [job.model_dump(mode="json", exclude_none=True) for job in jobs]

    def resolved_jobs(self) -> list[FioJob]:
        """The complete jobs (global options are merged in when the preset is built)."""
        return list(self.jobs)


def expected_figure(
    value: float, unit: str, note: str | None = None, **extra: object
) -> ExpectedFigure:
    """A figure as its source prints it (extra: basis, job)."""
    return ExpectedFigure.model_validate({"value": value, "unit": unit, "note": note, **extra})


def build_preset(
    id: str,
    name: str,
    source: str,
    measures: Measure,
    description: str,
    global_options: dict[str, str],
    jobs: list[dict[str, object]],
    **extra: object,
) -> Preset:
    """Build a preset: global options merged into each job (job options win), scratch hint."""
    models = [validate_job_dict({**global_options, **job}) for job in jobs]
    preset = Preset.model_validate(
        {
            "id": id,
            "name": name,
            "source": source,
            "measures": measures,
            "description": description,
            "global_options": global_options,
            "jobs": models,
            **extra,
        }
    )
    if preset.target_kind == "block_device":
        return preset
    sizes = [_job_footprint(job) for job in preset.resolved_jobs()]
    total = sum(s for s in sizes if s is not None)
    return preset.model_copy(update={"scratch_size": total or None})


def _job_footprint(job: FioJob) -> int | None:
    options = {k: str(v) for k, v in job.fio_options().items() if not isinstance(v, bool)}
    return footprint_bytes(options)
