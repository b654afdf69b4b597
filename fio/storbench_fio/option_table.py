"""fio 3.33's option table (generated from fio itself) read: names, aliases and value grammar.

The table (`_fio_option_table`) is written by `tools/generate_option_table.py` from
`fio --cmdhelp`, `fio --enghelp` and fio's HOWTO.rst; this module answers from it whether fio
knows an option or a value. What storbench may run on top of that is the safety rules' business.
"""

from __future__ import annotations

import re

from storbench_fio._fio_option_table import ENGINES_BUILT, ENGINES_DOCUMENTED, FIO_VERSION, OPTIONS
from storbench_fio.option_spec import OptionSpec
from storbench_fio.units import parse_bool, parse_size, parse_time_us

__all__ = [
    "FIO_VERSION",
    "KNOWN_ENGINES",
    "NOT_KNOWN",
    "OPTIONS",
    "fio_name",
    "value_problem",
]

_VERSION = FIO_VERSION.removeprefix("fio-")
NOT_KNOWN = f"not known to fio {_VERSION}, which this host runs"
KNOWN_ENGINES = ENGINES_BUILT | ENGINES_DOCUMENTED | {"windowsaio", "solarisaio"}

# Every spelling fio reads -> fio's own name for the option.
_SPELLINGS: dict[str, str] = {
    **{alias: name for name, spec in OPTIONS.items() for alias in spec.aliases},
    **{name: name for name in OPTIONS},
}
_NUMBER = re.compile(r"(?P<sign>-?)(?P<num>0x[0-9a-f]+|\d+(?:\.\d+)?)(?P<suffix>[a-z%]*)", re.I)
_FLOAT = re.compile(r"\d+(?:\.\d+)?")


def fio_name(key: str) -> str | None:
    """fio's own name for an option spelling (aliases folded), None when fio does not know it."""
    return _SPELLINGS.get(key.strip())


def _int_problem(text: str, spec: OptionSpec, *, kb_base: int) -> str | None:
    match = _NUMBER.fullmatch(text.strip())
    if match is None:
        return "expected a number (k/m/g suffixes allowed)"
    if match["sign"] and (spec.minimum is None or spec.minimum >= 0):
        return "must not be negative"
    suffix = match["suffix"]
    if suffix.endswith("%"):
        return None if suffix == "%" else "expected a number or N%"
    try:
        number = parse_size(match["num"].split(".")[0] + suffix, kb_base=kb_base, allow_zero=True)
    except ValueError as exc:
        return str(exc)
    value = -number if match["sign"] else number
    if spec.minimum is not None and value < spec.minimum:
        return f"at least {spec.minimum:g} for fio"
    if spec.maximum is not None and value > spec.maximum:
        return f"at most {spec.maximum:g} for fio"
    return None


def _time_problem(text: str, spec: OptionSpec) -> str | None:
    unit = "us" if spec.kind == "time_us" else "s"
    try:
        parse_time_us(text, default_unit=unit)
    except ValueError as exc:
        return str(exc)
    return None


def _range_problem(text: str, *, kb_base: int) -> str | None:
    for part in text.split(","):
        if not part.strip():
            continue
        for bound in part.split("-"):
            try:
                parse_size(bound.strip(), kb_base=kb_base, allow_zero=True)
            except ValueError:
                return f"expected sizes or ranges such as 4k-64k, got {part.strip()!r}"
    return None


def _choice_problem(name: str, text: str, spec: OptionSpec) -> str | None:
    head = re.split(r"[,:]", text, maxsplit=1)[0].strip().lower()
    if name == "ioengine":
        engine = text.strip().lower()
        if engine in KNOWN_ENGINES or engine.startswith("external"):
            return None
        return None if "/" in engine or engine.endswith(".so") else f"ioengine {NOT_KNOWN}"
    if head in (v.lower() for v in spec.values):
        return None
    return f"{head!r} is {NOT_KNOWN} (fio knows {', '.join(spec.values)})"


def _floats_problem(text: str, spec: OptionSpec) -> str | None:
    for part in (p for p in text.split(":") if p.strip()):
        if not _FLOAT.fullmatch(part.strip()):
            return f"expected numbers separated by ':', got {part.strip()!r}"
        number = float(part)
        if (spec.minimum is not None and number < spec.minimum) or (
            spec.maximum is not None and number > spec.maximum
        ):
            return f"{part.strip()} is outside {spec.minimum:g}..{spec.maximum:g}"
    return None


def _one_value_problem(name: str, text: str, spec: OptionSpec, *, kb_base: int) -> str | None:
    kind = spec.kind
    if kind == "int":
        return _int_problem(text, spec, kb_base=kb_base)
    if kind in ("time", "time_us"):
        return _time_problem(text, spec)
    if kind in ("bool", "flag"):
        if kind == "flag" and spec.engines and _NUMBER.fullmatch(text.strip()):
            return None  # HOWTO gives no type for some engine options (hipri_percentage, mss)
        try:
            parse_bool(text)
        except ValueError as exc:
            return str(exc)
        return None
    if kind == "choice":
        return _choice_problem(name, text, spec)
    if kind == "floats":
        return _floats_problem(text, spec)
    if kind in ("ranges", "size_text"):
        return _range_problem(text, kb_base=kb_base)
    if kind == "size_or_percent":
        stripped = text.strip()
        if stripped.endswith("%"):
            number = stripped[:-1].strip()
            fits = number.replace(".", "", 1).isdigit() and float(number) <= 100
            return None if fits else "expected a size or a percentage 0%..100%"
        return _int_problem(stripped, spec._replace(minimum=0), kb_base=kb_base)
    return None


def value_problem(name: str, value: str | None, *, kb_base: int = 1024) -> str | None:
    """Why fio would not read value for option name (fio's own name), None when it would."""
    spec = OPTIONS[name]
    if value is None or value == "":
        if spec.kind in ("flag", "bool", "str"):  # fio names logs itself for a bare write_*_log
            return None
        return "this option needs a value"
    if any(c in value for c in "\n\r\x00"):
        return "must be a single line without control characters"
    if spec.kind == "str" or (spec.kind == "choice" and not spec.per_direction):
        return _one_value_problem(name, value, spec, kb_base=kb_base)
    parts = value.split(",") if spec.per_direction else [value]
    if len(parts) > 3:
        return "at most three comma-separated values (read, write, trim)"
    for part in parts:
        if part.strip() or not spec.per_direction:
            problem = _one_value_problem(name, part, spec, kb_base=kb_base)
            if problem is not None:
                return problem
    return None
