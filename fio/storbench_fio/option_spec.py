"""What fio's option table says of one option (the table itself is generated: _fio_option_table)."""

from __future__ import annotations

from typing import Literal, NamedTuple

# fio's value grammar, as `fio --cmdhelp=<name>` and HOWTO.rst name it: int (a number with k/m/g
# suffixes), time (seconds by default, with s/m/h/ms/us suffixes), time_us (the same in
# microseconds), bool, flag (bare or boolean), choice (one of values, with a :/, suffix fio reads
# itself), floats (':'-separated), ranges (1k-4k[,...]), size_or_percent, size_text and str.
Kind = Literal[
    "int",
    "time",
    "time_us",
    "bool",
    "flag",
    "choice",
    "floats",
    "ranges",
    "size_or_percent",
    "size_text",
    "str",
]


class OptionSpec(NamedTuple):
    """One option of fio's table."""

    kind: Kind
    aliases: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    values: tuple[str, ...] = ()
    per_direction: bool = False  # int[,int][,int]: read, write and trim values
    engines: tuple[str, ...] = ()  # an engine option: the engines that take it
    built: bool = True  # False: documented, but its engine is not built into this fio
