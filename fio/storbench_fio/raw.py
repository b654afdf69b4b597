"""Options of a pasted job file or command exactly as written, before any validation."""

from __future__ import annotations

from dataclasses import dataclass, field

from storbench_fio.errors import Notice, OptionError
from storbench_fio.options import canonical_option_name

__all__ = ["RawJob", "RawOption", "RawParse"]


@dataclass(frozen=True)
class RawOption:
    """One option exactly as written; value None is fio's bare `key` form."""

    key: str
    value: str | None
    where: str
    cli_switch: bool = False  # a fio program switch (--output...), not a job option


@dataclass
class RawJob:
    """One job's options in order, [global] ones first; later ones override earlier."""

    name: str
    options: list[RawOption] = field(default_factory=list)

    def as_dict(self) -> dict[str, str | None]:
        """Effective job options (aliases folded, last one wins), program switches left out."""
        effective: dict[str, str | None] = {}
        for option in self.options:
            if not option.cli_switch:
                effective[canonical_option_name(option.key)] = option.value
        return effective


@dataclass
class RawParse:
    """Jobs found in a paste, problems that belong to no single option value, and notices.

    A notice tells what was read differently from the literal text (a line break inside an
    option rejoined, a shell variable replaced by its value, a prompt left out) so that nothing
    is changed silently.
    """

    jobs: list[RawJob]
    errors: list[OptionError] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
