"""Read pasted fio job files and command lines into raw options, then into FioJob models."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field

from storbench_fio.errors import FioJobError, OptionError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.options import (
    FLAG_OPTIONS,
    IGNORED_CLI_SWITCHES,
    REFUSED_CLI_SWITCHES,
    canonical_option_name,
    is_known_option,
)

__all__ = [
    "RawJob",
    "RawOption",
    "RawParse",
    "jobs_from_raw",
    "parse_command_line",
    "parse_fio_text",
    "parse_job_file",
    "parse_raw_command_line",
    "parse_raw_fio_text",
    "parse_raw_job_file",
]

_SECTION = re.compile(r"^\[(?P<name>[^\]]*)\]\s*$")
_FIO_PROGRAM = re.compile(r"(^|[\\/])fio(\.exe)?$", re.IGNORECASE)
_PROMPTS = frozenset({"$", "#", ">", "%", "PS>", "sudo"})
_JOB_FILE_SUFFIXES = (".fio", ".ini", ".job", ".cfg", ".conf", ".txt")


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
    """Jobs found in a paste plus problems that belong to no single option value."""

    jobs: list[RawJob]
    errors: list[OptionError] = field(default_factory=list)


def _strip_comment(line: str) -> str:
    """fio drops everything from the first ';' or '#' on a line."""
    cut = min((i for i in (line.find(";"), line.find("#")) if i >= 0), default=len(line))
    return line[:cut].strip()


def parse_raw_job_file(text: str) -> RawParse:
    """Sections and options of an INI job file, [global] merged into the jobs after it."""
    result = RawParse(jobs=[])
    globals_: list[RawOption] = []
    current: list[RawOption] | None = None
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw_line)
        if not line:
            continue
        where = f"line {number}"
        if (match := _SECTION.match(line)) is not None:
            name = match["name"].strip()
            if name == "global":
                current = globals_
            else:
                job = RawJob(name=name, options=list(globals_))
                result.jobs.append(job)
                current = job.options
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if key.startswith("include ") or key == "include":
            result.errors.append(
                OptionError(option="include", value=key[7:].strip(), reason=_INCLUDE_REASON)
            )
            continue
        if current is None:
            result.errors.append(
                OptionError(option=key, value=value.strip(), reason="option outside any [job]")
            )
            continue
        current.append(RawOption(key, value.strip() if sep else None, where))
    if not result.jobs and not result.errors:
        result.errors.append(OptionError(option="job", value="", reason="no [job] section"))
    return result


_INCLUDE_REASON = "include reads other files; paste their contents instead"


def _join_continuations(text: str) -> str:
    """Join shell (\\), cmd (^) and PowerShell (`) line continuations."""
    return re.sub(r"[\\^`][ \t]*\r?\n", " ", text)


def _split_words(text: str) -> list[str]:
    """Shell words; Windows commands keep backslashes in paths."""
    windows = re.search(r"fio\.exe", text, re.IGNORECASE) is not None or re.search(
        r"\b[A-Za-z]:\\", text
    )
    if not windows:
        return shlex.split(text, comments=False, posix=True)
    return shlex.split(text.replace("\\", "\\\\"), comments=False, posix=True)


def _looks_like_value(word: str) -> bool:
    return not word.startswith("-")


def parse_raw_command_line(text: str) -> RawParse:
    """Jobs of a pasted `fio --name=a --rw=read ...` command (options before --name are global)."""
    result = RawParse(jobs=[])
    try:
        words = _split_words(_join_continuations(text.strip()))
    except ValueError as exc:  # shlex: unbalanced quotes
        raise FioJobError(
            [OptionError(option="command", value="", reason=f"cannot split the command: {exc}")]
        ) from None
    while words and words[0] in _PROMPTS:
        words.pop(0)
    if words and _FIO_PROGRAM.search(words[0]):
        words.pop(0)
    globals_: list[RawOption] = []
    current = globals_
    index = 0
    while index < len(words):
        word = words[index]
        where = f"argument {index + 1}"
        index += 1
        if not word.startswith("-") or word in ("-", "--"):
            result.errors.append(_stray_word(word, index == len(words)))
            continue
        key, sep, value = word.lstrip("-").partition("=")
        option_value: str | None = value if sep else None
        cli_switch = (
            key in IGNORED_CLI_SWITCHES
            or key in REFUSED_CLI_SWITCHES
            or (key.startswith("trigger"))
        )
        known = is_known_option(key) or cli_switch
        if not sep and index < len(words) and _looks_like_value(words[index]):
            following = words[index]
            if not known and ("=" in following or is_known_option(key + following)):
                # "--io depth=32": a document broke the option name in two.
                result.errors.append(_broken_token(word, following))
                index += 1
                continue
            if known and key not in FLAG_OPTIONS and not _is_job_file(following, index, words):
                option_value = following
                index += 1
        if key == "name":
            job = RawJob(name=option_value or "", options=list(globals_))
            result.jobs.append(job)
            current = job.options
            continue
        current.append(RawOption(key, option_value, where, cli_switch=cli_switch))
    if not result.jobs and not result.errors:
        result.errors.append(OptionError(option="name", value="", reason="no --name=... job"))
    return result


def _is_job_file(word: str, index: int, words: list[str]) -> bool:
    return index == len(words) - 1 and word.lower().endswith(_JOB_FILE_SUFFIXES)


def _broken_token(first: str, second: str) -> OptionError:
    return OptionError(
        option=f"{first} {second}",
        value="",
        reason="option name split in two (a line break or space inside it?); rejoin it",
    )


def _stray_word(word: str, last: bool) -> OptionError:
    if last:
        return OptionError(
            option=word,
            value="",
            reason="job file arguments are not supported; paste the job file's contents",
        )
    return OptionError(option=word, value="", reason="unexpected argument (not an --option)")


_COMMAND_START = re.compile(
    r"""^(?:(?:\$|#|>|%|sudo)\s+)*(?:"[^"]*fio(?:\.exe)?"|'[^']*fio(?:\.exe)?'|\S*fio(?:\.exe)?)(?:\s|$)""",
    re.IGNORECASE,
)


def _looks_like_command(text: str) -> bool:
    """Whether the first meaningful line starts a fio command (or is just --options)."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("-") or _COMMAND_START.match(stripped):
            return True
        if not stripped.startswith((";", "#")):
            return False
    return False


def parse_raw_fio_text(text: str) -> RawParse:
    """Raw jobs from either a job file or a command line, whichever the text is."""
    if _looks_like_command(text):
        return parse_raw_command_line(text)
    return parse_raw_job_file(text)


def jobs_from_raw(raw: RawParse, *, extra_errors: Iterable[OptionError] = ()) -> list[FioJob]:
    """FioJob models for raw jobs, or FioJobError listing every problem at once."""
    errors = [*raw.errors, *extra_errors]
    # An option already refused (e.g. by safety) is not reported again as unsupported.
    reported = {(e.job, e.option) for e in errors}
    jobs: list[FioJob] = []
    for raw_job in raw.jobs:
        options: dict[str, object] = {"name": raw_job.name}
        refused: list[OptionError] = []
        for option in raw_job.options:
            if option.key in IGNORED_CLI_SWITCHES:
                continue
            if option.cli_switch:
                refused.append(
                    OptionError(
                        option=option.key,
                        value=option.value or "",
                        reason=REFUSED_CLI_SWITCHES.get(option.key, "fio switch not supported"),
                    )
                )
        options.update(raw_job.as_dict())
        try:
            jobs.append(validate_job_dict(options))
        except FioJobError as exc:
            refused.extend(exc.errors)
        errors.extend(
            e.model_copy(update={"job": raw_job.name or None})
            for e in refused
            if (raw_job.name or None, e.option) not in reported
        )
    unique = _merge_repeats(errors)
    if unique:
        raise FioJobError(unique)
    return jobs


def _merge_repeats(errors: list[OptionError]) -> list[OptionError]:
    """One entry per problem: a [global] option refused in every job is reported once."""
    merged: dict[tuple[str, str, str], OptionError] = {}
    for error in errors:
        key = (error.option, error.value, error.reason)
        if key in merged and merged[key].job != error.job:
            merged[key] = error.model_copy(update={"job": None})
        else:
            merged.setdefault(key, error)
    return list(merged.values())


def parse_job_file(text: str) -> list[FioJob]:
    """FioJob models from an INI job file, or FioJobError."""
    return jobs_from_raw(parse_raw_job_file(text))


def parse_command_line(text: str) -> list[FioJob]:
    """FioJob models from a pasted fio command line, or FioJobError."""
    return jobs_from_raw(parse_raw_command_line(text))


def parse_fio_text(text: str) -> list[FioJob]:
    """FioJob models from a job file or a command line, detected automatically."""
    return jobs_from_raw(parse_raw_fio_text(text))
