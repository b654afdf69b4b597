"""Read pasted fio job files and command lines into raw options, then into FioJob models."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from storbench_fio.errors import FioJobError, Notice, OptionError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.options import IGNORED_CLI_SWITCHES, REFUSED_CLI_SWITCHES
from storbench_fio.paste import parse_raw_command_line, read_command
from storbench_fio.raw import RawJob, RawOption, RawParse

__all__ = [
    "ParsedPaste",
    "RawJob",
    "RawOption",
    "RawParse",
    "jobs_from_raw",
    "parse_command_line",
    "parse_fio_paste",
    "parse_fio_text",
    "parse_job_file",
    "parse_raw_command_line",
    "parse_raw_fio_text",
    "parse_raw_job_file",
]

_SECTION = re.compile(r"^\[(?P<name>[^\]]*)\]\s*$")


class ParsedPaste(BaseModel):
    """The jobs a paste holds, and what was read differently from its literal text (notices)."""

    model_config = ConfigDict(frozen=True)

    jobs: list[FioJob]
    notices: list[Notice] = []


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


def parse_raw_fio_text(text: str) -> RawParse:
    """Raw jobs from either a job file or a command line, whichever the text is."""
    command = read_command(text)
    return command if command is not None else parse_raw_job_file(text)


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


def parse_fio_paste(text: str) -> ParsedPaste:
    """parse_fio_text plus the notices saying how the paste was read (rejoined lines, variables).

    The jobs are as written; `framing.frame_jobs` turns them into the jobs storbench runs."""
    raw = parse_raw_fio_text(text)
    return ParsedPaste(jobs=jobs_from_raw(raw), notices=raw.notices)
