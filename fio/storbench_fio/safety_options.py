"""Safety rules on one job's options: what it runs, touches and changes beyond its target, what
it does to the target (writes, trims, paths) and the deployment's ceilings on what it asks for."""

from __future__ import annotations

import re
from collections.abc import Mapping

from storbench_fio.budget import parse_percent_or_none
from storbench_fio.confine import path_option_problems
from storbench_fio.engines import NETWORK_ENGINES, SUPPORTED_ENGINES
from storbench_fio.errors import OptionError
from storbench_fio.safety_scope import SafetyLimits, SafetyTarget
from storbench_fio.units import parse_bool, parse_seconds, parse_size

__all__ = ["job_option_problems"]

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


def job_option_problems(
    options: Mapping[str, str | None], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """Every reason one job's options (as fio text) may not run on the target."""
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
    return errors
