"""What a job measured, read from the options fio printed (strings such as "4k", "1", "libaio")."""

from collections.abc import Mapping
from dataclasses import dataclass

from storbench_api.storage_classes.schemas import Metric, Workload
from storbench_fio.engines import keeps_queue
from storbench_fio.reported import read_options
from storbench_fio.rw_modes import RANDOM, READS, WRITES, rw_mode

KIB = 1024
LATENCY_MAX_BLOCK = 16 * KIB
THROUGHPUT_MIN_BLOCK = 64 * KIB


# The fio package's reader gives sizes in bytes, times in seconds and booleans as 1/0; a value it
# could not read is kept as written and counts as absent here.
def _whole(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _seconds(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _flag(options: Mapping[str, str], key: str, default: bool = False) -> bool:
    value = options.get(key)
    return value == "1" if value in ("0", "1") else default


@dataclass(frozen=True, slots=True)
class JobFacts:
    """The parameters that decide what a job measured."""

    rw: str
    random: bool
    direct: bool
    ioengine: str
    iodepth: int
    numjobs: int
    # Per direction (read, write); None when the job mixes sizes (bsrange, bssplit).
    block_size: dict[str, int | None]
    size_bytes: int | None
    runtime_s: float | None
    ramp_time_s: float | None
    time_based: bool
    rate_limited: bool
    group_reporting: bool

    @property
    def asynchronous(self) -> bool:
        """Whether iodepth counts: an asynchronous engine, and libaio only with direct=1."""
        return keeps_queue(self.ioengine, direct=self.direct)

    @property
    def in_flight(self) -> int:
        """I/Os fio keeps outstanding at once over all the job's clones."""
        return self.numjobs * (self.iodepth if self.asynchronous else 1)

    @property
    def in_flight_per_result(self) -> int:
        """I/Os outstanding behind one reported result: one clone's unless fio grouped them."""
        return self.in_flight if self.group_reporting else self.in_flight // self.numjobs

    def moves(self, direction: str) -> bool:
        """Whether the job reads (or writes) at all."""
        return self.rw in (READS if direction == "read" else WRITES)

    def workload(self, direction: str) -> Workload | None:
        """Random or sequential, read or write; None for trims and mixed directions."""
        if direction not in ("read", "write"):
            return None
        return Workload(f"{'random' if self.random else 'sequential'}_{direction}")

    def metric(self, direction: str) -> Metric:
        """What the job is built to measure: latency (QD1, small blocks), throughput (≥ 64 KiB) or IOPS."""
        block = self.block_size.get(direction)
        if self.in_flight == 1 and block is not None and block <= LATENCY_MAX_BLOCK:
            return Metric.latency
        if block is not None and block >= THROUGHPUT_MIN_BLOCK:
            return Metric.throughput
        return Metric.iops


def _block_sizes(options: Mapping[str, str]) -> dict[str, int | None]:
    if "bsrange" in options or "bssplit" in options:
        return {"read": None, "write": None}
    parts = [p.strip() for p in options["bs"].split(",")]
    read = _whole(parts[0])
    write = _whole(parts[1]) if len(parts) > 1 and parts[1] else read
    return {"read": read, "write": write}


def job_facts(options: Mapping[str, object]) -> JobFacts:
    """A job's facts from its options as the fio package reads them (fio's defaults where unset)."""
    read = read_options(options)
    rw = rw_mode(read["rw"])
    return JobFacts(
        rw=rw,
        random=rw in RANDOM,
        direct=_flag(read, "direct") or not _flag(read, "buffered", True),
        ioengine=read["ioengine"],
        iodepth=max(_whole(read["iodepth"]) or 1, 1),
        numjobs=max(_whole(read["numjobs"]) or 1, 1),
        block_size=_block_sizes(read),
        size_bytes=_whole(read.get("size")),
        runtime_s=_seconds(read.get("runtime")),
        ramp_time_s=_seconds(read.get("ramp_time")),
        time_based=_flag(read, "time_based"),
        rate_limited=any(
            key in read for key in ("rate", "rate_iops", "rate_min", "thinktime", "rate_iops_min")
        ),
        group_reporting=_flag(read, "group_reporting"),
    )
