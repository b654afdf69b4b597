"""The CSV that storbench hands out (API exports and the CLI's output), safe to open in a spreadsheet.

A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets; a label such as `=HYPERLINK("https://evil",...)` would run in
the reader's spreadsheet. Such cells are written as OWASP recommends: a leading `'` (which the
spreadsheet hides and which makes the cell text) inside double quotes. Numbers are never touched,
negative ones included, so a spreadsheet or a script reads them back as the same numbers.

Standard library only: the CLI imports this module without loading anything else of the package.
"""

import io
from collections.abc import Iterable, Sequence
from typing import TextIO

# OWASP "CSV Injection": the characters a formula may start with.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NEEDS_QUOTES = (",", '"', "\r", "\n")


def _text(value: object) -> str:
    """The cell's text before neutralising: lists joined by ';', booleans as JSON spells them."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ";".join(_text(v) for v in value)
    return str(value)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def csv_field(value: object) -> str:
    """One cell as it appears in the file: numbers as Python writes them, text neutralised."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        # str() of a float is the shortest text that reads back to the same float.
        return str(value)
    text = _text(value)
    if text.startswith(FORMULA_STARTS):
        return _quoted("'" + text)
    if any(c in text for c in _NEEDS_QUOTES):
        return _quoted(text)
    return text


def write_csv(out: TextIO, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """A header line, then one line per row (RFC 4180 quoting, "\\n" line ends)."""
    out.write(",".join(csv_field(name) for name in header) + "\n")
    for row in rows:
        out.write(",".join(csv_field(value) for value in row) + "\n")


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """The whole file as a string."""
    out = io.StringIO()
    write_csv(out, header, rows)
    return out.getvalue()
