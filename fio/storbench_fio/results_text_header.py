"""What a job's header lines in fio's text output say: its date and block sizes."""

from __future__ import annotations

import re
from datetime import datetime

__all__ = ["exact_io_bytes", "fixed_block_sizes", "header_date"]

# The end of a job header: "...: pid=3122: Thu Jul  7 10:00:00 2016" (fio's ctime, local time).
_HEADER_DATE = re.compile(
    r":\s*pid=\d+:\s*(?P<date>\w{3}\s+\w{3}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+\d{4})\s*$"
)
# The block sizes of a job header, read/write/trim: fio 3 "bs=(R) 4096B-4096B, (W) ..., (T) ...",
# fio 2 "bs=4K-4K/4K-4K/4K-4K" (K = 1024).
_SETUP_BS3 = re.compile(r"\bbs=\(R\) (\d+)B-(\d+)B, \(W\) (\d+)B-(\d+)B, \(T\) (\d+)B-(\d+)B")
_SETUP_BS2 = re.compile(
    r"\bbs=(\d+[KMG]?)-(\d+[KMG]?)/(\d+[KMG]?)-(\d+[KMG]?)/(\d+[KMG]?)-(\d+[KMG]?)"
)
_BINARY = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def header_date(line: str) -> datetime | None:
    """The date fio printed at the end of a job header (naive: fio gives no time zone)."""
    match = _HEADER_DATE.search(line)
    if match is None:
        return None
    try:
        return datetime.strptime(" ".join(match["date"].split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        return None


def fixed_block_sizes(opts: str) -> list[int | None]:
    """read, write and trim block sizes of a header line's bs=, None where they vary."""
    match = _SETUP_BS3.search(opts) or _SETUP_BS2.search(opts)
    if match is None:
        return []
    sizes = [int(g[:-1]) * _BINARY[g[-1]] if g[-1] in "KMG" else int(g) for g in match.groups()]
    return [low if low == high else None for low, high in zip(sizes[::2], sizes[1::2], strict=True)]


def exact_io_bytes(total: int | None, short: int | None, block: int | None, printed: int) -> int:
    """issued I/Os x the fixed block size where fio printed a rounded figure ("io=1024.0MB",
    "(2441MiB/...)"), as fio counts it; the printed figure when the block size varies, I/Os were
    short, or the two disagree beyond the printed rounding (a run cut short)."""
    if not total or short or block is None:
        return printed
    exact = total * block
    return exact if abs(exact - printed) <= exact * _PRINTED_ROUNDING else printed


_PRINTED_ROUNDING = 0.01  # fio prints 4 or 5 significant digits
