"""parse_fio_output: any fio result text (JSON, JSON+, streams, terminal text) -> FioReport."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from storbench_fio.errors import ParseError
from storbench_fio.models import (
    CpuResult,
    Direction,
    DirectionResult,
    FioReport,
    JobResult,
    LatencyDistribution,
    LatencyStats,
    SourceFormat,
)
from storbench_fio.results_json import report_from_document
from storbench_fio.results_text import parse_text_output

__all__ = [
    "CpuResult",
    "Direction",
    "DirectionResult",
    "FioReport",
    "JobResult",
    "LatencyDistribution",
    "LatencyStats",
    "ParseError",
    "SourceFormat",
    "parse_fio_output",
    "parse_fio_stream",
]

# fio writes each JSON document's opening brace at the start of a line; trying only those
# keeps scanning linear-ish on long or damaged input.
_DOC_START = re.compile(r"^\{", re.MULTILINE)
# Unexpected failures while interpreting a decoded document become ParseError.
_READ_ERRORS = (KeyError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _documents(text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each complete fio JSON document in the text, with its offset, skipping other lines."""
    decoder = json.JSONDecoder()
    pos = 0
    while True:
        match = _DOC_START.search(text, pos)
        if match is None:
            return
        start = match.start()
        try:
            doc, end = decoder.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            pos = start + 1
            continue
        if isinstance(doc, dict) and ("jobs" in doc or "client_stats" in doc):
            yield start, doc
        pos = end


def _first_json_error(text: str) -> ParseError | None:
    """Why the first brace-started block is not valid JSON, with its position."""
    match = _DOC_START.search(text)
    if match is None:
        return None
    try:
        json.JSONDecoder().raw_decode(text, match.start())
    except json.JSONDecodeError as exc:
        return ParseError(
            f"fio JSON output is incomplete or damaged: {exc.msg}",
            line=exc.lineno,
            column=exc.colno,
        )
    except RecursionError:
        line, col = _line_col(text, match.start())
        return ParseError("fio JSON output is nested too deeply", line=line, column=col)
    return None


def _report(text: str, start: int, doc: dict[str, Any]) -> FioReport:
    """report_from_document, with any failure located at the document's line."""
    line, _ = _line_col(text, start)
    try:
        return report_from_document(doc)
    except ParseError as exc:
        raise ParseError(f"cannot read fio JSON document: {exc}", line=line) from None
    except _READ_ERRORS as exc:
        raise ParseError(f"cannot read fio JSON document: {exc!r}", line=line) from None


def parse_fio_stream(text: str) -> list[FioReport]:
    """Every complete JSON document of a --status-interval stream, in order."""
    if not isinstance(text, str):
        raise ParseError("fio output must be text")
    text = text.lstrip("\ufeff")
    reports = [_report(text, start, doc) for start, doc in _documents(text)]
    if not reports:
        raise _first_json_error(text) or ParseError("no fio JSON document found")
    return reports


def parse_fio_output(text: str) -> FioReport:
    """The final result in fio output of any supported format, or ParseError."""
    if not isinstance(text, str):
        raise ParseError("fio output must be text")
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    last: tuple[int, dict[str, Any]] | None = None
    for found in _documents(text):
        last = found
    if last is not None:
        return _report(text, *last)
    if _DOC_START.search(text) is not None and '"jobs"' in text:
        raise _first_json_error(text) or ParseError("no complete fio JSON document found")
    try:
        return parse_text_output(text)
    except ParseError:
        raise
    except _READ_ERRORS as exc:
        raise ParseError(f"cannot read fio text output: {exc!r}") from None
