"""fio option names: aliases, and why an option storbench does not model is refused."""

from __future__ import annotations

from storbench_fio._fio_names import FIO_OPTION_NAMES

# fio accepts several spellings for one option; the model uses the first.
ALIASES: dict[str, str] = {
    "blocksize": "bs",
    "readwrite": "rw",
    "ba": "blockalign",
    "bs_unaligned": "bs_unaligned",
    "blocksize_unaligned": "bs_unaligned",
    "iodepth_batch": "iodepth_batch_submit",
    "iodepth_batch_complete": "iodepth_batch_complete_min",
    "io_limit": "io_size",
    "steadystate": "ss",
    "steadystate_duration": "ss_dur",
    "steadystate_ramp_time": "ss_ramp",
    "timeout": "runtime",
}

# Known fio options storbench deliberately does not run, with the reason users see.
UNSUPPORTED: dict[str, str] = {
    "bsrange": "block size ranges are not supported; use bs or bssplit",
    "blocksize_range": "block size ranges are not supported; use bs or bssplit",
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
