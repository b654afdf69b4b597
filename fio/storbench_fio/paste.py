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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

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

__all__ = ["parse_raw_command_line", "read_command"]

Dialect = Literal["posix", "cmd", "powershell"]

_JOB_FILE_SUFFIXES = (".fio", ".ini", ".job", ".cfg", ".conf", ".txt")
_WRAPPERS = frozenset({"sudo", "time", "nohup", "env", "exec", "doas", "command"})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)", re.DOTALL)
_WINDOWS_HINT = re.compile(
    r"fio\.exe|(?<![A-Za-z0-9])[A-Za-z]\\?:\\|(?:^|[\s=])\\\\\w|^[^\S\n]*PS[^\S\n]+[^>\n]*>",
    re.IGNORECASE | re.MULTILINE,
)
_POWERSHELL_HINT = re.compile(
    r"^[^\S\n]*PS[^\S\n]+[^>\n]*>|^[^\S\n]*\$(?:env:)?[A-Za-z_]\w*[^\S\n]*=|`[^\S\n]*\n",
    re.IGNORECASE | re.MULTILINE,
)
_CMD_PROMPT = re.compile(r"[^\S\n]*(?:PS[^\S\n]+)?[A-Za-z]:\\[^>\n\"=]*>[^\S\n]*", re.IGNORECASE)
_PS_PROMPT = re.compile(r"[^\S\n]*PS[^\S\n]+[^>\n]*>[^\S\n]*")
# `$ `, `# `, `% `, `user@host:~/dir$ `, `[me@host dir]# `, `bash-5.1$ ` (a `#` then a blank is a
# root prompt); not "50% " (a value a document's layout put at the start of a line).
_SHELL_PROMPT = re.compile(
    r"[^\S\n]*(?:\[[^\]\n]*\]|[\w.-]*@[\w.:~/+-]*|~[\w./-]*|[A-Za-z][\w.-]*)?[$#%][^\S\n]+"
)
_SECOND_PROMPT = re.compile(r"[^\S\n]*>[^\S\n]+")
_REDIRECTIONS = frozenset({">", ">>", "<", "2>", "2>>", "&>"})
# Longest first; cmd has no ';' separator.
_OPERATORS = {
    "posix": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><;]"),
    "cmd": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><]"),
    "powershell": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><;]"),
}
_PLACEHOLDER = re.compile(r"<[\w.-]+>")
_CONTINUATION = {"posix": "\\", "cmd": "^", "powershell": "`"}
_ESCAPE = _CONTINUATION  # each shell's escape character is also its line continuation
_POWERSHELL_ASSIGNMENT = re.compile(r"\$(?:env:)?([A-Za-z_]\w*)[^\S\n]*=[^\S\n]*")
_COMMAND_START = re.compile(
    r"""(?:(?:sudo|time|nohup)\s+)*(?:"[^"\n]*fio(?:\.exe)?"|'[^'\n]*fio(?:\.exe)?'|\S*fio(?:\.exe)?)(?:\s|$)""",
    re.IGNORECASE,
)
_EXPORT_OR_SET = re.compile(r"(?:export|set)\s", re.IGNORECASE)
_STATEMENT_START = re.compile(
    r"(?:export\s|set\s|\$(?:env:)?[A-Za-z_]\w*\s*=|[A-Za-z_]\w*=)", re.IGNORECASE
)


@dataclass
class Word:
    """One word of a statement after quotes, escapes and variables were read."""

    text: str
    layout_break: bool = False  # a line break with no blank before it separates it from the last
    unset: list[str] = field(default_factory=list)  # variables it uses that the paste never set
    refused: str | None = None  # why it cannot be read (command substitution ...)
    expanded: list[str] = field(default_factory=list)  # variables replaced by their values


@dataclass
class _Statement:
    words: list[Word]
    after_pipe: bool = False
    redirects: list[str] = field(default_factory=list)


def _dialect(text: str) -> Dialect:
    if _WINDOWS_HINT.search(text) is None and _POWERSHELL_HINT.search(text) is None:
        return "posix"
    return "powershell" if _POWERSHELL_HINT.search(text) else "cmd"


def _strip_prompt(line: str) -> tuple[str, bool]:
    """The line without a leading prompt, and whether there was one."""
    for pattern in (_PS_PROMPT, _CMD_PROMPT, _SHELL_PROMPT):
        match = pattern.match(line)
        if match is None:
            continue
        prompt = match[0]
        # "C:\fio\fio.exe --x=1 > out" is a command with a redirection, not a prompt.
        if pattern is not _SHELL_PROMPT and (" -" in prompt or "fio.exe" in prompt.lower()):
            continue
        return line[match.end() :], True
    return line, False


def _logical_lines(text: str, dialect: Dialect) -> list[tuple[str, bool]]:
    """(line, prompted) with continuations joined and prompts left out."""
    mark = _CONTINUATION[dialect]
    lines: list[tuple[list[str], bool]] = []
    continued = False
    for physical in text.split("\n"):
        if continued:
            second = _SECOND_PROMPT.match(physical)
            line = physical[second.end() :] if second else physical
        else:
            line, prompted = _strip_prompt(physical)
        stripped = line.rstrip()
        ends_continued = stripped.endswith(mark) and not stripped.endswith(mark * 2)
        if ends_continued:
            line = stripped[: -len(mark)] + " "
        if continued and lines:
            lines[-1][0].append(line)
        else:
            lines.append(([line], prompted))
        continued = ends_continued
    return [("".join(parts), prompted) for parts, prompted in lines]


def _is_fio_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("-") or _COMMAND_START.match(stripped) is not None


def _statement_groups(lines: list[tuple[str, bool]]) -> list[str]:
    """Lines grouped into statements: a fio command's lines a document's layout wrapped stay one."""
    groups: list[list[str]] = []
    in_fio = False
    for line, prompted in lines:
        stripped = line.strip()
        starts = (
            not groups
            or prompted
            or not in_fio
            or _COMMAND_START.match(stripped) is not None
            or _EXPORT_OR_SET.match(stripped) is not None
            or (_STATEMENT_START.match(stripped) is not None and not _ends_in_name(groups[-1][-1]))
        )
        if starts:
            groups.append([line])
            in_fio = any(_is_fio_line(part) for part in re.split(r"[;&|]", line))
        else:
            groups[-1].append(line)
    return ["\n".join(group) for group in groups]


def _ends_in_name(line: str) -> bool:
    """Whether a line ends in an option name cut short ('--iode'): the next line may finish it."""
    if not line or line[-1].isspace():
        return False
    last = line.rsplit(None, 1)[-1]
    return last.startswith("-") and "=" not in last


class _Tokenizer:
    """Words and statements of one group of lines, read as its shell would (no execution)."""

    def __init__(self, text: str, dialect: Dialect, variables: dict[str, str | None]) -> None:
        self.text = text
        self.dialect = dialect
        self.variables = variables
        self.pos = 0
        self.pending_prefix = ""  # PowerShell's "$X = " read as "X=" in front of the value

    def statements(self) -> Iterator[_Statement]:
        statement = _Statement(words=[])
        text, n = self.text, len(self.text)
        last_end = 0
        redirect_next = False
        while True:
            self._skip_blanks()
            if self.pos >= n:
                break
            char = text[self.pos]
            if char == "#" and self.dialect == "posix":
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end
                continue
            operator = self._operator()
            if operator is not None:
                if operator == "2>&1":
                    continue  # errors into the output: nothing to read
                if operator in _REDIRECTIONS:
                    redirect_next = True
                    continue
                if statement.words or statement.redirects:
                    yield statement
                statement = _Statement(words=[], after_pipe=operator == "|")
                continue
            separator = text[last_end : self.pos]
            if self.dialect == "powershell" and not statement.words:
                self._powershell_assignment()
            word = self._word()
            word.layout_break = separator.startswith("\n") and separator.count("\n") == 1
            last_end = self.pos
            if redirect_next:
                statement.redirects.append(word.text)
                redirect_next = False
            else:
                statement.words.append(word)
        if statement.words or statement.redirects:
            yield statement

    def _skip_blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def _operator(self) -> str | None:
        """A statement separator or redirection starting at pos (consumed), or None."""
        if self.text[self.pos] not in "2&|<>;":
            return None
        if self.text[self.pos] == "<" and _PLACEHOLDER.match(self.text, self.pos):
            return None  # a guide's <placeholder>, not a redirection
        match = _OPERATORS[self.dialect].match(self.text, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return match[0]

    def _powershell_assignment(self) -> None:
        match = _POWERSHELL_ASSIGNMENT.match(self.text, self.pos)
        if match is not None:
            self.pending_prefix = match[1] + "="
            self.pos = match.end()

    def _word(self) -> Word:
        word = Word(text="")
        chars: list[str] = [self.pending_prefix]
        self.pending_prefix = ""
        text, n = self.text, len(self.text)
        quote: str | None = None
        while self.pos < n:
            char = text[self.pos]
            if quote is None:
                if char in " \t\r\n" or self._ends_word(char):
                    break
                if char in "'\"" and (char == '"' or self.dialect != "cmd"):
                    quote = char
                    self.pos += 1
                    continue
                if self._escape(char):
                    if self.pos + 1 < n:
                        chars.append(text[self.pos + 1])
                    self.pos += 2
                    continue
            elif char == quote:
                quote = None
                self.pos += 1
                continue
            elif quote == '"' and self._escape(char) and self.pos + 1 < n:
                following = text[self.pos + 1]
                if self.dialect == "powershell" or following in '"\\$`':
                    chars.append(following)
                    self.pos += 2
                    continue
            if (quote != "'" or self.dialect == "cmd") and self._expand(word, chars):
                continue
            chars.append(char)
            self.pos += 1
        if quote is not None:
            word.refused = f"a {quote} quote is not closed"
        word.text = "".join(chars)
        return word

    def _ends_word(self, char: str) -> bool:
        # '<' and '>' inside a word are a guide's placeholders (\\<server>\<share>), kept.
        if char in "|&":
            return True
        return char == ";" and self.dialect != "cmd"

    def _escape(self, char: str) -> bool:
        return char == _ESCAPE[self.dialect]

    def _expand(self, word: Word, chars: list[str]) -> bool:
        """Replace a variable reference at pos; False when there is none."""
        text, pos = self.text, self.pos
        if self.dialect == "cmd":
            if text[pos] != "%":
                return False
            end = text.find("%", pos + 1)
            name = text[pos + 1 : end] if end > 0 else ""
            if not _IDENTIFIER.fullmatch(name):
                return False
            self.pos = end + 1
            return self._use(word, chars, name, f"%{name}%")
        if (text[pos] == "`" and self.dialect == "posix") or text.startswith("$(", pos):
            word.refused = "command substitution runs a program: write the value instead"
            self.pos = len(text)
            return True
        if text[pos] != "$":
            return False
        if self.dialect == "powershell" and text[pos + 1 : pos + 5].lower() == "env:":
            match = _IDENTIFIER.match(text, pos + 5)
            if match is None:
                return False
            self.pos = match.end()
            return self._use(word, chars, match[0], text[pos : match.end()])
        if text.startswith("${", pos):
            end = text.find("}", pos)
            name = text[pos + 2 : end] if end > 0 else ""
            if not _IDENTIFIER.fullmatch(name):
                word.refused = "shell parameter expansion ${...} is not supported: write the value"
                self.pos = len(text) if end < 0 else end + 1
                return True
            self.pos = end + 1
            return self._use(word, chars, name, text[pos : end + 1])
        match = _IDENTIFIER.match(text, pos + 1)
        if match is None:
            return False
        self.pos = match.end()
        return self._use(word, chars, match[0], text[pos : match.end()])

    def _use(self, word: Word, chars: list[str], name: str, written: str) -> bool:
        value = self.variables.get(name)
        if value is None:
            word.unset.append(name)
            chars.append(written)
        else:
            word.expanded.append(name)
            chars.append(value)
        return True


# ---- statements ----------------------------------------------------------------------------


@dataclass
class _Reading:
    """What the paste's statements amount to: the fio command's words and what else was seen."""

    fio_words: list[Word] | None = None
    fio_commands: int = 0
    notices: list[Notice] = field(default_factory=list)


def _read_statements(text: str) -> _Reading:
    dialect = _dialect(text)
    variables: dict[str, str | None] = {}
    reading = _Reading()
    for group in _statement_groups(_logical_lines(text.replace("\r\n", "\n"), dialect)):
        for statement in _Tokenizer(group, dialect, variables).statements():
            _read_statement(statement, dialect, variables, reading)
    return reading


def _read_statement(
    statement: _Statement, dialect: Dialect, variables: dict[str, str | None], reading: _Reading
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
        following = words[index] if index < len(words) else None
        joined = _rejoined(text, following, last=index == len(words) - 1)
        if joined is not None and following is not None:
            result.notices.append(
                Notice(
                    option=_option_of(joined),
                    value=joined.partition("=")[2],
                    message=f"'{text}' and '{following.text}' were on two lines (a document's "
                    f"layout broke the word): read as {joined}",
                )
            )
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


def _rejoined(text: str, following: Word | None, *, last: bool) -> str | None:
    """The word a document's line break split in two, when rejoining gives a known option."""
    if following is None or not following.layout_break or following.text.startswith("-"):
        return None
    key, sep, value = text.lstrip("-").partition("=")
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
