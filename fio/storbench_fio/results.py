"""parse_fio_output: any fio result text (JSON, JSON+, streams, terminal text) -> FioReport."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from storbench_fio.errors import ParseError
from storbench_fio.models import (
    CpuResult,
    Direction,
    DirectionResult,
    FioReport,
    JobResult,
    LatencyBucket,
    LatencyDistribution,
    LatencyStats,
    SourceFormat,
)
from storbench_fio.results_json import report_from_document
from storbench_fio.results_text import parse_text_output

__all__ = [
    "MAX_DOCUMENT_STARTS",
    "CpuResult",
    "Direction",
    "DirectionResult",
    "FioReport",
    "JobResult",
    "LatencyBucket",
    "LatencyDistribution",
    "LatencyStats",
    "ParseError",
    "SourceFormat",
    "parse_fio_output",
    "parse_fio_stream",
]

# Each '{' at a line start costs a decoding attempt. fio's documents are kilobytes long, so even
# tens of MiB of its output hold a few thousand of them.
MAX_DOCUMENT_STARTS = 100_000
# Documents nested deeper than the json module decodes (about 1000 levels) skipped before the
# output is refused; each one may have been read to its end.
_MAX_TOO_DEEP = 1
# A window that ran out grows at least this far, then by this factor.
_MIN_WINDOW = 256
_GROWTH = 8
_DECODER = json.JSONDecoder()
# Unexpected failures while interpreting a decoded document become ParseError.
_READ_ERRORS = (KeyError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _next_start(text: str, pos: int) -> int:
    """Offset of the first '{' at a line start at or after pos; -1 when there is none."""
    # fio writes each JSON document's opening brace at the start of a line.
    if pos == 0 and text.startswith("{"):
        return 0
    found = text.find("\n{", max(pos - 1, 0))
    return found + 1 if found >= 0 else -1


def _grown(text: str, start: int, end: int, limit: int) -> int:
    """A window end after a newline, a few times further from start than end, at most limit."""
    target = start + max(_GROWTH * (end - start), _MIN_WINDOW)
    if target >= limit:
        return limit
    grown = text.rfind("\n", end, target) + 1
    if grown > end:
        return grown
    newline = text.find("\n", end, limit)  # the next line alone is longer: take it whole
    return newline + 1 if newline >= 0 else limit


class _Invalid(NamedTuple):
    """Why the JSON value at some offset is invalid, and where (an offset in the whole text)."""

    message: str
    pos: int


def _decode_at(text: str, start: int, limit: int) -> tuple[Any, int] | _Invalid:
    """The JSON value at start and the offset after it, or why it is invalid.

    Slices of the text are decoded rather than the text itself, as a failure's cost would be
    its offset (json counts the lines before it): quadratic over many failures. A slice ending
    after a newline cuts no token in two, so a failure before its end is a failure in the text;
    running into its end grows it. Nothing at or past limit is read.
    """
    following = _next_start(text, start + 1)
    end = following if 0 <= following < limit else limit  # first try: up to the next document
    while True:
        window = text[start:end]
        try:
            value, length = _DECODER.raw_decode(window)
        except json.JSONDecodeError as exc:
            if exc.pos < len(window) or end == limit:
                return _Invalid(exc.msg, start + exc.pos)
            end = _grown(text, start, end, limit)
            continue
        return value, start + length


class _Documents:
    """Each complete fio JSON document in a text with its offset, skipping other lines.

    A '{' at a line start that does not decode is skipped and the next one tried: objects inside
    a damaged document may be whole documents (an output cut short, then another appended). Such
    an object either ends before the point where the enclosing document failed, and decodes
    reading no further, or is still open there and fails the same way. Reading those again is
    limited to the length of the text in all, after which the rest of a damaged document is
    skipped: the text is read about three times at most.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # Why the first line-start '{' does not start a JSON document, if it does not.
        self.first_error: ParseError | None = None
        self.starts = 0

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        text = self.text
        too_deep = 0
        damaged_until = -1  # where the last damaged document failed; starts before it are inside it
        rereads = len(text)  # what open objects inside damaged documents may still read
        pos = 0
        while (start := _next_start(text, pos)) >= 0:
            self.starts += 1
            if self.starts > MAX_DOCUMENT_STARTS:
                line, _ = _line_col(text, start)
                raise ParseError(
                    f"more than {MAX_DOCUMENT_STARTS} lines start with '{{': not fio output",
                    line=line,
                )
            inside = start < damaged_until
            try:
                decoded = _decode_at(text, start, damaged_until if inside else len(text))
            except RecursionError:
                line, col = _line_col(text, start)
                error = ParseError("fio JSON output is nested too deeply", line=line, column=col)
                too_deep += 1
                if too_deep > _MAX_TOO_DEEP:
                    raise error from None
                if self.starts == 1:
                    self.first_error = error
                pos = start + 1
                continue
            if isinstance(decoded, _Invalid):
                if self.starts == 1:
                    line, col = _line_col(text, decoded.pos)
                    message = f"fio JSON output is incomplete or damaged: {decoded.message}"
                    self.first_error = ParseError(message, line=line, column=col)
                if inside:  # still open where the enclosing document failed
                    rereads -= damaged_until - start
                    pos = start + 1 if rereads > 0 else damaged_until
                else:
                    damaged_until, pos = decoded.pos, start + 1
                continue
            doc, pos = decoded
            if isinstance(doc, dict) and ("jobs" in doc or "client_stats" in doc):
                yield start, doc


def _report(text: str, start: int, doc: dict[str, Any]) -> FioReport:
    """report_from_document, with any failure located at the document's line."""
    try:
        return report_from_document(doc)
    except ParseError as exc:
        message = f"cannot read fio JSON document: {exc}"
    except _READ_ERRORS as exc:
        message = f"cannot read fio JSON document: {exc!r}"
    # Counted only on failure: for every document of a stream it would be quadratic.
    line, _ = _line_col(text, start)
    raise ParseError(message, line=line)


# A JSON document pasted as a markdown code block (4 blanks) or quoted in an email ("> ").
_INDENTED_START = re.compile(r"^(?P<prefix>[ \t]*(?:>[ \t]?)*)[ \t]*(?=\{)", re.MULTILINE)


def _unindented(text: str) -> str:
    """The text with the indentation or quoting of a JSON block taken off its lines, when fio's
    JSON does not start a line (fio's own output always does)."""
    if text.startswith("{") or "\n{" in text:
        return text
    match = next((m for m in _INDENTED_START.finditer(text) if m.end() > m.start()), None)
    if match is None:
        return text
    prefix = text[match.start() : match.end()]
    return "\n".join(line.removeprefix(prefix) for line in text.split("\n"))


def parse_fio_stream(text: str) -> list[FioReport]:
    """Every complete JSON document of a --status-interval stream, in order."""
    if not isinstance(text, str):
        raise ParseError("fio output must be text")
    text = _unindented(text.lstrip("\ufeff"))
    documents = _Documents(text)
    reports = [_report(text, start, doc) for start, doc in documents]
    if not reports:
        raise documents.first_error or ParseError("no fio JSON document found")
    return reports


def parse_fio_output(text: str) -> FioReport:
    """The final result in fio output of any supported format, or ParseError."""
    if not isinstance(text, str):
        raise ParseError("fio output must be text")
    text = _unindented(text.lstrip("\ufeff").replace("\r\n", "\n"))
    documents = _Documents(text)
    last: tuple[int, dict[str, Any]] | None = None
    for found in documents:
        last = found
    if last is not None:
        return _report(text, *last)
    if documents.starts and '"jobs"' in text:
        raise documents.first_error or ParseError("no complete fio JSON document found")
    try:
        return parse_text_output(text)
    except ParseError:
        raise
    except _READ_ERRORS as exc:
        raise ParseError(f"cannot read fio text output: {exc!r}") from None
