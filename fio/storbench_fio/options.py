"""fio option names: aliases (from fio's own table), flags and fio's program switches."""

from __future__ import annotations

from storbench_fio.option_table import NOT_KNOWN, OPTIONS, fio_name

# The job model's spelling where it differs from fio's own name for an option (fio reads both).
_MODEL_SPELLINGS = {
    "steadystate": "ss",
    "steadystate_duration": "ss_dur",
    "steadystate_ramp_time": "ss_ramp",
    "iodepth_batch": "iodepth_batch_submit",
    "ba": "blockalign",
}
# Every other spelling fio 3.33 reads for an option -> the one the model uses, from fio's table.
ALIASES: dict[str, str] = {
    spelling: _MODEL_SPELLINGS.get(name, name)
    for name, spec in OPTIONS.items()
    for spelling in (name, *spec.aliases)
    if spelling != _MODEL_SPELLINGS.get(name, name)
}
# fio's other spellings of rw values.
RW_ALIASES: dict[str, str] = {"readwrite": "rw", "randreadwrite": "randrw"}


# fio's "empty or boolean" options: on a command line they never take the next word.
FLAG_OPTIONS = frozenset(
    {
        "bs_unaligned",
        "norandommap",
        "time_based",
        "verify_only",
        "exitall",
        "exitall_on_error",
        "stonewall",
        "new_group",
        "thread",
        "group_reporting",
        "zero_buffers",
        "refill_buffers",
        "hipri",
        "fixedbufs",
        "registerfiles",
        "sqthread_poll",
        "userspace_reap",
        "pingpong",
        "listen",
    }
)

# fio's own command-line switches (not job options) that only shape output, which
# storbench chooses itself: accepted in a pasted command and dropped.
IGNORED_CLI_SWITCHES = frozenset(
    {
        "output-format",
        "status-interval",
        "eta",
        "eta-newline",
        "eta-interval",
        "minimal",
        "terse-version",
        "append-terse",
        "warnings-fatal",
        "max-jobs",
    }
)
# fio switches that change what fio does beyond running the jobs.
REFUSED_CLI_SWITCHES: dict[str, str] = {
    "output": "fio's output file is managed by storbench",
    "client": "client/server mode is driven by storbench, not by a pasted command",
    "server": "fio must not be started as a server",
    "daemonize": "fio must not be started as a server",
    "remote-config": "job files are not read from other hosts",
    "section": "sections are chosen by pasting only the jobs wanted",
    "readonly": "storbench decides whether a target may be written",
    "parse-only": "storbench runs the jobs it validates",
    "showcmd": "storbench runs the jobs it validates",
    "debug": "debug logging is not supported",
    "bandwidth-log": "logs are written only where storbench puts them",
    "aux-path": "auxiliary files are written only where storbench puts them",
    "alloc-size": "memory settings of fio itself are not supported",
    "inflate-log": "log processing is not supported",
    "idle-prof": "idle profiling is not supported",
}


def canonical_option_name(key: str) -> str:
    """The name FioJob uses for a fio option spelling (aliases folded, case kept)."""
    return ALIASES.get(key, key)


def is_known_option(key: str) -> bool:
    """True when fio 3.33 itself knows this option name."""
    return fio_name(key) is not None


def unknown_option_reason(key: str) -> str:
    """Why an option is refused when fio 3.33 does not know it."""
    return f"option {NOT_KNOWN}"
