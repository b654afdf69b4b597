"""fio option names: aliases, and why an option storbench does not model is refused."""

from __future__ import annotations

from storbench_fio._fio_names import FIO_OPTION_NAMES

# fio accepts several spellings for one option (fio 3.33's HOWTO and `fio --cmdhelp=<name>`
# list them); the model uses the right-hand one. Every reader of options folds names here.
ALIASES: dict[str, str] = {
    "blocksize": "bs",
    "readwrite": "rw",
    "ba": "blockalign",
    "blocksize_unaligned": "bs_unaligned",
    "blocksize_range": "bsrange",
    "iodepth_batch": "iodepth_batch_submit",
    "iodepth_batch_complete": "iodepth_batch_complete_min",
    "io_limit": "io_size",
    "timeout": "runtime",
    "fileoffset": "offset",
    "nr_files": "nrfiles",
    "iomem": "mem",
    "iomem_align": "mem_align",
    "ratemin": "rate_min",
    "ratecycle": "rate_cycle",
    "fill_fs": "fill_device",
    "wait_for_previous": "stonewall",
    "disable_bw": "disable_bw_measurement",
    "proto": "protocol",
    "steadystate": "ss",
    "steadystate_duration": "ss_dur",
    "steadystate_ramp_time": "ss_ramp",
}
# fio's other spellings of rw values.
RW_ALIASES: dict[str, str] = {"readwrite": "rw", "randreadwrite": "randrw"}

# Known fio options storbench deliberately does not run, with the reason users see.
UNSUPPORTED: dict[str, str] = {
    "bsrange": "block size ranges are not supported; use bs or bssplit",
    "opendir": "opendir walks arbitrary directories; name files with filename or directory",
    "filename_format": "file naming is managed by storbench",
    "lockfile": "file locking modes are not supported",
    "write_barrier": "write barriers are not supported",
    "zonemode": "zoned block device modes are not supported",
    "create_only": "a job that only creates files measures nothing",
    "profile": "fio built-in profiles are not supported",
    "numruns": "repeat the run in storbench instead",
    "disk_util": "disk utilisation collection is managed by storbench",
    "stats": "statistics cannot be disabled; storbench needs them",
    "significant_figures": "output formatting is managed by storbench",
    "unified_rw_reporting": "output formatting is managed by storbench",
}


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
    return key in FIO_OPTION_NAMES or key in ALIASES


def unknown_option_reason(key: str) -> str:
    """Why an option that FioJob does not model is refused."""
    if key in UNSUPPORTED:
        return UNSUPPORTED[key]
    if is_known_option(key):
        return "known fio option that storbench does not support"
    return "unknown fio option"
