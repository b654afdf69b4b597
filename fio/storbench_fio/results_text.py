"""Read fio's human-readable output (fio 2.x and 3.x, Linux and Windows, pasted text)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from storbench_fio.errors import ParseError
from storbench_fio.models import (
    CpuResult,
    Direction,
    DirectionResult,
    FioReport,
    JobResult,
    LatencyDistribution,
    LatencyStats,
)
from storbench_fio.results_json import MAX_JOBS, normalise_percentile_key
from storbench_fio.results_text_header import exact_io_bytes, fixed_block_sizes, header_date

__all__ = ["MAX_RESULT_LINES", "parse_text_output"]

# Lines that may be fio results (below) each cost a call; real output of tens of MiB has a few
# hundred thousand of them.
MAX_RESULT_LINES = 1_000_000

_NUM = r"[\d.]+[kKMGT]?"
_HEADER = re.compile(
    r"^(?P<name>\S.*?):\s*\(groupid=(?P<gid>\d+),\s*jobs=\d+\):\s*err=\s*(?P<err>-?\d+)"
)
_SETUP = re.compile(r"^(?P<name>\S.*?):\s*\(g=\d+\):\s*(?P<opts>.*)$")
_SETUP_OPTS = re.compile(r"\b(rw|ioengine|iodepth)=([^,\s]+)")
_DIR3 = re.compile(
    r"^(?P<dir>read|write|trim|mixed)\s*:\s*IOPS=(?P<iops>" + _NUM + r"),\s*"
    r"BW=(?P<bw>[\d.]+)\s*(?P<bwunit>[kKMGTP]i?B|B)/s\s*(?:\([^)]*\))?\s*"
    r"\((?P<io>[\d.]+)\s*(?P<iounit>[kKMGTP]i?B|B)/(?P<run>\d+)\s*msec\)"
)
_DIR2 = re.compile(
    r"^(?P<dir>read|write|trim|mixed)\s*:\s*io=(?P<io>[\d.]+)\s*(?P<iounit>[kKMGTP]?B),\s*"
    r"bw=(?P<bw>[\d.]+)\s*(?P<bwunit>[kKMGTP]?B)/s,\s*iops=(?P<iops>" + _NUM + r"),\s*"
    r"runt=\s*(?P<run>\d+)\s*msec"
)
_STATS = re.compile(
    r"^(?P<kind>slat|clat|lat)\s*\((?P<unit>nsec|usec|msec)\)\s*:\s*"
    rf"min=\s*(?P<min>{_NUM}),\s*max=\s*(?P<max>{_NUM}),\s*"
    rf"avg=\s*(?P<avg>{_NUM}),\s*stdev=\s*(?P<stdev>{_NUM})"
)
_PCT_HEADER = re.compile(r"^(?P<kind>slat|clat|lat)\s+percentiles\s*\((?P<unit>nsec|usec|msec)\)")
# A number starts at a digit with no digit before it ("\d(?<!\d\d)"): tried at every digit of a
# long run, each attempt would read the rest of the run (quadratic).
_PCT_ENTRY = re.compile(r"(\d(?<!\d\d)\d*(?:\.\d+)?)th=\[\s*(" + _NUM + r")\s*\]")
# Entries are checked for a '=' then a '%' by _is_distribution: ".*=.*%.*" backtracks quadratically.
_DIST = re.compile(r"^lat\s*\((?P<unit>nsec|usec|msec)\)\s*:\s*(?P<entries>.*)$")
_DIST_ENTRY = re.compile(r"(>=\d+|\d(?<!\d\d)\d*)=\s*<?([\d.]+)%")
_CPU = re.compile(
    r"^cpu\s*:\s*usr=([\d.]+)%,\s*sys=([\d.]+)%,\s*ctx=(\d+),\s*majf=(\d+),\s*minf=(\d+)"
)
_DEPTHS = re.compile(r"^IO depths\s*:\s*(?P<entries>.*)$")
_ISSUED3 = re.compile(
    r"^issued rwts?\s*:\s*total=(?P<total>[\d,]+)\s+short=(?P<short>[\d,]+)"
    r"(?:\s+dropped=(?P<dropped>[\d,]+))?"
)
_ISSUED2 = re.compile(
    r"^issued(?: rwt?)?\s*:\s*total=r=(\d+)/w=(\d+)/d=(\d+),\s*short=r=(\d+)/w=(\d+)/d=(\d+)"
    r"(?:,\s*drop=r=(\d+)/w=(\d+)/d=(\d+))?"
)
_VERSION = re.compile(r"^(fio-\d+\.\d+[\w.\-]*)$")
# A terminal progress line ends with "[eta ...]"; pasted output often glues the next line on.
# It runs to the first ']' after the first "[eta" (later ones have no ']' after them either when
# that one has none); when there is none, the rest of the line is taken as is, so that no other
# "Jobs:" on it is tried again (each try would read to the end of the line).
_PROGRESS = re.compile(r"Jobs:(?:(?P<progress>(?>[^\n]*?\[eta)[^\]\n]*+\])|[^\n]*)")
# Where a line may be a fio result: it starts (after blanks) with a word the reader's patterns
# start with, or holds a mark they need. Other lines only end a percentile list; finding the
# candidates with one search keeps them from costing a Python call each.
_JOB_LINE_STARTS = (
    "read",
    "write",
    "trim",
    "mixed",
    "slat",
    "clat",
    "lat",
    "cpu",
    "IO depths",
    "issued",
)
_RESULT_LINE = re.compile(
    r"\n[^\S\n]*+(?:fio-|Run status group|" + "|".join(_JOB_LINE_STARTS) + r")"
    r"|\(groupid=|\(g=|th=\["
)

_TIME_NS = {"nsec": 1.0, "usec": 1e3, "msec": 1e6}
_DECIMAL = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_ISSUED_ORDER: tuple[Direction, ...] = ("read", "write", "trim")
# First three characters of the lines each group of job line patterns matches.
_DIRECTION_HEADS = frozenset(("rea", "wri", "tri", "mix"))
_LATENCY_HEADS = frozenset(("sla", "cla", "lat"))


def _scaled(text: str) -> float:
    """A number as fio prints it, k/M/G suffixes being powers of 1000."""
    suffix = text[-1:]
    if suffix in _DECIMAL:
        return float(text[:-1]) * _DECIMAL[suffix]
    return float(text)


def _bytes_unit(unit: str, legacy: bool) -> float:
    """Bytes per unit: fio 2.x wrote KB/MB for KiB/MiB; fio 3.x writes KiB or kB."""
    if unit == "B":
        return 1.0
    power = "kMGTP".index(unit[0].replace("K", "k")) + 1
    binary = legacy or unit.endswith("iB")
    return float((1024 if binary else 1000) ** power)


@dataclass
class _Direction:
    iops: float
    bw_bytes: float
    io_bytes: int
    runtime_ms: int
    # min, max, mean and standard deviation in ns, per kind (lat, clat, slat)
    stats: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    percentiles: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass
class _Job:
    name: str
    groupid: int
    error: int
    options: dict[str, str]
    directions: dict[Direction, _Direction] = field(default_factory=dict)
    cpu: CpuResult | None = None
    depths: dict[str, float] | None = None
    latency: dict[str, dict[str, float]] = field(default_factory=dict)
    issued: dict[str, list[int]] = field(default_factory=dict)
    # Each direction's block size when it is fixed (min = max), from the job's header line.
    block_sizes: list[int | None] = field(default_factory=list)


class _Reader:
    """Line-by-line state machine; indentation is ignored because pastes mangle it."""

    def __init__(self) -> None:
        self.version: str | None = None
        self.setup: dict[str, dict[str, str]] = {}
        self.block_sizes: dict[str, list[int | None]] = {}
        self.jobs: list[_Job] = []
        self.job: _Job | None = None
        self.direction: _Direction | None = None
        self.percentile_target: tuple[str, float] | None = None
        # fio prints every job, then the group summaries; a job after a summary starts the
        # next --status-interval report, which supersedes the previous one.
        self.after_summary = False
        # The date of the first job header of the report kept (fio prints one per job).
        self.local_time: datetime | None = None

    def report(self) -> FioReport:
        """The jobs read, taken out of the reader; ParseError when there were none."""
        if not self.jobs:
            raise ParseError("no fio result found: expected JSON or a '<job>: (groupid=...' line")
        # Each job is let go once converted: fewer objects for the garbage collector to go over
        # again and again while the report grows (with many jobs, that took longer than the rest).
        jobs: list[JobResult] = []
        self.jobs.reverse()
        while self.jobs:
            jobs.append(_job_result(self.jobs.pop()))
        return FioReport(
            fio_version=self.version, jobs=jobs, source_format="text", local_time=self.local_time
        )

    def skip(self) -> None:
        """Lines with nothing to read were left out: they end a percentile list."""
        self.percentile_target = None

    def feed(self, line: str) -> None:
        # Each pattern is tried only when the line has the text it starts with or needs.
        if self.percentile_target is not None and "th=[" in line:
            self._percentiles(line)
            return
        self.percentile_target = None
        if line.startswith("fio-") and (match := _VERSION.match(line)) is not None:
            self.version = match[1]
        elif "(groupid=" in line and (match := _HEADER.match(line)) is not None:
            name = match["name"]
            if self.after_summary:
                self.jobs, self.after_summary = [], False
            if not self.jobs:
                self.local_time = header_date(line)
            if len(self.jobs) >= MAX_JOBS:
                raise ParseError(f"more than {MAX_JOBS} jobs in one fio report")
            self.job = _Job(name, int(match["gid"]), int(match["err"]), self.setup.get(name, {}))
            self.job.block_sizes = self.block_sizes.get(name, [])
            self.jobs.append(self.job)
            self.direction = None
        elif "(g=" in line and (match := _SETUP.match(line)) is not None:
            self.setup.setdefault(match["name"], dict(_SETUP_OPTS.findall(match["opts"])))
            self.block_sizes.setdefault(match["name"], fixed_block_sizes(match["opts"]))
        elif line.startswith("Run status group"):
            self.job = self.direction = None
            self.after_summary = True
        elif self.job is not None and line.startswith(_JOB_LINE_STARTS):
            self._job_line(self.job, line)

    def _job_line(self, job: _Job, line: str) -> None:
        # Only the patterns starting with the line's first word are tried, in the order they
        # were when each line was tried against all of them.
        head = line[:3]
        if head in _DIRECTION_HEADS:
            if (match := _DIR3.match(line) or _DIR2.match(line)) is not None:
                legacy = match.re is _DIR2
                self.direction = _Direction(
                    iops=_scaled(match["iops"]),
                    bw_bytes=float(match["bw"]) * _bytes_unit(match["bwunit"], legacy),
                    io_bytes=round(float(match["io"]) * _bytes_unit(match["iounit"], legacy)),
                    runtime_ms=int(match["run"]),
                )
                job.directions[match["dir"]] = self.direction  # type: ignore[index]
        elif head in _LATENCY_HEADS:
            self._latency_line(job, line)
        elif head == "cpu":
            if (match := _CPU.match(line)) is not None:
                job.cpu = CpuResult(
                    usr_pct=float(match[1]),
                    sys_pct=float(match[2]),
                    ctx=int(match[3]),
                    majf=int(match[4]),
                    minf=int(match[5]),
                )
        elif head == "IO ":
            if (match := _DEPTHS.match(line)) is not None:
                job.depths = {k: float(v) for k, v in _DIST_ENTRY.findall(match["entries"])}
        elif head == "iss":
            self._issued_line(job, line)

    def _latency_line(self, job: _Job, line: str) -> None:
        if (match := _STATS.match(line)) is not None and self.direction is not None:
            scale = _TIME_NS[match["unit"]]
            self.direction.stats[match["kind"]] = (
                _scaled(match["min"]) * scale,
                _scaled(match["max"]) * scale,
                _scaled(match["avg"]) * scale,
                _scaled(match["stdev"]) * scale,
            )
        elif (match := _PCT_HEADER.match(line)) is not None and self.direction is not None:
            self.percentile_target = (match["kind"], _TIME_NS[match["unit"]])
            self.direction.percentiles.setdefault(match["kind"], {})
            self._percentiles(line)
        elif (match := _DIST.match(line)) is not None and _is_distribution(match["entries"]):
            table = job.latency.setdefault(match["unit"][:2], {})
            table.update((k, float(v)) for k, v in _DIST_ENTRY.findall(match["entries"]))

    def _issued_line(self, job: _Job, line: str) -> None:
        if (match := _ISSUED3.match(line)) is not None:
            for key in ("total", "short", "dropped"):
                if match[key]:
                    job.issued[key] = [int(n) for n in match[key].split(",") if n]
        elif (match := _ISSUED2.match(line)) is not None:
            groups = [int(g) if g is not None else None for g in match.groups()]
            for key, chunk in (
                ("total", groups[0:3]),
                ("short", groups[3:6]),
                ("dropped", groups[6:9]),
            ):
                if all(n is not None for n in chunk):
                    job.issued[key] = [n for n in chunk if n is not None]

    def _percentiles(self, line: str) -> None:
        if self.percentile_target is None or self.direction is None:
            return
        kind, scale = self.percentile_target
        table = self.direction.percentiles[kind]
        for pct, value in _PCT_ENTRY.findall(line):
            if (key := _percentile_key(pct)) is not None:
                table[key] = _scaled(value) * scale


@functools.lru_cache(maxsize=256)
def _percentile_key(pct: str) -> str | None:
    """The key for a percentile as fio prints it ("99.90" -> "99.9"); None when out of range."""
    return normalise_percentile_key(pct) if 0 < float(pct) <= 100 else None


def _is_distribution(entries: str) -> bool:
    """Whether a '%' follows a '=' (what ".*=.*%.*" matched)."""
    equals = entries.find("=")
    return equals >= 0 and entries.find("%", equals) >= 0


def _issued(job: _Job, key: str, direction: Direction) -> int | None:
    counts = job.issued.get(key)
    if direction not in _ISSUED_ORDER or counts is None:
        return None
    index = _ISSUED_ORDER.index(direction)
    return counts[index] if index < len(counts) else None


def _direction_result(job: _Job, name: Direction, raw: _Direction) -> DirectionResult:
    stats: dict[str, LatencyStats | None] = dict.fromkeys(("lat", "clat", "slat"))
    for kind, (min_ns, max_ns, mean_ns, stddev_ns) in raw.stats.items():
        stats[kind] = LatencyStats(
            min_ns=min_ns,
            max_ns=max_ns,
            mean_ns=mean_ns,
            stddev_ns=stddev_ns,
            # Given even when empty: pydantic deep-copies a default {}, which is slow.
            percentiles=raw.percentiles.get(kind, {}),
        )
    total = _issued(job, "total", name)
    # fio computes IOPS as ios / runtime; the printed figure is rounded to 3 digits.
    iops = total * 1000 / raw.runtime_ms if total and raw.runtime_ms else raw.iops
    return DirectionResult(
        iops=iops,
        bw_bytes=raw.bw_bytes,
        io_bytes=exact_io_bytes(
            _issued(job, "total", name),
            _issued(job, "short", name),
            _block_size(job, name),
            raw.io_bytes,
        ),
        runtime_ms=raw.runtime_ms,
        total_ios=total,
        short_ios=_issued(job, "short", name),
        dropped_ios=_issued(job, "dropped", name),
        lat_ns=stats["lat"],
        clat_ns=stats["clat"],
        slat_ns=stats["slat"],
    )


def _block_size(job: _Job, name: Direction) -> int | None:
    index = _ISSUED_ORDER.index(name) if name in _ISSUED_ORDER else len(job.block_sizes)
    return job.block_sizes[index] if index < len(job.block_sizes) else None


def _job_result(job: _Job) -> JobResult:
    return JobResult(
        name=job.name,
        groupid=job.groupid,
        job_options=job.options,
        error=job.error,
        directions={
            name: _direction_result(job, name, raw)
            for name, raw in job.directions.items()
            if raw.io_bytes or raw.iops
        },
        cpu=job.cpu,
        iodepth_distribution=job.depths,
        latency_distribution=LatencyDistribution(
            ns=job.latency.get("ns", {}), us=job.latency.get("us", {}), ms=job.latency.get("ms", {})
        )
        if job.latency
        else None,
    )


def _without_progress(match: re.Match[str]) -> str:
    return "\n" if match["progress"] else match[0]


def _result_lines(text: str) -> Iterator[str | None]:
    """The lines that may be fio results, stripped, and None where others were left out."""
    # A newline in front lets the first line be found like the others.
    text = _PROGRESS.sub(_without_progress, "\n" + text.replace("\r\n", "\n").replace("\r", "\n"))
    last_end = 0  # the newline ending the last line given
    count = 0
    while (match := _RESULT_LINE.search(text, last_end)) is not None:
        start = text.rfind("\n", 0, match.end()) + 1
        end = text.find("\n", match.end())
        end = len(text) if end < 0 else end
        count += 1
        if count > MAX_RESULT_LINES:
            raise ParseError(f"more than {MAX_RESULT_LINES} lines look like fio results")
        if start > last_end + 1:
            yield None
        yield text[start:end].strip()
        last_end = end


def parse_text_output(text: str) -> FioReport:
    """A FioReport from fio's normal (terminal) output, or ParseError."""
    reader = _Reader()
    for line in _result_lines(text):
        if line is None:
            reader.skip()
        else:
            reader.feed(line)
    return reader.report()
