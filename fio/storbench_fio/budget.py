"""What a run costs a host: the bytes its files take and the memory fio's buffers need.

Both are computed from the options as fio reads them, so nothing fio does can take more than
what was counted: files grow to offset + size (and offset_increment moves each clone further),
and every job holds block size x iodepth of buffers per process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

from storbench_fio.units import parse_bool, parse_percent, parse_size

__all__ = [
    "FIO_PROCESS_OVERHEAD_BYTES",
    "FIO_THREAD_OVERHEAD_BYTES",
    "describe_footprint",
    "footprint_bytes",
    "human_bytes",
    "io_memory_bytes",
    "largest_file_bytes",
    "parse_percent_or_none",
    "run_memory_bytes",
]

# What one fio job process needs besides its I/O buffers (its own state, stacks, libraries).
FIO_PROCESS_OVERHEAD_BYTES = 8 << 20
# With thread, the jobs are threads of one fio process: fio 3.33 with 128 threads of 4 KiB
# blocks took ~0.45 MiB each (resident), against ~7.8 MiB per job process; twice that is counted.
FIO_THREAD_OVERHEAD_BYTES = 1 << 20
_DEFAULT_BS = 4096

Options = Mapping[str, str | None]


def parse_percent_or_none(text: str) -> int | None:
    """A percentage such as '50%' (None when the text is not one)."""
    try:
        return parse_percent(text)
    except ValueError:
        return None


def human_bytes(number: int | None) -> str:
    """Bytes in binary units as people read them: '160 GiB', '1.5 MiB', '512 B'."""
    if number is None:
        return "unknown"
    value = float(number)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(value) < 1024 or unit == "PiB":
            text = f"{value:.1f}".rstrip("0").rstrip(".") if unit != "B" else str(int(value))
            return f"{text} {unit}"
        value /= 1024
    return f"{number} B"


def _kb(options: Options) -> int:
    return 1000 if (options.get("kb_base") or "").strip() == "1000" else 1024


def _size(options: Options, key: str) -> int | None:
    text = options.get(key)
    if text is None or parse_percent_or_none(text) is not None:
        return None
    try:
        return parse_size(text, kb_base=_kb(options), allow_zero=True)
    except ValueError:
        return None


def _count(options: Options, key: str, default: int = 1) -> int:
    value = _size(options, key)
    return default if value is None or value < 1 else value


def _flag(options: Options, key: str) -> bool:
    try:
        return key in options and parse_bool(options[key])
    except ValueError:
        return False


def _per_file_extent(options: Options) -> tuple[int, int] | None:
    """(bytes of I/O region per file, files per clone) before offsets; None when size is unknown."""
    nrfiles = _count(options, "nrfiles")
    filesize = _size(options, "filesize")
    if filesize is not None:
        return filesize, nrfiles
    size = _size(options, "size")
    if size is None:
        return None
    return -(-size // nrfiles), nrfiles


def _offset_of(options: Options, region: int) -> int:
    """Bytes before the I/O region starts: an absolute offset, or a percentage of the region."""
    text = options.get("offset")
    if text is None:
        return 0
    percent = parse_percent_or_none(text)
    if percent is not None:
        return region * percent // 100
    return _size(options, "offset") or 0


def footprint_bytes(options: Options) -> int | None:
    """Bytes of files fio lays out for one job, offsets included (None when size is unknown).

    fio extends a file to offset + size, and clone k of numjobs starts k x offset_increment
    further; clones share one named file, otherwise each lays out its own.
    """
    extent = _per_file_extent(options)
    if extent is None:
        return None
    region, files = extent
    offset = _offset_of(options, region)
    increment = _size(options, "offset_increment") or 0
    clones = _count(options, "numjobs")
    if options.get("filename"):
        return offset + (clones - 1) * increment + region * files
    per_clone = (offset + region) * files
    return clones * per_clone + increment * files * clones * (clones - 1) // 2


def describe_footprint(options: Options) -> str | None:
    """How one job's footprint adds up, in human units: '128 jobs x 100 MiB' (None: unknown)."""
    total = footprint_bytes(options)
    if total is None:
        return None
    clones = _count(options, "numjobs")
    if clones == 1 or options.get("filename") or _size(options, "offset_increment"):
        return human_bytes(total)
    return f"{clones} jobs \u00d7 {human_bytes(total // clones)}"


def largest_file_bytes(options: Options) -> int | None:
    """The largest single file this job may make (offsets included)."""
    extent = _per_file_extent(options)
    if extent is None:
        return None
    region, _ = extent
    offset = _offset_of(options, region)
    increment = _size(options, "offset_increment") or 0
    return offset + (_count(options, "numjobs") - 1) * increment + region


def _largest_block(options: Options) -> int:
    """The largest block size the job may use (bs, or the biggest bssplit entry)."""
    largest = _size(options, "bs") or _DEFAULT_BS
    split = options.get("bssplit")
    if split:
        for entry in split.replace(",", ":").split(":"):
            size_text = entry.partition("/")[0].strip()
            if size_text:
                with contextlib.suppress(ValueError):
                    largest = max(largest, parse_size(size_text, kb_base=_kb(options)))
    return largest


def io_memory_bytes(options: Options) -> int:
    """Memory fio needs for one job: buffers (block size x iodepth, twice with verify) per clone."""
    clones = _count(options, "numjobs")
    buffers = _largest_block(options) * _count(options, "iodepth")
    if options.get("verify") not in (None, "0", "null"):
        buffers *= 2
    overhead = FIO_THREAD_OVERHEAD_BYTES if _flag(options, "thread") else FIO_PROCESS_OVERHEAD_BYTES
    return clones * (buffers + overhead)


def run_memory_bytes(jobs: Sequence[Options]) -> int:
    """Memory of the busiest group of jobs that run at once (stonewall starts a new group)."""
    busiest = current = 0
    for options in jobs:
        if _flag(options, "stonewall") and current:
            busiest = max(busiest, current)
            current = 0
        current += io_memory_bytes(options)
    return max(busiest, current)
