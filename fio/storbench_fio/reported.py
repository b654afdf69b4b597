"""The options a job ran with, read one way: what fio reported, or a stored job, as fio means it.

fio echoes a job's options as they were written ("timeout=60", "bs=4k", "readwrite=randread"), and
leaves out those at their defaults. Every reader that compares or judges jobs (the comparability
fingerprint, the grouped view, the rollup's job shape, the advisor) asks this module, so that two
spellings of one job read alike everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from storbench_fio.engines import DEFAULT_ENGINE
from storbench_fio.job import BOOL_FIELDS, SECONDS_FIELDS, SIZE_FIELDS
from storbench_fio.options import RW_ALIASES, canonical_option_name
from storbench_fio.units import parse_bool, parse_size, parse_time_us

__all__ = ["FIO_DEFAULTS", "SHAPE_KEYS", "job_shape", "read_options"]

# What fio runs when a job does not say: read 4 KiB blocks, one at a time, one process, psync.
FIO_DEFAULTS: dict[str, str] = {
    "rw": "read",
    "bs": "4096",
    "iodepth": "1",
    "numjobs": "1",
    "ioengine": DEFAULT_ENGINE,
    "direct": "0",
}
# The job shape: results differing in these measured different things.
SHAPE_KEYS = ("rw", "bs", "iodepth", "numjobs")

# Beyond the model's fields: sizes it refuses or keeps as text (percentages, ranges).
_SIZES = SIZE_FIELDS | {"size", "offset", "bsrange", "rate_min", "mem_align"}
_SECONDS = SECONDS_FIELDS
_MICROSECONDS = frozenset({"thinktime", "thinktime_spin"})  # fio reads these in usec
_BOOLS = BOOL_FIELDS | {"sync"}
_LOWERCASE = frozenset({"rw", "ioengine", "random_distribution", "verify", "file_service_type"})
_SIZE_PARTS = re.compile(r"([,:-])")


def _size_text(text: str, kb_base: int) -> str:
    """'4k' → '4096'; '4k,64k' → '4096,65536'; '4k-16k' → '4096-16384'; '50%' kept."""
    parts = []
    for part in _SIZE_PARTS.split(text):
        if part in (",", ":", "-", ""):
            parts.append(part)
            continue
        try:
            parts.append(str(parse_size(part, kb_base=kb_base, allow_zero=True)))
        except ValueError:
            if "%" not in part:
                return text.lower()
            parts.append(part)
    return "".join(parts)


def _value_text(key: str, text: str, kb_base: int) -> str:
    try:
        if key in _SIZES:
            return _size_text(text, kb_base)
        if key in _SECONDS or key in _MICROSECONDS:
            unit = "us" if key in _MICROSECONDS else "s"
            return str(parse_time_us(text, default_unit=unit) / 1_000_000)
        if key in _BOOLS:
            return "1" if parse_bool(text) else "0"
    except ValueError:
        return text
    if key == "rw":
        name, _, offset = text.lower().partition(":")
        return RW_ALIASES.get(name, name) + (":" + offset if offset else "")
    return text.lower() if key in _LOWERCASE else text


def _kb_base(options: Mapping[str, str]) -> int:
    return 1000 if options.get("kb_base", "").strip() == "1000" else 1024


def read_options(options: Mapping[str, object]) -> dict[str, str]:
    """Options by their model name (aliases folded), sizes in bytes, times in seconds, defaults set.

    A bare flag (None or "") reads as "1"; a value fio's grammar cannot read is kept as written.
    """
    texts: dict[str, str] = {}
    for raw_key, value in options.items():
        key = canonical_option_name(str(raw_key).strip().lower())
        texts[key] = "" if value is None else str(value).strip()
    kb_base = _kb_base(texts)
    read = {key: _value_text(key, text, kb_base) for key, text in texts.items()}
    return dict(sorted({**FIO_DEFAULTS, **read}.items()))


def job_shape(options: Mapping[str, object]) -> dict[str, str]:
    """rw (without its offset modifier), bs, iodepth and numjobs, fio's defaults where unset."""
    read = read_options(options)
    shape = {key: read[key] for key in SHAPE_KEYS}
    shape["rw"] = shape["rw"].split(":")[0]
    return shape
