"""Safety rules on one job's options: what it runs, touches and changes beyond its target, what
it does to the target (writes, trims, paths) and the deployment's ceilings on what it asks for."""

from __future__ import annotations

import re
from collections.abc import Mapping

from storbench_fio.budget import parse_percent_or_none
from storbench_fio.confine import path_option_problems
from storbench_fio.engines import DEVICE_ENGINES, NETWORK_ENGINES
from storbench_fio.errors import (
    CODE,
    DATA,
    HOST_CHANGES,
    HOSTS,
    LIMITS,
    PATHS,
    RULES,
    OptionError,
    with_rule,
)
from storbench_fio.option_table import OPTIONS, fio_name
from storbench_fio.rw_modes import TRIMS, WRITES, rw_mode
from storbench_fio.safety_scope import SafetyLimits, SafetyTarget
from storbench_fio.units import parse_bool, parse_seconds, parse_size

__all__ = [
    "LIMITS",
    "RULES",
    "host_dependent_value",
    "job_option_problems",
    "judged_with_engine",
    "target_free_problems",
    "with_rule",
]

_RUNS_CODE = "runs a program on the host"
_LOADS_CODE = "loads code into fio"
_OUTSIDE = "reads or writes files outside the target"
_HOST = "changes host settings"
_EXPANDS = "environment variable or $keyword expansion depends on the host"
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
_NO_FILES = frozenset({"cpuio", "null"})  # engines that lay out no files
_EXPANSION = re.compile(r"\$\{?[A-Za-z_]")
_PLAIN_LOG = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+-]{0,127}")
_PLAIN_FORMAT = re.compile(r"(?!.*\.\.)[A-Za-z0-9_$][A-Za-z0-9._+$-]{0,127}")
_INLINE_PATTERN = re.compile(r"""(0x[0-9a-fA-F]+|\d+|'[^']*'|"[^"]*"|%o|[\s|,])+""")


def _err(option: str, value: str | None, reason: str, rule: str = LIMITS) -> OptionError:
    return with_rule(OptionError(option=option, value=value or "", reason=reason), rule)


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


def _guarded_option(key: str, value: str | None) -> tuple[str, str] | None:
    """(reason, rule) when an option runs code, touches other files or changes the host."""
    if key in _CODE_OPTIONS:
        return _CODE_OPTIONS[key], CODE
    if key in _FILE_OPTIONS:
        return _FILE_OPTIONS[key], DATA if key == "fill_device" else PATHS
    if key in _HOST_OPTIONS:
        return _HOST_OPTIONS[key], HOST_CHANGES
    if key.startswith("trigger"):
        return "trigger commands run a program on the host", CODE
    if key.startswith("replay_"):
        return "I/O log replay: " + _OUTSIDE, PATHS
    if key == "verify_state_save" and _flag(value, default=True):
        return "writes verify state files: " + _OUTSIDE, PATHS
    if key in _LOG_OPTIONS and value not in (None, "", "1") and not _PLAIN_LOG.fullmatch(value):
        return "a log file name is a plain name in the run directory", PATHS
    if key == "filename_format" and value and not _PLAIN_FORMAT.fullmatch(value):
        return "file names are plain names in the run directory ($jobname, $jobnum...)", PATHS
    if key == "mem" and value and ":" in value:
        return "memory backed by a file path: " + _OUTSIDE, PATHS
    patterned = key in ("buffer_pattern", "verify_pattern") and value
    if patterned and not _INLINE_PATTERN.fullmatch(value or ""):
        return "give the pattern inline (hex, number or quoted string), not from a file", PATHS
    if key == "nice" and re.fullmatch(r"\s*-\s*0*[1-9]\d*\s*", value or ""):
        return "negative nice raises priority: " + _HOST, HOST_CHANGES
    if key == "prioclass" and (value or "").strip() == "1":
        return "real-time I/O priority class: " + _HOST, HOST_CHANGES
    if value is not None and _EXPANSION.search(value):
        return _EXPANDS, HOST_CHANGES
    return None


def _code_and_file_checks(options: Mapping[str, str | None]) -> list[OptionError]:
    """Options that run programs, load code, touch other files or change the host."""
    errors: list[OptionError] = []
    for key, value in options.items():
        found = _guarded_option(key, value)
        if found is not None:
            errors.append(_err(key, value, *found))
    return errors


_HOST_VALUE = re.compile(r"\$\{|\$(?:mb_memory|ncpus|pagesize)\b")


def host_dependent_value(value: object) -> OptionError | None:
    """A ${ENV} value or a $keyword fio reads from the host (the job differs per host)."""
    if isinstance(value, str) and _HOST_VALUE.search(value):
        return _err("", value, _EXPANDS, HOST_CHANGES)
    return None


def target_free_problems(options: Mapping[str, str | None]) -> list[OptionError]:
    """The rules that hold on any target: no code run or loaded, no I/O to other hosts, no host
    changes, no files outside the run's. A job breaking one of them is never a valid job."""
    engine = (options.get("ioengine") or "").strip().lower()
    # A $keyword reads differently per host, which the target's own check judges.
    errors = [e for e in _code_and_file_checks(options) if not e.reason.startswith(_EXPANDS)]
    if engine == "exec" or engine.startswith("external") or engine in NETWORK_ENGINES:
        errors.extend(_engine_check(options, SafetyTarget(kind="block_device", path="/dev/x")))
    return errors


def _engine_check(options: Mapping[str, str | None], target: SafetyTarget) -> list[OptionError]:
    value = options.get("ioengine")
    if value is None:
        return []
    engine = value.strip().lower()
    if engine == "exec":
        return [_err("ioengine", value, "the exec engine " + _RUNS_CODE, CODE)]
    if engine.startswith("external") or "/" in engine or engine.endswith(".so"):
        return [_err("ioengine", value, "external engines " + _LOADS_CODE, CODE)]
    if engine in NETWORK_ENGINES:
        return [_err("ioengine", value, "network engine: sends I/O to other hosts", HOSTS)]
    if engine in DEVICE_ENGINES and target.kind != "block_device":
        reason = f"the {engine} engine drives a device: only on a block-device target"
        return [_err("ioengine", value, reason, PATHS)]
    return []


def _direction_check(options: Mapping[str, str | None], target: SafetyTarget) -> list[OptionError]:
    """Trims only on a confirmed destructive device; device writes never when mounted."""
    rw = rw_mode(options.get("rw"))
    trims = rw in TRIMS or (_number(options.get("trim_percentage"), 1024) or 0) > 0
    writes = rw in WRITES or (options.get("verify") not in (None, "0") and rw != "read")
    device = target.kind == "block_device"
    option = "rw" if rw in TRIMS or writes else "trim_percentage"
    # On a directory target a trim punches holes in the run's own files only.
    if trims and device and not target.destructive:
        return [
            _err(
                option,
                options.get(option),
                "trims discard the device's data: only on a destructive block device",
                DATA,
            )
        ]
    if device and (trims or writes):
        if target.mounted:
            return [
                _err(
                    option,
                    options.get(option),
                    "writing to a mounted device corrupts its file system",
                    DATA,
                )
            ]
        if not (target.destructive and target.confirmed_destructive):
            return [
                _err(
                    option,
                    options.get(option),
                    "writes destroy the device's data: needs a destructive, confirmed target",
                    DATA,
                )
            ]
    return []


def _path_checks(options: Mapping[str, str | None], target: SafetyTarget) -> list[OptionError]:
    """filename/directory: plain names inside the run directory, or the target device itself."""
    errors = [
        with_rule(e, PATHS)
        for e in path_option_problems(
            target.kind,
            options.get("directory"),
            options.get("filename"),
            target.path if target.kind == "block_device" else None,
        )
    ]
    if target.kind == "block_device" and target.host_count > 1:
        errors.append(
            _err(
                "host_ids",
                str(target.host_count),
                "a block device is one host's disk: a run on it uses that host only "
                "(other hosts would overwrite their own device of the same name)",
                DATA,
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
        runs = _number(options.get("numruns"), kb) or 1
        if runtime == 0 or (runtime + extra) * runs > limits.max_runtime_s:
            errors.append(
                _err(
                    "runtime",
                    options.get("runtime"),
                    f"(runtime + ramp_time + startdelay) x numruns must be "
                    f"1..{limits.max_runtime_s} s",
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
        *_engine_check(options, target),
        *_direction_check(options, target),
        *_path_checks(options, target),
        *_limit_checks(options, limits),
    ]
    if target.kind == "directory":
        size = options.get("size")
        if size is not None and parse_percent_or_none(size) is not None:
            errors.append(_err("size", size, "a percentage needs a device; give a size"))
        elif (
            size is None
            and options.get("filesize") is None
            and (options.get("ioengine") or "").strip().lower() not in _NO_FILES
        ):
            errors.append(_err("size", None, "set size: the files are created in the target"))
    return errors


def judged_with_engine(errors: list[OptionError]) -> list[OptionError]:
    """An engine's own options refused with the engine: `port=[port]` of the rdma engine (a
    guide's placeholder) is refused because rdma sends I/O to other hosts, whatever its value."""
    refused = next((e for e in errors if e.option == "ioengine" and e.rule is not None), None)
    if refused is None:
        return errors
    engine = refused.value.strip().lower()
    judged: list[OptionError] = []
    for error in errors:
        spec = OPTIONS.get(fio_name(error.option) or "")
        if error.rule is None and spec is not None and engine in spec.engines:
            reason = f"an option of the {engine} engine, refused with it: {refused.reason}"
            error = error.model_copy(update={"reason": reason})
        judged.append(error)
    return judged
