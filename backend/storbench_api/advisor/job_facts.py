"""What a job measured, read from the options fio printed (strings such as "4k", "1", "libaio")."""

from collections.abc import Mapping
from dataclasses import dataclass

from storbench_api.storage_classes.schemas import Metric, Workload
from storbench_fio.units import parse_bool, parse_size, parse_time_us

KIB = 1024
# Engines that keep several I/Os in flight per job (with direct=1 for libaio).
_ASYNC_ENGINES = {"libaio", "io_uring", "windowsaio", "posixaio", "solarisaio", "rdma", "spdk", "nvme"}
# rw values fio accepts, as random or sequential, and which directions they move.
_RANDOM = {"randread", "randwrite", "randrw", "randtrim", "trimwrite"}
_READS = {"read", "randread", "rw", "readwrite", "randrw"}
_WRITES = {"write", "randwrite", "rw", "readwrite", "randrw", "trimwrite"}
LATENCY_MAX_BLOCK = 16 * KIB
THROUGHPUT_MIN_BLOCK = 64 * KIB


def _size(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return parse_size(text)
    except ValueError:
        return None


def _int(text: str | None, default: int) -> int:
    if text is None:
        return default
    try:
        return int(text.strip())
    except ValueError:
        return default


def _flag(options: Mapping[str, str], key: str, default: bool = False) -> bool:
    if key not in options:
        return default
    try:
        return parse_bool(options[key])
    except ValueError:
        return default


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return parse_time_us(text) / 1_000_000
    except ValueError:
        return None


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
        return self.ioengine in _ASYNC_ENGINES and (self.direct or self.ioengine != "libaio")

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
        return self.rw in (_READS if direction == "read" else _WRITES)

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
    if any(key in options for key in ("bsrange", "bssplit", "blocksize_range")):
        return {"read": None, "write": None}
    text = options.get("bs", options.get("blocksize", "4k"))
    parts = [p.strip() for p in text.split(",")]
    read = _size(parts[0]) if parts[0] else None
    write = _size(parts[1]) if len(parts) > 1 and parts[1] else read
    return {"read": read, "write": write}


def job_facts(options: Mapping[str, str]) -> JobFacts:
    """fio's defaults where an option is absent (rw=read, bs=4k, iodepth=1, numjobs=1, psync, buffered)."""
    rw = options.get("rw", options.get("readwrite", "read")).split(":")[0].strip().lower()
    return JobFacts(
        rw=rw,
        random=rw in _RANDOM,
        direct=_flag(options, "direct") or (_flag(options, "buffered", True) is False),
        ioengine=options.get("ioengine", "psync").strip().lower(),
        iodepth=max(_int(options.get("iodepth"), 1), 1),
        numjobs=max(_int(options.get("numjobs"), 1), 1),
        block_size=_block_sizes(options),
        size_bytes=_size(options.get("size")) if "%" not in options.get("size", "") else None,
        runtime_s=_seconds(options.get("runtime")),
        ramp_time_s=_seconds(options.get("ramp_time")),
        time_based=_flag(options, "time_based"),
        rate_limited=any(
            key in options for key in ("rate", "rate_iops", "rate_min", "thinktime", "rate_iops_min")
        ),
        group_reporting=_flag(options, "group_reporting"),
    )
