"""Words and statements of pasted shell text, read as POSIX sh, cmd or PowerShell would (no run).

Prompts are left out, continuations joined, quotes and escapes read, variables set earlier in the
paste replaced (a variable it never sets is kept as written and named in Word.unset), and a line
break with no blank before it (a document's layout) is marked on the word after it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Dialect", "Statement", "Word", "detect_dialect", "statements"]

Dialect = Literal["posix", "cmd", "powershell"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
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
# root prompt), TrueNAS's `root@truenas[/mnt/pool]# `, zsh's `user@host ~ % `, and `$`/`#` glued
# to the command (`$fio ...`, as vendor guides print it); not "50% " (a value a document's layout
# put at the start of a line).
_SHELL_PROMPT = re.compile(
    r"[^\S\n]*(?:\[[^\]\n]*\]|[\w.-]*@[\w.:~/+-]*(?:\[[^\]\n]*\])?(?:[^\S\n]+~[\w./-]*)?[^\S\n]*"
    r"|~[\w./-]*|[A-Za-z][\w.-]*)?(?:[$#%][^\S\n]+|[$#](?=(?:sudo[^\S\n]+)?fio(?:\.exe)?\s))"
)
_SECOND_PROMPT = re.compile(r"[^\S\n]*>[^\S\n]+")
_REDIRECTIONS = frozenset({">", ">>", "<", "2>", "2>>", "&>"})
# Longest first; cmd has no ';' separator.
_OPERATORS = {
    "posix": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><;]"),
    "cmd": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><]"),
    "powershell": re.compile(r"2>&1|&&|\|\||2>>|>>|2>|&>|[|&><;]"),
}
# A guide's <placeholder>, blanks inside allowed (<your share>); not "< jobs.fio >" (redirections).
_PLACEHOLDER = re.compile(r"<[\w.-](?:[\w .-]*[\w.-])?>")
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
    line_start: bool = False  # it starts a line the statement went on to without a continuation
    split: bool = False  # holds an unquoted variable: the shell splits its value at blanks
    unset: list[str] = field(default_factory=list)  # variables it uses that the paste never set
    refused: str | None = None  # why it cannot be read (command substitution ...)
    expanded: list[str] = field(default_factory=list)  # variables replaced by their values


@dataclass
class Statement:
    words: list[Word]
    after_pipe: bool = False
    redirects: list[str] = field(default_factory=list)


def detect_dialect(text: str) -> Dialect:
    """The shell the paste was written for: Windows paths, fio.exe or a PowerShell prompt tell."""
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

    def statements(self) -> Iterator[Statement]:
        statement = Statement(words=[])
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
                statement = Statement(words=[], after_pipe=operator == "|")
                continue
            separator = text[last_end : self.pos]
            if self.dialect == "powershell" and not statement.words:
                self._powershell_assignment()
            word = self._word()
            word.layout_break = separator.startswith("\n") and separator.count("\n") == 1
            word.line_start = "\n" in separator and bool(statement.words)
            last_end = self.pos
            if redirect_next:
                statement.redirects.append(word.text)
                redirect_next = False
            else:
                statement.words.extend(_fields(word))
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
                placeholder = _PLACEHOLDER.match(text, self.pos) if char == "<" else None
                if placeholder is not None:
                    chars.append(placeholder[0])
                    self.pos = placeholder.end()
                    continue
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
            unquoted = quote is None
            if (quote != "'" or self.dialect == "cmd") and self._expand(word, chars):
                # POSIX sh splits an unquoted variable's value at blanks into several words.
                word.split = word.split or (unquoted and self.dialect == "posix")
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


def _fields(word: Word) -> list[Word]:
    """The words the shell makes of a word holding an unquoted variable (`$ARGS` -> its options)."""
    parts = word.text.split()
    if not word.split or len(parts) < 2:
        return [word]
    first = dataclasses.replace(word, text=parts[0])
    rest = [
        dataclasses.replace(word, text=p, layout_break=False, line_start=False) for p in parts[1:]
    ]
    return [first, *rest]


def statements(
    text: str, dialect: Dialect, variables: dict[str, str | None]
) -> Iterator[Statement]:
    """The paste's statements in order; the caller adds assignments to variables as they come."""
    for group in _statement_groups(_logical_lines(text.replace("\r\n", "\n"), dialect)):
        yield from _Tokenizer(group, dialect, variables).statements()
