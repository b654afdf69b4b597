"""fio's value grammar for job options: which options take a size, a time, a count or a flag, and
the readers of the values that have a syntax of their own (bssplit, ss, random_distribution...).

The job model (storbench_fio.job) declares each option's type and bounds; these readers turn what a
user wrote, in fio's words, into the value the model holds, or refuse it with a reason to show.
"""

from __future__ import annotations

import re

from storbench_fio.option_table import NOT_KNOWN, OPTIONS, fio_name, value_problem
from storbench_fio.options import RW_ALIASES
from storbench_fio.units import parse_bool, parse_percent, parse_seconds, parse_size

# Letters, digits, blanks inside ("random read") and . _ + - /: fio names the job's files after it
# in the run directory when no filename is given, so no '..' part and no leading '/'.
_NAME_RE = re.compile(r"[A-Za-z0-9._+/%-](?:[A-Za-z0-9 ._+/%-]{0,62}[A-Za-z0-9._+/%-])?")
_SS_RE = re.compile(r"(iops|iops_slope|bw|bw_slope):\d+(\.\d+)?%?", re.IGNORECASE)
_DIST_RE = re.compile(
    r"random|(zipf|pareto|normal|gauss)(:\d+(\.\d+)?(:\d+(\.\d+)?)?)?|zoned(_abs)?:[0-9a-z/:.%]+",
    re.IGNORECASE,
)

# Options fio reads per direction (read,write,trim) that the model types.
PER_DIRECTION_FIELDS = frozenset({"bs", "blockalign", "rate", "rate_iops", "percentage_random"})
SIZE_FIELDS = frozenset({"bs", "filesize", "io_size", "rate", "blockalign", "offset_increment"})
SECONDS_FIELDS = frozenset({"runtime", "ramp_time", "startdelay", "ss_dur", "ss_ramp"})
COUNT_FIELDS = frozenset(
    {
        "iodepth",
        "numjobs",
        "nrfiles",
        "openfiles",
        "loops",
        "fsync",
        "fdatasync",
        "log_avg_msec",
        "rwmixread",
        "rwmixwrite",
        "iodepth_batch_submit",
        "iodepth_batch_complete_min",
        "iodepth_batch_complete_max",
        "iodepth_low",
        "number_ios",
        "rate_iops",
        "randseed",
        "percentage_random",
        "buffer_compress_percentage",
        "dedupe_percentage",
    }
)
BOOL_FIELDS = frozenset(
    {
        "time_based",
        "direct",
        "buffered",
        "thread",
        "group_reporting",
        "randrepeat",
        "allrandrepeat",
        "norandommap",
        "refill_buffers",
        "zero_buffers",
        "scramble_buffers",
        "unique_filename",
        "end_fsync",
        "fsync_on_close",
        "invalidate",
        "stonewall",
        "new_group",
        "lat_percentiles",
        "clat_percentiles",
        "slat_percentiles",
        "disable_lat",
        "disable_clat",
        "disable_slat",
        "create_on_open",
        "overwrite",
        "hipri",
        "fixedbufs",
        "registerfiles",
        "sqthread_poll",
        "unlink",
        "do_verify",
        "verify_fatal",
        "gtod_reduce",
        "per_job_logs",
        "log_offset",
        "log_unix_epoch",
        "bs_unaligned",
    }
)


def read_job_name(value: object) -> object:
    """A name fio and the run directory can take (see _NAME_RE), never one read as global."""
    if isinstance(value, str) and (
        not _NAME_RE.fullmatch(value) or value.startswith("/") or ".." in value.split("/")
    ):
        raise ValueError(
            "job name must be 1-64 characters of A-Z a-z 0-9 . _ + - / % and blanks inside, "
            "with no '..' part and no leading '/'"
        )
    if isinstance(value, str) and value.lower().startswith("global"):
        # fio reads any section or --name starting with "global" as options for every later job.
        raise ValueError(
            "a job name must not start with 'global' (fio would read it as global options)"
        )
    return value


def read_single_line(value: object) -> object:
    """A text value with no newline or NUL, which would smuggle options into a rendered job file."""
    if isinstance(value, str) and any(c in value for c in "\n\r\x00"):
        raise ValueError("must be a single line without control characters")
    return value


def read_rw(value: object) -> object:
    """An rw mode in its canonical spelling (fio's aliases such as readwrite resolved)."""
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    mode, _, modifier = text.partition(":")
    if modifier:
        # fio's offset modifier (rw=randread:8, read:-8k): fio reads it, the mode is what it runs.
        problem = value_problem("rw", text)
        if problem is not None:
            raise ValueError(problem)
    mode = RW_ALIASES.get(mode, mode)
    return f"{mode}:{modifier}" if modifier else mode


def read_size(value: object, *, kb_base: int, allow_zero: bool, field: str = "") -> object:
    """A size option in bytes, or fio's per-direction list (read,write,trim) kept as written."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and "," in value and field in PER_DIRECTION_FIELDS:
        value = read_per_direction(field, value, kb_base=kb_base)
        if isinstance(value, str) and "," in value:
            return value
    if isinstance(value, str) and ("," in value or "-" in value.strip()[1:]):
        raise ValueError("one value is expected here (no per-direction list or range)")
    return parse_size(value, kb_base=kb_base, allow_zero=allow_zero)


def read_size_or_percent(value: object, *, kb_base: int, allow_zero: bool) -> object:
    """size and offset: bytes, or a percentage of the file or device kept as "N%"."""
    if isinstance(value, str):
        if allow_zero and re.fullmatch(r"\s*0+\s*%\s*", value):
            return 0  # offset=0%: fio's default, the start of the file
        pct = parse_percent(value)
        if pct is not None:
            return f"{pct}%"
    if value is None or isinstance(value, bool):
        return value
    return parse_size(value, kb_base=kb_base, allow_zero=allow_zero)


def read_seconds(value: object) -> object:
    """A time option in whole seconds (one value, no range)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and "-" in value.strip()[1:]:
        raise ValueError("ranges are not supported; give one value")
    return parse_seconds(value)


def read_count(value: object, field: str = "") -> object:
    """A count option, with fio's k/m suffixes (per direction where fio allows it)."""
    if isinstance(value, str):
        if "," in value and field in PER_DIRECTION_FIELDS:
            value = read_per_direction(field, value, kb_base=1024)
            if isinstance(value, str) and "," in value:
                return value
        if isinstance(value, str) and "," in value:
            raise ValueError("one value is expected here (no per-direction list)")
        return parse_size(value, allow_zero=True)
    return value


def read_flag(value: object) -> object:
    """A boolean option as fio reads it (1/0, true/false, yes/no, on/off)."""
    return parse_bool(value) if value is not None else None


def read_fallocate(value: object) -> object:
    """fallocate's mode, with fio's backwards-compatible aliases: 0 is none, 1 is posix."""
    if isinstance(value, bool | int | str):
        text = str(int(value)) if isinstance(value, bool | int) else value.strip().lower()
        return {"0": "none", "1": "posix"}.get(text, text)
    return value


def read_sync(value: object) -> object:
    """sync: a flag, or the O_SYNC/O_DSYNC mode fio names sync and dsync."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("sync", "dsync"):
            return text
        if text == "none":
            return False
        return parse_bool(text)
    return value


def read_percentile_list(value: object) -> object:
    """percentile_list: 1 to 20 percentiles in (0, 100], colon-separated as fio writes them."""
    if isinstance(value, str):
        value = [p for p in value.split(":") if p.strip()]
    if isinstance(value, list):
        if not value or len(value) > 20:
            raise ValueError("give 1 to 20 percentiles")
        for item in value:
            number = float(item)
            if not 0 < number <= 100:
                raise ValueError(f"percentile {item} is outside (0, 100]")
    return value


def read_bssplit(value: object, *, kb_base: int) -> object:
    """A bssplit fio would take, stripped (see validate_bssplit)."""
    if isinstance(value, str):
        validate_bssplit(value, kb_base=kb_base)
        return value.strip()
    return value


def validate_bssplit(value: str, *, kb_base: int = 1024) -> None:
    """Refuse a bssplit fio would refuse: bad sizes, percentages over 100, >64 entries."""
    groups = value.strip().split(",")
    if len(groups) > 3:
        raise ValueError("at most three comma-separated groups (read, write, trim)")
    for group in groups:
        if not group.strip():
            if len(groups) == 1:
                raise ValueError("empty bssplit")
            continue
        entries = group.split(":")
        if len(entries) > 64:
            raise ValueError("fio supports at most 64 block sizes per direction")
        total = 0
        for entry in entries:
            size_text, _, pct_text = entry.partition("/")
            parse_size(size_text.strip(), kb_base=kb_base)
            if pct_text.strip():
                if not pct_text.strip().isdigit():
                    raise ValueError(f"percentage in {entry!r} is not a whole number")
                total += int(pct_text)
        if total > 100:
            raise ValueError(f"percentages add up to {total}, more than 100")


def read_steady_state(value: object) -> object:
    """ss: criterion:limit with iops, iops_slope, bw or bw_slope, lowercased."""
    if isinstance(value, str) and not _SS_RE.fullmatch(value.strip()):
        raise ValueError("expected criterion:limit with iops, iops_slope, bw or bw_slope")
    return value.strip().lower() if isinstance(value, str) else value


def read_distribution(value: object) -> object:
    """random_distribution: random, zipf[:N], pareto[:N], normal[:N] or zoned:... (fio's defaults
    for a distribution given bare)."""
    if isinstance(value, str) and not _DIST_RE.fullmatch(value.strip()):
        raise ValueError("expected random, zipf:N, pareto:N, normal:N or zoned:...")
    return value


def bare_to_true(key: str, value: object) -> object:
    """A bare option (`key` with no value) means 1 for booleans; elsewhere it's an error."""
    if value is None or (isinstance(value, str) and value == ""):
        if key in BOOL_FIELDS:
            return True
        if key == "sync":
            return True
        raise ValueError("this option needs a value")
    return value


def fio_text(value: object) -> str | None:
    """A value given as JSON (1, true, 4096) in fio's text; None stays the bare option."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ":".join(str(v) for v in value)
    return str(value)


def read_other_option(key: str, value: str | None, *, kb_base: int) -> str:
    """An option the model keeps as fio text: one fio 3.33 knows, with a value it reads."""
    name = fio_name(key)
    if name is None:
        raise ValueError(f"option {NOT_KNOWN}")
    if value is not None and not isinstance(value, str):
        raise ValueError("expected fio text")
    problem = value_problem(name, value, kb_base=kb_base)
    if problem is not None:
        raise ValueError(problem)
    if value in (None, "") and OPTIONS[name].kind in ("flag", "bool"):
        return "1"
    return (value or "").strip()


def read_engine(value: object) -> object:
    """ioengine: any engine fio knows (lowercased); which may run is the safety rules' call."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    problem = value_problem("ioengine", text)
    if problem is not None:
        raise ValueError(problem)
    return text.lower() if ":" not in text and "/" not in text else text


def read_per_direction(field: str, value: object, *, kb_base: int) -> object:
    """fio's read,write,trim list: one value when all agree, else kept as fio text."""
    if not isinstance(value, str) or "," not in value:
        return value
    name = fio_name(field) or field
    problem = value_problem(name, value.strip(), kb_base=kb_base)
    if problem is not None:
        raise ValueError(problem)
    parts = [p.strip() for p in value.split(",")]
    if len(parts) in (2, 3) and all(p == parts[0] for p in parts) and parts[0]:
        return parts[0]
    return ",".join(parts)
