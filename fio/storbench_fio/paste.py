r"""Read a fio command pasted from a terminal or a vendor guide, as the guide meant it.

What a terminal or a document adds around the command is understood, and every reading that is
not the literal text is reported as a Notice, so nothing is changed silently:
- prompts (`$ `, `# `, `% `, `user@host:~$ `, `C:\dir>`, `PS C:\dir>`) are left out;
- line continuations (`\` in a POSIX shell, `^` in cmd, a backquote in PowerShell) join lines;
- shell variables set earlier in the paste (`DIR=/mnt/nas; fio --directory=$DIR`,
  `export X=...`, cmd's `set X=...` and `%X%`, PowerShell's `$X = ...`) are replaced by their
  values; a variable the paste does not set is refused for the option that uses it;
- a line break a document's layout put inside an option name or value is rejoined when the joined
  word is a known fio option (or a value fio accepts for the option);
- Windows commands keep their backslashes: in `--directory=Z\:\` (fio's escaped drive colon) the
  trailing backslash is part of the path, not a continuation; a quoted program path with stray
  spaces (`"c:\Program Files\ fio\ fio.exe"`) is the program.
Whatever else cannot be understood is refused per option with a reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from storbench_fio.errors import FioJobError, Notice, OptionError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.options import (
    FLAG_OPTIONS,
    IGNORED_CLI_SWITCHES,
    REFUSED_CLI_SWITCHES,
    canonical_option_name,
    is_known_option,
)
from storbench_fio.raw import RawJob, RawOption, RawParse
from storbench_fio.shell import Dialect, Statement, Word, detect_dialect, statements

__all__ = ["parse_raw_command_line", "read_command"]

_JOB_FILE_SUFFIXES = (".fio", ".ini", ".job", ".cfg", ".conf", ".txt")
_WRAPPERS = frozenset({"sudo", "time", "nohup", "env", "exec", "doas", "command"})
_ASSIGNMENT = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)", re.DOTALL)

# ---- statements ----------------------------------------------------------------------------


@dataclass
class _Reading:
    """What the paste's statements amount to: the fio command's words and what else was seen."""

    fio_words: list[Word] | None = None
    fio_commands: int = 0
    notices: list[Notice] = field(default_factory=list)


def _read_statements(text: str) -> _Reading:
    dialect = detect_dialect(text)
    variables: dict[str, str | None] = {}
    reading = _Reading()
    for statement in statements(text, dialect, variables):
        _read_statement(statement, dialect, variables, reading)
    return reading


def _read_statement(
    statement: Statement, dialect: Dialect, variables: dict[str, str | None], reading: _Reading
) -> None:
    words = list(statement.words)
    shown = " ".join(w.text for w in words)
    if statement.after_pipe:
        reading.notices.append(
            Notice(
                option="command",
                value=shown,
                message="reads fio's output: left out (storbench keeps fio's output itself)",
            )
        )
        return
    if words and words[0].text.lower() in ("export", "set", "declare", "local"):
        first = words.pop(0).text.lower()
        if first == "set" and dialect == "cmd":
            joined = " ".join(w.text for w in words)
            words = [Word(text=joined, unset=[n for w in words for n in w.unset])] if words else []
        _assign(words, variables)
        return
    prefix = 0
    while prefix < len(words) and _ASSIGNMENT.fullmatch(words[prefix].text):
        prefix += 1
    if prefix == len(words):
        _assign(words, variables)
        return
    program_end = _program_end(words[prefix:], dialect)
    if program_end is not None:
        start = prefix + program_end
        for assigned in words[:prefix]:
            reading.notices.append(
                Notice(
                    option="command",
                    value=assigned.text,
                    message="an assignment in front of fio sets only fio's environment: "
                    "left out (it does not change the options)",
                )
            )
    elif words[prefix].text.startswith("-"):
        start = prefix
    else:
        reading.notices.append(Notice(option="command", value=shown, message=_LEFT_OUT))
        return
    reading.fio_commands += 1
    if reading.fio_words is None:
        reading.fio_words = words[start:]
    for target in statement.redirects:
        reading.notices.append(
            Notice(
                option="command",
                value=target,
                message="output redirection left out: storbench keeps fio's output",
            )
        )


_LEFT_OUT = "not a fio command: left out (storbench runs only fio)"


def _assign(words: list[Word], variables: dict[str, str | None]) -> None:
    for word in words:
        match = _ASSIGNMENT.fullmatch(word.text)
        if match is not None:
            # A value built from a variable the paste never set is itself unknown.
            variables[match["name"]] = None if word.unset else match["value"]


def _program_end(words: list[Word], dialect: Dialect) -> int | None:
    """How many words the program (and sudo, time ...) takes, or None when it is not fio."""
    index = 0
    while index < len(words) and words[index].text in _WRAPPERS:
        index += 1
        while index < len(words) and (
            words[index].text.startswith("-") or _ASSIGNMENT.fullmatch(words[index].text)
        ):
            index += 1
    # An unquoted Windows path with blanks splits into several words: "C:\Program Files\fio.exe".
    widest = 1 if dialect == "posix" else 4
    for width in range(1, widest + 1):
        parts = words[index : index + width]
        if len(parts) < width or any(p.text.startswith("-") for p in parts):
            break
        if _is_program_path(" ".join(p.text for p in parts)):
            return index + width
    return None


def _is_program_path(text: str) -> bool:
    """A path whose last part (stray blanks allowed) is fio or fio.exe."""
    last = re.split(r"[\\/]", text)[-1].strip()
    return last.lower() in ("fio", "fio.exe")


def read_command(text: str) -> RawParse | None:
    """The jobs of the fio command the paste holds; None when it holds none (a job file?)."""
    if re.search(r"^[^\S\n]*\[[^\]\n]*\][^\S\n]*$", text, re.MULTILINE):
        return None  # a [section] line: a job file
    reading = _read_statements(text)
    return _command_jobs(reading) if reading.fio_commands else None


# ---- the fio command's arguments -----------------------------------------------------------


def _known(key: str) -> bool:
    return is_known_option(key) or _is_cli_switch(key)


def _is_cli_switch(key: str) -> bool:
    return key in IGNORED_CLI_SWITCHES or key in REFUSED_CLI_SWITCHES or key.startswith("trigger")


def _value_fits(key: str, value: str) -> bool:
    """Whether fio's value grammar (as storbench models it) accepts value for this option."""
    name = canonical_option_name(key)
    if name not in FioJob.model_fields:
        return False
    base: dict[str, object] = {"name": "x", "rw": "read"}
    try:
        validate_job_dict({**base, name: value})
    except FioJobError:
        return False
    return True


def parse_raw_command_line(text: str) -> RawParse:
    """Jobs of a pasted `fio --name=a --rw=read ...` command (options before --name are global)."""
    return _command_jobs(_read_statements(text))


def _command_jobs(reading: _Reading) -> RawParse:
    result = RawParse(jobs=[], notices=list(reading.notices))
    if reading.fio_commands > 1:
        result.errors.append(
            OptionError(
                option="command",
                value="",
                reason=f"{reading.fio_commands} fio commands in one paste: paste one at a time "
                "(each is a run of its own)",
            )
        )
    _read_arguments(reading.fio_words or [], result)
    if not result.jobs and not result.errors:
        result.errors.append(OptionError(option="name", value="", reason="no --name=... job"))
    return result


def _read_arguments(words: list[Word], result: RawParse) -> None:
    globals_: list[RawOption] = []
    current = globals_
    index = 0
    while index < len(words):
        word = words[index]
        where = f"argument {index + 1}"
        index += 1
        text = word.text
        if word.refused is not None:
            result.errors.append(
                OptionError(option=_option_of(text), value="", reason=word.refused)
            )
            continue
        if not text.startswith("-") or text in ("-", "--"):
            result.errors.append(_stray_word(text, index == len(words)))
            continue
        if word.line_start:
            result.notices.append(_wrapped_line(text))
        following = words[index] if index < len(words) else None
        joined = _rejoined(text, following, last=index == len(words) - 1)
        if joined is not None and following is not None:
            result.notices.append(_rejoin_notice(text, following.text, joined))
            word = Word(
                text=joined,
                unset=word.unset + following.unset,
                expanded=word.expanded + following.expanded,
                refused=following.refused,
            )
            text = joined
            index += 1
            following = words[index] if index < len(words) else None
        key, sep, value = text.lstrip("-").partition("=")
        option_value: str | None = value if sep else None
        used = [word]
        cli_switch = _is_cli_switch(key)
        known = is_known_option(key) or cli_switch
        if not sep and following is not None and not following.text.startswith("-"):
            if not known and ("=" in following.text or is_known_option(key + following.text)):
                # "--io depth=32": the name was split by a blank, not by a line break.
                result.errors.append(_broken_token(text, following.text))
                index += 1
                continue
            if known and key not in FLAG_OPTIONS and not _is_job_file(following.text, index, words):
                option_value = following.text
                used.append(following)
                index += 1
        if key in ("filename", "directory") and option_value is not None:
            rest = _rest_of_path(option_value, words, index)
            if rest:
                option_value = " ".join([option_value, *rest])
                index += len(rest)
                result.notices.append(_unquoted_blanks(key, option_value))
        problem = _variable_problem(used)
        if problem is not None:
            result.errors.append(OptionError(option=key, value=option_value or "", reason=problem))
            continue
        if any(w.refused for w in used):
            reason = next(w.refused for w in used if w.refused)
            result.errors.append(OptionError(option=key, value="", reason=reason))
            continue
        for name in dict.fromkeys(n for w in used for n in w.expanded):
            result.notices.append(
                Notice(
                    option=key,
                    value=option_value or "",
                    message=f"${name} replaced by the value the paste set earlier",
                )
            )
        if key == "name":
            job = RawJob(name=option_value or "", options=list(globals_))
            result.jobs.append(job)
            current = job.options
            continue
        current.append(RawOption(key, option_value, where, cli_switch=cli_switch))


_WINDOWS_PLACE = re.compile(r"\\\\|[A-Za-z]\\?:\\")


def _rest_of_path(value: str, words: list[Word], index: int) -> list[str]:
    """The rest of a Windows path a guide printed with blanks and no quotes
    (`\\\\server\\share name\\dir`): the words after it up to the next option."""
    rest: list[str] = []
    if not _WINDOWS_PLACE.match(value):
        return rest
    while index + len(rest) < len(words):
        following = words[index + len(rest)]
        if following.text.startswith("-") or _is_job_file(following.text, index + len(rest), words):
            break
        rest.append(following.text)
    return rest


def _unquoted_blanks(key: str, path: str) -> Notice:
    return Notice(
        option=key,
        value=path,
        message="the blanks in this path were not quoted: read as one path (in a shell, "
        "quote a path with blanks)",
    )


def _rejoin_notice(first: str, second: str, joined: str) -> Notice:
    return Notice(
        option=_option_of(joined),
        value=joined.partition("=")[2],
        message=f"'{first}' and '{second}' were on two lines (a document's layout broke the "
        f"word): read as {joined}",
    )


def _wrapped_line(first: str) -> Notice:
    return Notice(
        option=_option_of(first),
        value="",
        message=f"the line starting {first} goes on with the fio command, though the line before "
        "it does not end in '\\' (a document or a terminal wrapped it): read as part of it",
    )


def _rejoined(text: str, following: Word | None, *, last: bool) -> str | None:
    """The word a document's line break split in two, when rejoining gives a known option."""
    if following is None or not following.layout_break:
        return None
    key, sep, value = text.lstrip("-").partition("=")
    if following.text.startswith("-"):
        # "-time_base" + "-d": a hyphenation break carried its hyphen to the next line.
        joined = text + following.text[1:]
        rest = following.text.lstrip("-").partition("=")[0]
        if not sep and not _known(key) and not _known(rest) and _known(_option_of(joined)):
            return joined
        return None
    joined = text + following.text
    joined_key = joined.lstrip("-").partition("=")[0]
    if not sep:
        # "--iode" + "pth=32", "--rw" + "mixread=50": a broken option name.
        if _known(joined_key) and (not _known(key) or "=" in following.text):
            return joined
        return None
    if last and following.text.lower().endswith(_JOB_FILE_SUFFIXES):
        return None
    # "--rw=randre" + "ad": a broken value, kept only when fio accepts the joined value.
    if _known(key) and _value_fits(key, value + following.text):
        return joined
    return None


def _variable_problem(words: list[Word]) -> str | None:
    names = list(dict.fromkeys(n for w in words for n in w.unset))
    if not names:
        return None
    shown = ", ".join(f"${n}" for n in names)
    return (
        f"{shown} is not set earlier in the paste (the shell would fill it in from its own "
        "environment): set it before the command (DIR=/mnt/nas), or write the value"
    )


def _option_of(text: str) -> str:
    return text.lstrip("-").partition("=")[0] or text


def _is_job_file(word: str, index: int, words: list[Word]) -> bool:
    return index == len(words) - 1 and word.lower().endswith(_JOB_FILE_SUFFIXES)


def _broken_token(first: str, second: str) -> OptionError:
    return OptionError(
        option=f"{first} {second}",
        value="",
        reason="option name split in two (a blank or a line break inside it?); rejoin it",
    )


def _stray_word(word: str, last: bool) -> OptionError:
    if last:
        return OptionError(
            option=word,
            value="",
            reason="job file arguments are not supported; paste the job file's contents",
        )
    return OptionError(option=word, value="", reason="unexpected argument (not an --option)")
