"""Refuse fio options that could harm the host or data outside the benchmark target."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from storbench_fio.budget import (
    describe_footprint,
    footprint_bytes,
    human_bytes,
    largest_file_bytes,
    parse_percent_or_none,
    run_memory_bytes,
)
from storbench_fio.command import format_value
from storbench_fio.confine import path_option_problems
from storbench_fio.engines import NETWORK_ENGINES, SUPPORTED_ENGINES
from storbench_fio.errors import FioJobError, OptionError
from storbench_fio.job import FioJob
from storbench_fio.jobfile import RawJob, jobs_from_raw, parse_raw_fio_text
from storbench_fio.options import canonical_option_name
from storbench_fio.units import parse_bool, parse_seconds, parse_size

__all__ = [
    "SafetyLimits",
    "SafetyTarget",
    "check_fio_text",
    "check_job_safety",
    "check_jobs_safety",
]

JobLike = FioJob | RawJob | Mapping[str, str | None]


class SafetyTarget(BaseModel):
    """Where the jobs will run and what the owner allowed there."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["directory", "block_device"]
    path: str = Field(min_length=1)
    destructive: bool = False
    confirmed_destructive: bool = False
    free_bytes: int | None = Field(default=None, ge=0)
    # A block device's size (None: not known yet, checked on the host).
    device_bytes: int | None = Field(default=None, ge=0)
    mounted: bool = False
    # The memory of the run's smallest host (None: not known yet; only the service cap applies).
    host_memory_bytes: int | None = Field(default=None, ge=0)
    # How many hosts run the jobs at once.
    host_count: int = Field(default=1, ge=1)


class SafetyLimits(BaseModel):
    """Per-deployment ceilings on what one run may ask for.

    The defaults allow every recipe vendors publish (128 jobs, iodepth 128, the block-storage
    guide's 1000 s): what a run may write is bounded by the target's free space, and what fio may
    hold in memory by the host's.
    """

    model_config = ConfigDict(frozen=True)

    max_numjobs: int = Field(default=128, ge=1)
    max_iodepth: int = Field(default=1024, ge=1)
    max_runtime_s: int = Field(default=3600, ge=1)
    max_nrfiles: int = Field(default=10000, ge=1)
    # A deployment's own ceiling on the files one run lays out (None: the target's free space).
    max_total_size_bytes: int | None = Field(default=None, ge=1)
    free_space_margin: float = Field(default=0.1, ge=0, lt=1)
    min_log_avg_msec: int = Field(default=100, ge=0)
    # fio's buffers (block size x iodepth x numjobs) may take at most this, and at most this share
    # of the host's memory: the rest is the host's, and its page cache's.
    max_io_memory_bytes: int = Field(default=8 << 30, ge=1)
    host_memory_share: float = Field(default=0.5, gt=0, le=1)


_RUNS_CODE = "runs a program on the host"
_LOADS_CODE = "loads code into fio"
_OUTSIDE = "reads or writes files outside the target"
_HOST = "changes host settings"
_CODE_OPTIONS = {
    "exec_prerun": _RUNS_CODE,
    "exec_postrun": _RUNS_CODE,
    "program": "exec engine option: " + _RUNS_CODE,
    "arguments": "exec engine option: " + _RUNS_CODE,
}
_FILE_OPTIONS = {
    "include": _OUTSIDE,
    "read_iolog": "replays an I/O log file: " + _OUTSIDE,
    "read_iolog_chunked": "replays an I/O log file: " + _OUTSIDE,
    "write_iolog": "writes an I/O log file: " + _OUTSIDE,
    "merge_blktrace_file": _OUTSIDE,
    "verify_state_load": "loads verify state files: " + _OUTSIDE,
    "opendir": "walks a directory tree: " + _OUTSIDE,
    "lockfile": "file locking is not supported",
    "fill_device": "fills the whole file system or device",
}
_HOST_OPTIONS = {
    "ioscheduler": "switches the device's I/O scheduler: " + _HOST,
    "cgroup": "creates cgroups: " + _HOST,
    "cgroup_weight": "creates cgroups: " + _HOST,
    "cgroup_nodelete": "leaves cgroups behind: " + _HOST,
    "uid": "switches user: " + _HOST,
    "gid": "switches group: " + _HOST,
    "lockmem": "pins host memory: " + _HOST,
    "allow_mounted_write": "writing to a mounted device corrupts its file system",
    "hugepage-size": "needs host huge page setup: " + _HOST,
}
_LOG_OPTIONS = ("write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log")
_WRITES = frozenset({"write", "randwrite", "rw", "readwrite", "randrw", "trimwrite"})
_TRIMS = frozenset({"trim", "randtrim", "trimwrite"})
_EXPANSION = re.compile(r"\$\{?[A-Za-z_]")
_INLINE_PATTERN = re.compile(r"""(0x[0-9a-fA-F]+|\d+|'[^']*'|"[^"]*"|%o|[\s|,])+""")


def job_options(job: JobLike) -> dict[str, str | None]:
    """A job's options as fio text (what the budget and safety rules read)."""
    return _raw_options(job)[1]


def _raw_options(job: JobLike) -> tuple[str, dict[str, str | None]]:
    """(job name, options as fio text) for any of the accepted job shapes."""
    if isinstance(job, FioJob):
        options: dict[str, str | None] = {}
        for key, value in job.fio_options().items():
            text = format_value(key, value, kb_base=job.kb_base)
            options[key] = "1" if text is None else text
        return job.name, options
    if isinstance(job, RawJob):
        return job.name, job.as_dict()
    options = {canonical_option_name(str(k)): v for k, v in job.items()}
    return str(options.get("name") or ""), options


def _err(option: str, value: str | None, reason: str) -> OptionError:
    return OptionError(option=option, value=value or "", reason=reason)


def _number(value: str | None, kb_base: int, *, time: bool = False) -> int | None:
    """A parsed size/count/time, or None when unset or unreadable (validation reports it)."""
    if value is None:
        return None
    try:
        return parse_seconds(value) if time else parse_size(value, kb_base=kb_base, allow_zero=True)
    except ValueError:
        return None


def _flag(value: str | None, default: bool = False) -> bool:
    try:
        return parse_bool(value)
    except ValueError:
        return default


def _code_and_file_checks(options: Mapping[str, str | None]) -> list[OptionError]:
    """Options that run programs, load code, touch other files or change the host."""
    errors: list[OptionError] = []
    for key, value in options.items():
        reason = _CODE_OPTIONS.get(key) or _FILE_OPTIONS.get(key) or _HOST_OPTIONS.get(key)
        if key.startswith("trigger"):
            reason = "trigger commands run a program on the host"
        elif key.startswith("replay_"):
            reason = "I/O log replay: " + _OUTSIDE
        elif key == "verify_state_save" and _flag(value, default=True):
            reason = "writes verify state files: " + _OUTSIDE
        elif key in _LOG_OPTIONS and value not in (None, "", "1"):
            reason = "log file names are chosen by storbench; use the bare option"
        elif key == "mem" and value and ":" in value:
            reason = "memory backed by a file path: " + _OUTSIDE
        elif key in ("buffer_pattern", "verify_pattern") and value:
            if not _INLINE_PATTERN.fullmatch(value):
                reason = "give the pattern inline (hex, number or quoted string), not from a file"
        elif key == "nice" and re.fullmatch(r"\s*-\s*0*[1-9]\d*\s*", value or ""):
            reason = "negative nice raises priority: " + _HOST
        elif key == "prioclass" and (value or "").strip() == "1":
            reason = "real-time I/O priority class: " + _HOST
        if reason is None and value is not None and _EXPANSION.search(value):
            reason = "environment variable or $keyword expansion depends on the host"
        if reason is not None:
            errors.append(_err(key, value, reason))
    return errors


def _engine_check(options: Mapping[str, str | None]) -> list[OptionError]:
    value = options.get("ioengine")
    if value is None:
        return []
    engine = value.strip().lower()
    if engine in SUPPORTED_ENGINES:
        return []
    if engine == "exec":
        reason = "the exec engine " + _RUNS_CODE
    elif engine.startswith("external") or "/" in engine or engine.endswith(".so"):
        reason = "external engines " + _LOADS_CODE
    elif engine in NETWORK_ENGINES:
        reason = "network engine: sends I/O to other hosts"
    else:
        reason = "ioengine not supported by storbench"
    return [_err("ioengine", value, reason)]


def _direction_check(options: Mapping[str, str | None], target: SafetyTarget) -> list[OptionError]:
    """Trims only on a confirmed destructive device; device writes never when mounted."""
    rw = (options.get("rw") or "read").strip().lower()
    trims = rw in _TRIMS or (_number(options.get("trim_percentage"), 1024) or 0) > 0
    writes = rw in _WRITES or (options.get("verify") not in (None, "0") and rw != "read")
    device = target.kind == "block_device"
    option = "rw" if rw in _TRIMS or writes else "trim_percentage"
    if trims and not (device and target.destructive):
        return [
            _err(
                option,
                options.get(option),
                "trims discard data: only on a destructive block device",
            )
        ]
    if device and (trims or writes):
        if target.mounted:
            return [
                _err(
                    option,
                    options.get(option),
                    "writing to a mounted device corrupts its file system",
                )
            ]
        if not (target.destructive and target.confirmed_destructive):
            return [
                _err(
                    option,
                    options.get(option),
                    "writes destroy the device's data: needs a destructive, confirmed target",
                )
            ]
    return []


def _path_checks(options: Mapping[str, str | None], target: SafetyTarget) -> list[OptionError]:
    """filename/directory: plain names inside the run directory, or the target device itself."""
    errors = path_option_problems(
        target.kind,
        options.get("directory"),
        options.get("filename"),
        target.path if target.kind == "block_device" else None,
    )
    if target.kind == "block_device" and target.host_count > 1:
        errors.append(
            _err(
                "host_ids",
                str(target.host_count),
                "a block device is one host's disk: a run on it uses that host only "
                "(other hosts would overwrite their own device of the same name)",
            )
        )
    return errors


def _limit_checks(options: Mapping[str, str | None], limits: SafetyLimits) -> list[OptionError]:
    errors: list[OptionError] = []
    kb = 1000 if options.get("kb_base") == "1000" else 1024
    for key, ceiling in (("numjobs", limits.max_numjobs), ("iodepth", limits.max_iodepth)):
        number = _number(options.get(key), kb)
        if number is not None and number > ceiling:
            errors.append(_err(key, options.get(key), f"at most {ceiling} allowed"))
    nrfiles = (_number(options.get("nrfiles"), kb) or 1) * (
        _number(options.get("numjobs"), kb) or 1
    )
    if nrfiles > limits.max_nrfiles:
        errors.append(
            _err(
                "nrfiles",
                options.get("nrfiles"),
                f"{nrfiles} files in all (nrfiles x numjobs); at most {limits.max_nrfiles}",
            )
        )
    runtime = _number(options.get("runtime"), kb, time=True)
    if "runtime" not in options:
        errors.append(_err("runtime", None, f"set runtime (at most {limits.max_runtime_s} s)"))
    elif runtime is not None:
        extra = sum(
            _number(options.get(k), kb, time=True) or 0 for k in ("ramp_time", "startdelay")
        )
        if runtime == 0 or runtime + extra > limits.max_runtime_s:
            errors.append(
                _err(
                    "runtime",
                    options.get("runtime"),
                    f"runtime + ramp_time + startdelay must be 1..{limits.max_runtime_s} s",
                )
            )
    log_avg = _number(options.get("log_avg_msec"), kb)
    logging = any(k in options for k in _LOG_OPTIONS)
    if (log_avg is not None and log_avg < limits.min_log_avg_msec) or (logging and log_avg is None):
        errors.append(
            _err(
                "log_avg_msec",
                options.get("log_avg_msec"),
                f"logs must average over at least {limits.min_log_avg_msec} ms",
            )
        )
    return errors


def check_job_safety(
    job_or_raw_options: JobLike, target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """Every reason this one job may not run on the target (empty when it may)."""
    name, options = _raw_options(job_or_raw_options)
    errors = [
        *_code_and_file_checks(options),
        *_engine_check(options),
        *_direction_check(options, target),
        *_path_checks(options, target),
        *_limit_checks(options, limits),
    ]
    if target.kind == "directory":
        size = options.get("size")
        if size is not None and parse_percent_or_none(size) is not None:
            errors.append(_err("size", size, "a percentage needs a device; give a size"))
        elif size is None and options.get("filesize") is None:
            errors.append(_err("size", None, "set size: the files are created in the target"))
    return [e.model_copy(update={"job": name or None}) for e in errors]


def check_jobs_safety(
    jobs: Sequence[JobLike], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """check_job_safety for each job plus the space and memory all jobs need together."""
    errors: list[OptionError] = []
    every_options = []
    for job in jobs:
        errors.extend(check_job_safety(job, target, limits))
        every_options.append(_raw_options(job))
    errors.extend(_memory_check([options for _, options in every_options], target, limits))
    if target.kind == "directory":
        errors.extend(_space_check(every_options, target, limits))
    elif target.device_bytes is not None:
        errors.extend(_device_size_check(every_options, target.path, target.device_bytes))
    return errors


def _space_check(
    jobs: Sequence[tuple[str, Mapping[str, str | None]]], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """The files all jobs lay out against the service's ceiling and the target's free space."""
    total = sum(footprint_bytes(options) or 0 for _, options in jobs)
    parts = [
        (name, describe_footprint(options)) for name, options in jobs if footprint_bytes(options)
    ]
    if len(parts) == 1:
        breakdown = str(parts[0][1])
    else:
        breakdown = " + ".join(f"{name}: {text}" for name, text in parts)
    needs = f"the jobs' files need {human_bytes(total)} ({breakdown}, offsets included)"
    errors: list[OptionError] = []
    if limits.max_total_size_bytes is not None and total > limits.max_total_size_bytes:
        errors.append(
            _err(
                "size",
                str(total),
                f"{needs}; a run may use at most {human_bytes(limits.max_total_size_bytes)} on "
                "this service: lower size, nrfiles or numjobs",
            )
        )
    if target.free_bytes is not None:
        usable = int(target.free_bytes * (1 - limits.free_space_margin))
        if total > usable:
            kept = (
                f", of which {human_bytes(usable)} may be used ({limits.free_space_margin:.0%} "
                "is kept free)"
                if limits.free_space_margin
                else ""
            )
            errors.append(
                _err(
                    "size",
                    str(total),
                    f"{needs}, the target has {human_bytes(target.free_bytes)} free{kept}: "
                    "free space on the target or choose one with more, or lower size, nrfiles "
                    "or numjobs",
                )
            )
    return errors


def _device_size_check(
    jobs: Sequence[tuple[str, Mapping[str, str | None]]], device: str, device_bytes: int
) -> list[OptionError]:
    """Each job's region (offset + size, per clone) must lie on the device."""
    errors: list[OptionError] = []
    for name, options in jobs:
        needed = largest_file_bytes(options)
        if needed is not None and needed > device_bytes:
            errors.append(
                _err(
                    "size",
                    options.get("size"),
                    f"needs {human_bytes(needed)} of the device (offset + size), "
                    f"{device} holds {human_bytes(device_bytes)}: lower size or "
                    "offset, or choose a larger device",
                ).model_copy(update={"job": name or None})
            )
    return errors


def memory_budget_bytes(target: SafetyTarget, limits: SafetyLimits) -> int:
    """The most memory fio's buffers may take on the target's host."""
    budget = limits.max_io_memory_bytes
    if target.host_memory_bytes:
        budget = min(budget, int(target.host_memory_bytes * limits.host_memory_share))
    return budget


def _memory_check(
    every_options: Sequence[Mapping[str, str | None]], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    needed = run_memory_bytes(every_options)
    budget = memory_budget_bytes(target, limits)
    if needed <= budget:
        return []
    where = (
        f"{limits.host_memory_share:.0%} of the host's "
        f"{human_bytes(target.host_memory_bytes)} memory"
        if target.host_memory_bytes and budget < limits.max_io_memory_bytes
        else "the service's limit"
    )
    return [
        _err(
            "iodepth",
            None,
            f"fio's buffers (bs x iodepth x numjobs, per job running at once) need "
            f"{human_bytes(needed)}; at most {human_bytes(budget)} is allowed ({where}): "
            "lower bs, iodepth or numjobs, or run the jobs one after another with stonewall",
        )
    ]


def check_fio_text(text: str, target: SafetyTarget, limits: SafetyLimits) -> list[FioJob]:
    """Parse a pasted job file or command line and check it; FioJobError lists all problems."""
    raw = parse_raw_fio_text(text)
    safety = check_jobs_safety(raw.jobs, target, limits)
    return jobs_from_raw(raw, extra_errors=safety)


def ensure_safe(jobs: Sequence[FioJob], target: SafetyTarget, limits: SafetyLimits) -> None:
    """Raise FioJobError unless every job may run on the target."""
    errors = check_jobs_safety(jobs, target, limits)
    if errors:
        raise FioJobError(errors)
