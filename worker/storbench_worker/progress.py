"""Per-second progress from fio's --status-interval JSON stream, read while fio runs."""

import json
import threading
from collections.abc import Callable
from typing import Any

from storbench_fio.precondition import is_fill
from storbench_fio.reported import read_options
from storbench_protocol.progress import Direction, DirectionSample, WorkerProgressSample

DIRECTIONS: tuple[Direction, ...] = ("read", "write", "trim")


OTHER_TAIL_CHARS = 4000


class StatusStream:
    """Complete JSON reports from fio's --status-interval output, fed as it arrives.

    Nothing accumulates: reports not yet collected are kept until collected, and of the rest only
    the last one (fio's final report is the result). A report larger than max_report_bytes is
    dropped and counted, so a runaway output cannot take the host's memory.
    """

    def __init__(self, max_report_bytes: int = 64 << 20) -> None:
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._decoder = json.JSONDecoder()
        self._max_report_bytes = max_report_bytes
        self._new: list[dict[str, Any]] = []
        self.last_text: str | None = None
        self.oversized = 0
        # The end of what fio wrote outside its reports (its own error lines go to standard output).
        self.other_tail = ""

    def feed(self, chunk: bytes) -> None:
        """Bytes fio wrote; every report they complete is parsed once."""
        with self._lock:
            self._buffer += chunk
            # fio ends each report with a closing brace at the start of a line.
            while (end := self._buffer.find(b"\n}")) >= 0:
                report = bytes(self._buffer[: end + 2])
                del self._buffer[: end + 2]
                self._take(report.decode(errors="replace"))
            if len(self._buffer) > self._max_report_bytes:
                self._buffer.clear()
                self.oversized += 1

    def finish(self) -> None:
        """fio has ended: what is left is not a report (an error message, a cut-off report)."""
        with self._lock:
            self._note_other(self._buffer[-OTHER_TAIL_CHARS:].decode(errors="replace"))
            self._buffer.clear()

    def _note_other(self, text: str) -> None:
        if text.strip():
            self.other_tail = (self.other_tail + text)[-OTHER_TAIL_CHARS:]

    def _take(self, text: str) -> None:
        start = text.find("{")
        self._note_other(text[: start if start >= 0 else len(text)])
        if start < 0:
            return
        try:
            document, _ = self._decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            return
        if isinstance(document, dict) and isinstance(document.get("jobs"), list):
            self._new.append(document)
            self.last_text = text[start:]

    def new_documents(self) -> list[dict[str, Any]]:
        """Reports completed since the last call."""
        with self._lock:
            documents, self._new = self._new, []
        return documents


def _totals(document: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per direction, summed over jobs: ios, bytes, runtime (ms) and latency sum (ns).

    Jobs of one reporting group run together (their runtime is the longest); stonewalled groups
    (repetitions, a sweep's points) run one after the other, so their runtimes add up. Taking the
    longest over every group would stop the clock after the first group, and every later second
    would be dropped as a zero-length interval.
    """
    totals: dict[str, dict[str, float]] = {}
    group_runtime: dict[tuple[str, int], float] = {}
    for job in document["jobs"]:
        for direction in DIRECTIONS:
            stats = job.get(direction)
            if not isinstance(stats, dict):
                continue
            ios = float(stats.get("total_ios") or 0)
            lat = stats.get("lat_ns") or {}
            entry = totals.setdefault(
                direction, {"ios": 0.0, "bytes": 0.0, "runtime_ms": 0.0, "lat_sum_ns": 0.0}
            )
            entry["ios"] += ios
            entry["bytes"] += float(stats.get("io_bytes") or 0)
            key = (direction, int(job.get("groupid") or 0))
            group_runtime[key] = max(group_runtime.get(key, 0.0), float(stats.get("runtime") or 0))
            entry["lat_sum_ns"] += float(lat.get("mean") or 0) * ios
    for (name, _), runtime_ms in group_runtime.items():
        totals[name]["runtime_ms"] += runtime_ms
    return totals


# fio reports INT_MAX as the ETA while it cannot estimate one.
_UNKNOWN_ETA = 2**31 - 1


def _planned_seconds(job: dict[str, Any]) -> float | None:
    """runtime + ramp_time + startdelay of a job, from the options fio echoes back (as fio reads them:
    timeout=1m is runtime=60)."""
    options = read_options(job.get("job options") or {})
    if not options.get("runtime"):
        return None
    try:
        return sum(float(options.get(key, "0")) for key in ("runtime", "ramp_time", "startdelay"))
    except ValueError:  # a range (startdelay=1-5) or a value fio's grammar cannot read
        return None


def _eta(document: dict[str, Any]) -> tuple[float, float | None]:
    """Elapsed and remaining seconds of the slowest job (None while fio cannot tell)."""
    jobs = document["jobs"]
    elapsed = max((float(j.get("elapsed") or 0) for j in jobs), default=0.0)
    etas = [float(j.get("eta") or 0) for j in jobs]
    if etas and max(etas) < _UNKNOWN_ETA:
        return elapsed, max(etas)
    planned = [p for p in (_planned_seconds(j) for j in jobs) if p is not None]
    if planned:
        return elapsed, max(0.0, max(planned) - elapsed)
    return elapsed, None


# fio's final report comes when the jobs end, often a fraction of a second after the last periodic
# one. Rates over such a sliver are noise: fio counts issued I/Os but completed bytes, and the I/Os
# in flight drain in it. The final result has the exact figures; the series keeps whole seconds.
SHORTEST_SAMPLE_S = 0.5


def sample_between(previous: dict[str, Any] | None, current: dict[str, Any]) -> WorkerProgressSample | None:
    """IOPS, bandwidth and mean latency per direction over the interval between two reports."""
    now = _totals(current)
    before = _totals(previous) if previous is not None else {}
    p99s = _running_group_p99(current)
    directions: dict[Direction, DirectionSample] = {}
    for direction in DIRECTIONS:
        totals = now.get(direction)
        if totals is None:
            continue
        old = before.get(direction, {"ios": 0.0, "bytes": 0.0, "runtime_ms": 0.0, "lat_sum_ns": 0.0})
        seconds = (totals["runtime_ms"] - old["runtime_ms"]) / 1000
        ios = totals["ios"] - old["ios"]
        if seconds <= 0 or ios < 0 or (previous is not None and seconds < SHORTEST_SAMPLE_S):
            continue
        directions[direction] = DirectionSample(
            clat_p99_ns=p99s.get(direction),
            iops=ios / seconds,
            # fio's counters only grow; a negative difference would be fio's rounding, not a rate.
            bw_bytes=max((totals["bytes"] - old["bytes"]) / seconds, 0.0),
            lat_mean_ns=max((totals["lat_sum_ns"] - old["lat_sum_ns"]) / ios, 0.0) if ios else 0.0,
        )
    if not directions:
        return None
    elapsed, eta = _eta(current)
    percent = None
    if eta is not None and elapsed + eta > 0:
        percent = round(min(100 * elapsed / (elapsed + eta), 100.0), 1)
    return WorkerProgressSample(
        timestamp_ms=int(current.get("timestamp_ms") or 0),
        elapsed_s=elapsed,
        eta_s=eta,
        percent=percent,
        directions=directions,
        phase="preconditioning" if _filling(current) else None,
    )


def _running_jobs(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The jobs of the running reporting group: the latest one whose jobs have done I/O.

    fio lists every job of the invocation from the start (later groups with no runtime yet), and
    their `elapsed` is fio's own, the same for all.
    """
    started = [
        job
        for job in document["jobs"]
        if any(float((job.get(d) or {}).get("runtime") or 0) > 0 for d in DIRECTIONS)
    ]
    if not started:
        return []
    running = max(int(job.get("groupid") or 0) for job in started)
    return [job for job in started if int(job.get("groupid") or 0) == running]


def _running_group_p99(document: dict[str, Any]) -> dict[str, float]:
    """Per direction, the worst p99 completion latency (ns) of the running group's jobs so far."""
    worst: dict[str, float] = {}
    for job in _running_jobs(document):
        for direction in DIRECTIONS:
            percentiles = ((job.get(direction) or {}).get("clat_ns") or {}).get("percentile") or {}
            value = percentiles.get("99.000000")
            if value is not None and int((job.get(direction) or {}).get("total_ios") or 0) > 0:
                worst[direction] = max(worst.get(direction, 0.0), float(value))
    return worst


def _filling(document: dict[str, Any]) -> bool:
    """True while the running reporting group is storbench's preconditioning fill."""
    return any(is_fill(job.get("desc")) for job in _running_jobs(document))


# How long after fio's next report is due the worker looks for it (fio takes a moment to write it).
REPORT_GRACE_S = 0.05
LATE_REPORT_RECHECK_S = 0.2


class ProgressReporter:
    """Turns fio's status stream into samples, kept until the server has stored them.

    Sample times are fio's own report times, moved to the server's clock with clock_offset_s().
    """

    def __init__(
        self, stream: StatusStream, interval_s: float = 1.0, clock_offset_s: Callable[[], float] = lambda: 0.0
    ) -> None:
        self._stream = stream
        self._interval_s = interval_s
        self._clock_offset_s = clock_offset_s
        self._previous: dict[str, Any] | None = None
        self._last_report_at: float | None = None
        self.pending: list[WorkerProgressSample] = []

    def collect(self) -> list[WorkerProgressSample]:
        """New samples since the last call, kept pending until `sent` is called."""
        for document in self._stream.new_documents():
            sample = sample_between(self._previous, document)
            self._previous = document
            if document.get("timestamp_ms"):
                self._last_report_at = float(document["timestamp_ms"]) / 1000
            if sample is not None:
                if sample.timestamp_ms:
                    sample.timestamp_ms += round(self._clock_offset_s() * 1000)
                self.pending.append(sample)
        return list(self.pending)

    def seconds_to_next_report(self, now: float, longest_s: float) -> float:
        """How long to sleep to look just after fio's next report (this host's clock), at most longest_s.

        Looking on a fixed cadence instead would, locked to fio's own second, land just before each
        report and show every sample almost a second late.
        """
        if self._last_report_at is None:
            return min(LATE_REPORT_RECHECK_S, longest_s)
        due = self._last_report_at + self._interval_s + REPORT_GRACE_S
        if due <= now:
            return min(LATE_REPORT_RECHECK_S, longest_s)  # late (or first) report: look often, never spin
        return min(due - now, longest_s)

    def sent(self, count: int) -> None:
        """The server stored the first `count` pending samples."""
        del self.pending[:count]
