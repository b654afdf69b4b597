"""Read fio's JSON and JSON+ output (fio 2.x and 3.x) into the normalised models."""

from __future__ import annotations

import math
import re
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
    RateSpread,
    SourceFormat,
)

__all__ = ["MAX_JOBS", "normalise_percentile_key", "parse_version", "report_from_document"]

# Jobs in one report, each costing tens of microseconds to read; fio's output of tens of MiB
# holds tens of thousands at most (a job takes kilobytes of JSON, or a few dozen lines of text).
MAX_JOBS = 100_000

_DIRECTIONS: tuple[Direction, ...] = ("read", "write", "trim", "mixed")
# Whole numbers up to this size are floats exactly, so _int returns them unchanged.
_EXACT_INT = 2**53
_AGGREGATE_NAME = "All clients"


def parse_version(text: object) -> tuple[int, ...] | None:
    """(3, 33) for "fio-3.33"; None when there is no recognisable version."""
    if not isinstance(text, str):
        return None
    # The first number starts at a digit with no digit before it: tried at every digit of a long
    # run, each attempt would read the rest of the run (quadratic).
    match = re.search(r"(\d(?<!\d\d)\d*)\.(\d+)(?:\.(\d+))?", text)
    if match is None:
        return None
    return tuple(int(g) for g in match.groups() if g is not None)


def normalise_percentile_key(key: str) -> str:
    """fio's "99.900000" -> "99.9", "50.000000" -> "50"."""
    return f"{float(key):.6f}".rstrip("0").rstrip(".")


def _where(path: str) -> str:
    return path or "document"


def _get(obj: object, key: str, path: str) -> Any:
    """obj[key], or ParseError naming the path when obj is not a mapping or lacks it."""
    if not isinstance(obj, dict):
        raise ParseError(f"expected an object at {_where(path)}")
    if key not in obj:
        raise ParseError(f"missing {key!r} at {_where(path)}")
    return obj[key]


def _number(value: object, path: str) -> float:
    """A finite JSON number (fio never writes NaN; mutated input might)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParseError(f"expected a number at {path}, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ParseError(f"expected a finite number at {path}")
    return number


def _int(value: object, path: str) -> int:
    number = _number(value, path)
    if not number.is_integer():
        raise ParseError(f"expected a whole number at {path}")
    return int(number)


def _opt_number(obj: dict[str, Any], key: str, path: str) -> float | None:
    return _number(obj[key], f"{path}.{key}") if key in obj else None


def _opt_int(obj: dict[str, Any], key: str, path: str) -> int | None:
    return _int(obj[key], f"{path}.{key}") if key in obj else None


def _plat_idx_to_val(idx: int, bits: int, val: int) -> int:
    """fio 2.x json+ bin index -> latency (fio's stat.c plat_idx_to_val)."""
    if idx < (val << 1):
        return idx
    error_bits = (idx >> bits) - 1
    base = 1 << (error_bits + bits)
    k = idx % val
    return int(base + (k + 0.5) * (1 << error_bits))


def _histogram(bins: object, scale: float, path: str) -> dict[int, int] | None:
    """json+ "bins" as latency (ns) -> count, dropping empty bins."""
    if not isinstance(bins, dict):
        return None
    # fio 2.x json+ keyed bins by bucket index and described the bucketing alongside.
    bits = bins.get("FIO_IO_U_PLAT_BITS")
    val = bins.get("FIO_IO_U_PLAT_VAL")
    plat = (bits, val) if isinstance(bits, int) and isinstance(val, int) else None
    if plat is not None and not (0 < plat[0] < 16 and 0 < plat[1] < 1 << 16):
        raise ParseError(f"bad histogram bucketing at {path}")
    histogram: dict[int, int] = {}
    for key, count in bins.items():
        if key.startswith("FIO_"):
            continue
        if not key.isdigit():
            raise ParseError(f"bad histogram bin {key!r} at {path}")
        # Thousands of bins a job: checked by _int only when it would not return them as they are.
        if type(count) is not int or abs(count) > _EXACT_INT:
            count = _int(count, f"{path}[{key}]")
        if count:
            index = int(key)
            # Past this, the latency is too large for a float, and _plat_idx_to_val would first
            # build an integer of index bits (gigabytes for a twelve-digit index).
            if plat and index >> plat[0] > 1024:
                raise ParseError(f"bad histogram bin {key!r} at {path}")
            raw = _plat_idx_to_val(index, *plat) if plat else index
            histogram[round(raw * scale)] = count
    return histogram


def _latency(obj: object, scale: float, path: str) -> LatencyStats | None:
    """One clat/slat/lat block; None when fio measured nothing (N == 0 or all zero)."""
    if not isinstance(obj, dict):
        return None
    samples = _opt_int(obj, "N", path)
    values = {k: _number(_get(obj, k, path), f"{path}.{k}") for k in ("min", "max", "mean")}
    stddev = _opt_number(obj, "stddev", path) or 0.0
    if samples == 0 or (samples is None and not any(values.values())):
        return None
    percentiles: dict[str, float] = {}
    raw_pcts = obj.get("percentile")
    if isinstance(raw_pcts, dict):
        for key, value in raw_pcts.items():
            try:
                pct = float(key)
            except ValueError:
                raise ParseError(f"bad percentile {key!r} at {path}") from None
            if pct <= 0 or pct > 100:
                continue  # fio 2.x padded the list with "0.00": 0
            percentiles[normalise_percentile_key(key)] = _number(value, f"{path}[{key}]") * scale
    return LatencyStats(
        min_ns=values["min"] * scale,
        max_ns=values["max"] * scale,
        mean_ns=values["mean"] * scale,
        stddev_ns=stddev * scale,
        samples=samples,
        percentiles=percentiles,
        histogram=_histogram(obj.get("bins"), scale, f"{path}.bins"),
    )


def _io_bytes_in_kib(obj: dict[str, Any], version: tuple[int, ...] | None) -> bool:
    """Whether "io_bytes" holds KiB, as it did before fio 2.21 added io_kbytes."""
    if "io_kbytes" in obj:
        return False
    if version is not None:
        return version < (2, 21)
    # Unknown version: KiB when io_bytes matches bw (KiB/s) x runtime better than bytes do.
    bw, runtime, io = obj.get("bw"), obj.get("runtime"), obj.get("io_bytes")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (bw, runtime, io)):
        return "clat_ns" not in obj
    expected_kib = float(bw) * float(runtime) / 1000  # type: ignore[arg-type]
    return abs(float(io) - expected_kib) < abs(float(io) - expected_kib * 1024)  # type: ignore[arg-type]


def _direction(obj: object, version: tuple[int, ...] | None, path: str) -> DirectionResult | None:
    """One read/write/trim block; None when the direction did no I/O."""
    if not isinstance(obj, dict):
        raise ParseError(f"expected an object at {path}")
    io_bytes = _int(_get(obj, "io_bytes", path), f"{path}.io_bytes")
    if _io_bytes_in_kib(obj, version):
        io_bytes *= 1024
    iops = _number(_get(obj, "iops", path), f"{path}.iops")
    if "bw_bytes" in obj:
        bw_bytes = _number(obj["bw_bytes"], f"{path}.bw_bytes")
    else:  # before fio 3.2 only "bw", in KiB/s
        bw_bytes = _number(_get(obj, "bw", path), f"{path}.bw") * 1024
    total_ios = _opt_int(obj, "total_ios", path)
    if total_ios == 0 or (total_ios is None and io_bytes == 0 and iops == 0):
        return None
    if "clat_ns" in obj or "lat_ns" in obj:
        names, scale = ("lat_ns", "clat_ns", "slat_ns"), 1.0
    else:  # fio 2.x: microseconds
        names, scale = ("lat", "clat", "slat"), 1000.0
    lat, clat, slat = (_latency(obj.get(n), scale, f"{path}.{n}") for n in names)
    return DirectionResult(
        iops=iops,
        bw_bytes=bw_bytes,
        io_bytes=io_bytes,
        runtime_ms=_int(_get(obj, "runtime", path), f"{path}.runtime"),
        total_ios=total_ios,
        short_ios=_opt_int(obj, "short_ios", path),
        dropped_ios=_opt_int(obj, "drop_ios", path),
        lat_ns=lat,
        clat_ns=clat,
        slat_ns=slat,
        iops_spread=_spread(obj, "iops", "stddev", 1.0, path),
        bw_spread=_spread(obj, "bw", "dev", 1024.0, path),
    )


def _spread(
    obj: dict[str, Any], prefix: str, dev: str, scale: float, path: str
) -> RateSpread | None:
    """fio's spread of a rate over its samples (<prefix>_min/max/mean/<dev>); None without any."""
    keys = (f"{prefix}_min", f"{prefix}_max", f"{prefix}_mean", f"{prefix}_{dev}")
    samples = _opt_int(obj, f"{prefix}_samples", path)
    if not samples or samples < 0 or not all(k in obj for k in keys):
        return None
    low, high, mean, stddev = (_number(obj[k], f"{path}.{k}") * scale for k in keys)
    return RateSpread(min=low, max=high, mean=mean, stddev=stddev, samples=samples)


def _percent_table(obj: object, path: str) -> dict[str, float] | None:
    if not isinstance(obj, dict):
        return None
    return {str(k): _number(v, f"{path}[{k}]") for k, v in obj.items()}


def _cpu(obj: dict[str, Any], path: str) -> CpuResult | None:
    if "usr_cpu" not in obj or "sys_cpu" not in obj:
        return None
    return CpuResult(
        usr_pct=_number(obj["usr_cpu"], f"{path}.usr_cpu"),
        sys_pct=_number(obj["sys_cpu"], f"{path}.sys_cpu"),
        ctx=_opt_int(obj, "ctx", path) or 0,
        majf=_opt_int(obj, "majf", path) or 0,
        minf=_opt_int(obj, "minf", path) or 0,
    )


def _sync_latency(obj: object, path: str) -> LatencyStats | None:
    if not isinstance(obj, dict):
        return None
    if "lat_ns" in obj:
        return _latency(obj["lat_ns"], 1.0, f"{path}.lat_ns")
    return _latency(obj.get("lat"), 1000.0, f"{path}.lat")


def _job(obj: object, version: tuple[int, ...] | None, path: str) -> JobResult:
    if not isinstance(obj, dict):
        raise ParseError(f"expected an object at {path}")
    name = _get(obj, "jobname", path)
    if not isinstance(name, str):
        raise ParseError(f"expected a string at {path}.jobname")
    directions: dict[Direction, DirectionResult] = {}
    for direction in _DIRECTIONS:
        if direction in obj:
            result = _direction(obj[direction], version, f"{path}.{direction}")
            if result is not None:
                directions[direction] = result
    distribution = {
        unit: _percent_table(obj.get(f"latency_{unit}"), f"{path}.latency_{unit}")
        for unit in ("ns", "us", "ms")
    }
    hostname = obj.get("hostname")
    aggregate = name == _AGGREGATE_NAME
    options = obj.get("job options")
    return JobResult(
        name=name,
        hostname=hostname if isinstance(hostname, str) and not aggregate else None,
        port=_opt_int(obj, "port", path) if not aggregate else None,
        groupid=_opt_int(obj, "groupid", path),
        job_options={str(k): str(v) for k, v in options.items()}
        if isinstance(options, dict)
        else {},
        error=_opt_int(obj, "error", path) or 0,
        directions=directions,
        sync_lat_ns=_sync_latency(obj.get("sync"), f"{path}.sync"),
        cpu=_cpu(obj, path),
        iodepth_distribution=_percent_table(obj.get("iodepth_level"), f"{path}.iodepth_level"),
        latency_distribution=LatencyDistribution(
            **{unit: table for unit, table in distribution.items() if table is not None}
        )
        if any(table is not None for table in distribution.values())
        else None,
        elapsed_s=_opt_number(obj, "elapsed", path),
    )


def report_from_document(doc: dict[str, Any]) -> FioReport:
    """A FioReport from one decoded fio JSON document."""
    version_text = doc.get("fio version")
    version = parse_version(version_text)
    client_server = "client_stats" in doc
    key = "client_stats" if client_server else "jobs"
    raw_jobs = _get(doc, key, "")
    if not isinstance(raw_jobs, list):
        raise ParseError(f"expected a list at {key}")
    if len(raw_jobs) > MAX_JOBS:
        raise ParseError(f"more than {MAX_JOBS} jobs at {key}")
    jobs = [_job(job, version, f"{key}[{i}]") for i, job in enumerate(raw_jobs)]
    has_bins = any(
        stats.histogram is not None
        for job in jobs
        for result in job.directions.values()
        for stats in (result.lat_ns, result.clat_ns, result.slat_ns)
        if stats is not None
    )
    source: SourceFormat = "client_server" if client_server else ("json+" if has_bins else "json")
    timestamp = doc.get("timestamp")
    options = doc.get("global options")
    return FioReport(
        fio_version=version_text if isinstance(version_text, str) else None,
        timestamp=int(timestamp)
        if isinstance(timestamp, int | float)
        and not isinstance(timestamp, bool)
        and math.isfinite(timestamp)
        else None,
        jobs=jobs,
        source_format=source,
        global_options={str(k): str(v) for k, v in options.items()}
        if isinstance(options, dict)
        else {},
    )
