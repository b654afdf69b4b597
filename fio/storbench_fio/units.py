"""fio's unit grammar: sizes, times and booleans as fio itself reads them."""

from __future__ import annotations

import re

# fio (parse.c get_mult_bytes) only treats the three-letter forms "kib", "mib", ... as IEC;
# "4ki" is read like "4k". With the default kb_base=1024 the IEC forms mean powers of
# 1000 (fio's backwards-compatible inversion): fio 3.33 runs size=4KiB as 4000 bytes.
_POWERS = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_SIZE_RE = re.compile(r"(?P<num>0x[0-9a-f]+|\d+)(?P<suffix>[a-z]*)", re.IGNORECASE)
_TIME_RE = re.compile(r"(?P<num>\d+(?:\.\d+)?)(?P<suffix>[a-z]*)", re.IGNORECASE)
_TIME_UNITS_US = {
    "": 1_000_000,
    "s": 1_000_000,
    "sec": 1_000_000,
    "m": 60_000_000,
    "min": 60_000_000,
    "h": 3_600_000_000,
    "d": 86_400_000_000,
    "ms": 1_000,
    "msec": 1_000,
    "us": 1,
    "usec": 1,
}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}

MAX_BYTES = 1 << 60  # 1 EiB: anything larger is a typo, not a benchmark


def size_multiplier(suffix: str, kb_base: int = 1024) -> int:
    """Bytes per unit for a fio size suffix (k, KiB, mb, b ...) under kb_base."""
    s = suffix.lower()
    if s in ("", "b"):
        return 1
    letter = s[0]
    if letter not in _POWERS or s[1:] not in ("", "b", "i", "ib"):
        raise ValueError(f"unknown size unit {suffix!r}")
    power = _POWERS[letter]
    iec = s[1:] == "ib"
    base = (1000 if kb_base == 1024 else 1024) if iec else kb_base
    return int(base**power)


def parse_size(value: object, *, kb_base: int = 1024, allow_zero: bool = False) -> int:
    """Read a fio size ("4k", "1MiB", "0x1000", 4096) as a whole number of bytes."""
    if isinstance(value, bool):
        raise ValueError("expected a size, not a boolean")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if text.startswith("-"):
            raise ValueError("must not be negative")
        match = _SIZE_RE.fullmatch(text)
        if match is None:
            if re.fullmatch(r"\d+\.\d+[a-zA-Z]*", text):
                # fio would silently drop the fraction ("1.5m" is 1 byte to fio).
                raise ValueError("fractional sizes are not allowed; use a smaller unit")
            raise ValueError(f"not a fio size: {value!r}")
        raw = match["num"]
        digits = int(raw, 16) if raw.lower().startswith("0x") else int(raw)
        number = digits * size_multiplier(match["suffix"], kb_base)
    else:
        raise ValueError(f"expected a size, got {type(value).__name__}")
    if number < 0:
        raise ValueError("must not be negative")
    if number == 0 and not allow_zero:
        raise ValueError("must be greater than zero")
    if number > MAX_BYTES:
        raise ValueError("absurdly large (over 1 EiB)")
    return number


def parse_percent(value: str) -> int | None:
    """Return N for an "N%" string (1..100), None when the value is not a percentage."""
    text = value.strip()
    if not text.endswith("%"):
        return None
    number = text[:-1].strip()
    if not number.isdigit():
        raise ValueError(f"not a percentage: {value!r}")
    pct = int(number)
    if not 1 <= pct <= 100:
        raise ValueError("percentage must be between 1 and 100")
    return pct


def parse_time_us(value: object, *, default_unit: str = "s") -> int:
    """Read a fio time ("60", "1m", "500ms", "2h") as whole microseconds."""
    if isinstance(value, bool):
        raise ValueError("expected a time, not a boolean")
    if isinstance(value, int | float):
        if value < 0:
            raise ValueError("must not be negative")
        return round(value * _TIME_UNITS_US[default_unit])
    if not isinstance(value, str):
        raise ValueError(f"expected a time, got {type(value).__name__}")
    text = value.strip()
    if text.startswith("-"):
        raise ValueError("must not be negative")
    match = _TIME_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a fio time: {value!r}")
    suffix = match["suffix"].lower() or default_unit
    if suffix not in _TIME_UNITS_US:
        raise ValueError(f"unknown time unit {match['suffix']!r} (use s, m, h, d, ms or us)")
    return round(float(match["num"]) * _TIME_UNITS_US[suffix])


def parse_seconds(value: object) -> int:
    """Read a fio time as whole seconds, refusing fractions fio would round away."""
    micros = parse_time_us(value)
    if micros % 1_000_000:
        raise ValueError("must be a whole number of seconds")
    return micros // 1_000_000


def parse_bool(value: object) -> bool:
    """Read a fio boolean: 1/0, true/false, or the bare option (None or "")."""
    if value is None or isinstance(value, bool):
        return True if value is None else value
    if isinstance(value, int):
        if value in (0, 1):
            return bool(value)
        raise ValueError("expected 0 or 1")
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "" or text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise ValueError(f"expected a boolean (1/0, true/false), got {value!r}")


def format_size(number: int) -> str:
    """Render bytes the shortest way fio reads back exactly under kb_base=1024 ("4k", "1m")."""
    for letter, power in sorted(_POWERS.items(), key=lambda kv: -kv[1]):
        unit = 1024**power
        if number >= unit and number % unit == 0:
            return f"{number // unit}{letter}"
    return str(number)
