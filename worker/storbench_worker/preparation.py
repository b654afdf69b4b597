"""An assignment checked on this host before anything is touched, and fio's command line for it.

Everything here runs before the measurement: the target, the jobs and the limits are checked, the
run directory is made (or joined) and every path fio gets is confined to it.
"""

from dataclasses import dataclass
from pathlib import Path

from storbench_fio.budget import footprint_bytes, largest_file_bytes, run_memory_bytes
from storbench_fio.command import build_command
from storbench_fio.confine import confine_job_paths
from storbench_fio.errors import OptionError
from storbench_fio.job import FioJob
from storbench_fio.repetitions import repeat_jobs
from storbench_fio.safety import job_options
from storbench_protocol.assignments import TargetKind, WorkerAssignment
from storbench_worker import prepare, rundir
from storbench_worker.context import WorkerContext
from storbench_worker.fio_runner import fio_version
from storbench_worker.limits import FioLimits
from storbench_worker.rundir import RunDirectory


@dataclass
class Prepared:
    """An assignment checked on this host, with where and under which limits fio will run."""

    jobs: list[FioJob]
    kind: TargetKind
    target: Path  # resolved
    limits: FioLimits
    footprint_bytes: int
    scratch_name: str | None = None
    run_dir: RunDirectory | None = None

    def close(self) -> None:
        if self.run_dir is not None:
            self.run_dir.close()


def prepare_assignment(ctx: WorkerContext, assignment: WorkerAssignment) -> Prepared:
    """Check everything this host can check before touching anything."""
    target = assignment.target
    kind = target.kind
    jobs = prepare.validated_jobs(assignment.jobs)
    real = prepare.resolved_target(target.path, kind, ctx.config.allowed_roots, ctx.host_name)
    if fio_version(ctx.config.fio_binary) is None:
        raise prepare.CannotRun(
            f"fio is not installed on host '{ctx.host_name}': install it (apt-get install fio)"
        )
    if kind == "block_device":
        prepare.check_block_device_target(real, ctx.host_name)
    else:
        prepare.check_directory_target(real, ctx.host_name)
    # Only the host that lays the files out needs the room for them.
    prepare.check_safety(
        jobs,
        target,
        real,
        ctx.config.limits,
        check_free_space=assignment.lays_out,
        host_count=assignment.host_count,
    )
    options = [job_options(job) for job in jobs]
    directory = kind == "directory"
    footprint = sum(footprint_bytes(o) or 0 for o in options) if directory else 0
    largest = max((largest_file_bytes(o) or 0 for o in options), default=0) if directory else 0
    limits = FioLimits(
        memory_bytes=run_memory_bytes(options),
        largest_file_bytes=largest,
        max_processes=sum(job.numjobs or 1 for job in jobs) + 32,
    )
    scratch_name = rundir.check_name(assignment.scratch_name) if directory else None
    return Prepared(jobs, kind, real, limits, footprint, scratch_name)


def open_run_dir(ctx: WorkerContext, assignment: WorkerAssignment, prepared: Prepared, create: bool) -> None:
    """Make the run directory fresh (or join the one the run's first host made), and record it."""
    assert prepared.scratch_name is not None
    prepared.run_dir = RunDirectory(prepared.target, prepared.scratch_name, create=create)
    ctx.scratch.claim(assignment.id, prepared.run_dir.path, shared=assignment.shared_files)


def fio_argv(
    ctx: WorkerContext, prepared: Prepared, extra_args: tuple[str, ...], repetitions: int = 1
) -> list[str]:
    """fio's command line with paths built here, each checked (symlinks resolved) to stay in place.

    With repetitions, the checked jobs run that many times in a row (storbench_fio.repetitions):
    the same files, each repetition behind a stonewall.
    """
    paths = []
    problems = []
    for job in prepared.jobs:
        if prepared.run_dir is None:
            where, errors = confine_job_paths(
                job, kind=prepared.kind, run_dir="", device=str(prepared.target)
            )
        else:
            where, errors = confine_job_paths(
                job,
                kind=prepared.kind,
                run_dir=str(prepared.run_dir.path),
                resolve=True,
                fio_prefix=prepared.run_dir.fio_prefix,
            )
        paths.append(where)
        problems.extend(errors)
    if prepared.run_dir is not None:
        problems.extend(
            OptionError(option="filename", value=name, reason="not a regular file or directory")
            for name in prepared.run_dir.unexpected_entries()
        )
    if problems:
        raise prepare.CannotRun("refused by the worker's path checks: " + "; ".join(str(p) for p in problems))
    return build_command(
        repeat_jobs(prepared.jobs, repetitions),
        paths=paths * repetitions,
        fio_binary=ctx.config.fio_binary,
        extra_args=extra_args,
    )
