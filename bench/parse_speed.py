"""fio output parsing speed: realistic and adversarial outputs of 1, 8 and 32 MiB, no services needed.

Prints, per shape and size, the median of the parse times (seconds), the peak memory the parse
added (MiB) and what came out, then per shape the ratio of the 32 MiB to the 8 MiB median: about
4 when parsing is linear, 16 when it is quadratic. Each shape and size is measured in a child
process that is killed after --timeout seconds (larger sizes of that shape are then skipped), so
the script stops by itself even on a quadratic parser.

Shapes: one JSON+ document with many jobs; a --status-interval stream of JSON documents (read by
parse_fio_output, and all of it by parse_fio_stream); a terminal text paste with many jobs; and
adversarial inputs: lines starting with '{' that are not JSON, line-start objects left open,
deeply nested JSON, a JSON document flooded with empty lists, a huge number of short lines and
very long lines.

    .venv/bin/python bench/parse_speed.py [--sizes 1,8,32] [--rounds 3] [--timeout 120] [--shapes json+,text]
"""

import argparse
import json
import multiprocessing
import statistics
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import report

from storbench_fio.errors import ParseError
from storbench_fio.results import parse_fio_output, parse_fio_stream

MIB = 1024 * 1024
PERCENTILES = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99)


def _latency(samples: int, bins: bool) -> dict[str, Any]:
    stats: dict[str, Any] = {
        "min": 1513,
        "max": 17089946,
        "mean": 70939.465967,
        "stddev": 406278.27,
        "N": samples,
    }
    stats["percentile"] = {f"{p:.6f}": 28800 + int(p * 512) for p in PERCENTILES}
    if bins:
        stats["bins"] = {str(1504 + 32 * i): 1 + (i * 7919) % 97 for i in range(1200)}
    return stats


def _direction(bins: bool) -> dict[str, Any]:
    return {
        "io_bytes": 40980480,
        "io_kbytes": 40020,
        "bw_bytes": 40898682,
        "bw": 39940,
        "iops": 9985.02994,
        "runtime": 1002,
        "total_ios": 10005,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0},
        "clat_ns": _latency(10005, bins),
        "lat_ns": _latency(10005, False),
        "bw_min": 39000,
        "bw_max": 41000,
        "bw_agg": 100.0,
        "bw_mean": 39940.0,
        "bw_dev": 12.5,
        "bw_samples": 2,
        "iops_min": 9750,
        "iops_max": 10250,
        "iops_mean": 9985.0,
        "iops_stddev": 3.1,
        "iops_samples": 2,
    }


def _job(name: str, bins: bool) -> dict[str, Any]:
    levels = ("1", "2", "4", "8", "16", "32", ">=64")
    return {
        "jobname": name,
        "groupid": 0,
        "error": 0,
        "eta": 0,
        "elapsed": 2,
        "job options": {"name": name, "rw": "randrw", "bs": "4k", "size": "4m", "ioengine": "psync"},
        "read": _direction(bins),
        "write": _direction(bins),
        "trim": {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0},
        "sync": {"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}},
        "job_runtime": 1001,
        "usr_cpu": 2.9,
        "sys_cpu": 33.7,
        "ctx": 13943,
        "majf": 0,
        "minf": 13,
        "iodepth_level": {level: 100.0 if level == "1" else 0.0 for level in levels},
        "latency_ns": {"2": 0.0, "4": 0.0, "10": 0.0, "20": 0.0, "50": 0.0},
        "latency_us": {"2": 0.15, "4": 23.74, "10": 25.53, "20": 0.53, "50": 43.85},
        "latency_ms": {"2": 0.11, "4": 0.06, "10": 0.03, "20": 0.01, ">=2000": 0.0},
    }


def _document(jobs: list[dict[str, Any]], second: int) -> str:
    """A document laid out as fio 3.x prints it: '"key" : value', two-space indent."""
    doc = {
        "fio version": "fio-3.33",
        "timestamp": 1795430512 + second,
        "timestamp_ms": (1795430512 + second) * 1000,
        "time": "Mon Nov 23 10:41:52 2026",
        "jobs": jobs,
    }
    return json.dumps(doc, indent=2, separators=(",", " : ")) + "\n"


def json_plus(size: int) -> str:
    """One JSON+ document (latency histograms) with as many jobs as fit."""
    per_job = len(json.dumps(_job("j", True), indent=2, separators=(",", " : ")))
    return _document([_job(f"job{i}", True) for i in range(max(1, size // per_job))], 0)


def status_stream(size: int) -> str:
    """A --status-interval stream: one two-job JSON document per interval, thousands of them."""
    jobs = [_job("seq", False), _job("rnd", False)]
    count = max(1, size // len(_document(jobs, 0)))
    return "".join(_document(jobs, second) for second in range(count))


TEXT_JOB = """\
{name}: (groupid=0, jobs=1): err= 0: pid=18452: Mon Nov 23 10:41:54 2026
  read: IOPS=13.8k, BW=54.1MiB/s (56.7MB/s)(54.1MiB/1001msec)
    clat (nsec): min=1232, max=15190k, avg=53436.54, stdev=256157.43
     lat (nsec): min=1282, max=15190k, avg=53496.62, stdev=256163.08
    clat percentiles (usec):
     |  1.00th=[   26],  5.00th=[   27], 10.00th=[   28], 20.00th=[   31],
     | 30.00th=[   32], 40.00th=[   33], 50.00th=[   34], 60.00th=[   37],
     | 70.00th=[   41], 80.00th=[   45], 90.00th=[   52], 95.00th=[   61],
     | 99.00th=[  408], 99.50th=[  873], 99.90th=[ 2638], 99.95th=[ 5538],
     | 99.99th=[11994]
   bw (  KiB/s): min=59073, max=59073, per=100.00%, avg=59073.00, stdev= 0.00, samples=1
   iops        : min=14768, max=14768, avg=14768.00, stdev= 0.00, samples=1
  write: IOPS=13.9k, BW=54.1MiB/s (56.7MB/s)(54.2MiB/1001msec); 0 zone resets
    clat (nsec): min=1954, max=3738.0k, avg=5221.34, stdev=40337.82
     lat (usec): min=2, max=3738, avg= 5.31, stdev=40.34
    clat percentiles (usec):
     |  1.00th=[    4],  5.00th=[    4], 10.00th=[    4], 20.00th=[    4],
     | 99.00th=[   13], 99.50th=[   21], 99.90th=[   34], 99.95th=[   53],
     | 99.99th=[ 2311]
  lat (usec)   : 2=0.15%, 4=23.74%, 10=25.53%, 20=0.53%, 50=43.85%
  lat (msec)   : 2=0.11%, 4=0.06%, 10=0.03%, 20=0.01%
  cpu          : usr=2.90%, sys=33.70%, ctx=13943, majf=0, minf=13
  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
     issued rwts: total=13858,13866,0,0 short=0,0,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=1
Jobs: 1 (f=1): [m(1)][66.7%][r=54.1MiB/s,w=54.1MiB/s][r=13.8k,w=13.9k IOPS][eta 00m:01s]"""


def terminal_text(size: int) -> str:
    """A pasted terminal session of one run with many jobs (progress lines glued on)."""
    count = max(1, size // (len(TEXT_JOB) + 60))
    setup = "".join(
        f"job{i}: (g=0): rw=randrw, bs=(R) 4096B-4096B, ioengine=psync, iodepth=1\n" for i in range(count)
    )
    jobs = "".join(TEXT_JOB.format(name=f"job{i}") for i in range(count))
    return f"{setup}fio-3.33\nStarting {count} processes\n{jobs}\nRun status group 0 (all jobs):\n"


def brace_lines(size: int) -> str:
    """Lines starting with '{' that never make a JSON document (the text mentions "jobs")."""
    lines = ('{"jobs" : [1, 2,', '{"read" : }', "{ not json", '{"x" : 1', "{", '{"jobs" : "', "plain text")
    block = "\n".join(lines) + "\n"
    return block * max(1, size // len(block))


def open_objects(size: int) -> str:
    """Line-start objects each opening a list of valid values and never closing."""
    block = '{"jobs" : [\n' + "  1,\n" * 200
    return block * max(1, size // len(block))


def deep_nesting(size: int) -> str:
    """One document nested far deeper than any fio output, on one line."""
    return '{"jobs" : ' + "[" * (size - 11) + "\n"


def container_flood(size: int) -> str:
    """One document whose jobs list holds millions of empty lists, cut short: fio never nests so densely."""
    return '{"jobs" : [\n' + ("[]," * 1000 + "\n") * max(1, size // 3001)


def many_lines(size: int) -> str:
    """A huge number of short lines, some of them looking like fio result lines."""
    block = "x\n\nlat\nread:\n| 1th=[1]\ncpu\nfio-3\n: (g=0):\n"
    return block * max(1, size // len(block))


def long_lines(size: int) -> str:
    """A few very long lines that make backtracking regular expressions work hard."""
    width = max(1, size // 8)
    head = "j: (groupid=0, jobs=1): err= 0\n  read: IOPS=1, BW=1MiB/s (1MB/s)(1MiB/1msec)\n"
    lines = [
        "Jobs: [eta " * (width // 11),
        "Jobs: " * (width // 6) + "[eta",
        "lat (usec): " + "=" * width,
        "IO depths : " + "1" * width,
        "clat percentiles (usec):\n| " + "1" * width + "th=[",
        "j" + ": " * (width // 2) + "(groupid=",
    ]
    return head + "\n".join(lines[i % len(lines)] for i in range(8)) + "\n"


SHAPES: dict[str, tuple[Callable[[int], str], Callable[[str], object]]] = {
    "json+": (json_plus, parse_fio_output),
    "stream": (status_stream, parse_fio_output),
    "stream-all": (status_stream, parse_fio_stream),
    "text": (terminal_text, parse_fio_output),
    "brace-lines": (brace_lines, parse_fio_output),
    "open-objects": (open_objects, parse_fio_output),
    "deep-nesting": (deep_nesting, parse_fio_output),
    "flood": (container_flood, parse_fio_output),
    "many-lines": (many_lines, parse_fio_output),
    "long-lines": (long_lines, parse_fio_output),
}


def _kib(field: str) -> int | None:
    """A VmRSS/VmHWM figure of this process from /proc, in KiB (None off Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    except OSError:
        pass


def _outcome(result: object) -> str:
    if isinstance(result, list):
        return f"{len(result)} reports"
    jobs = getattr(result, "jobs", [])
    return f"{getattr(result, 'source_format', '?')}, {len(jobs)} jobs"


def _measure(shape: str, size: int, rounds: int, conn: Connection) -> None:
    """In the child: build the input, parse it `rounds` times, send times, peak memory, outcome."""
    make, parse = SHAPES[shape]
    text = make(size)
    times: list[float] = []
    outcome = ""
    _reset_peak()
    before = _kib("VmRSS")
    for _ in range(rounds):
        started = time.perf_counter()
        try:
            outcome = _outcome(parse(text))
        except ParseError as exc:
            outcome = f"ParseError: {str(exc)[:60]}"
        times.append(time.perf_counter() - started)
    peak = _kib("VmHWM")
    added = (peak - before) / 1024 if peak is not None and before is not None else None
    conn.send((times, added, outcome))


def run_one(
    shape: str, size: int, rounds: int, timeout: float
) -> tuple[list[float], float | None, str] | None:
    """Times, added peak memory (MiB) and outcome of one shape and size; None when it timed out."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_measure, args=(shape, size, rounds, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            return None
        times, added, outcome = receiver.recv()
        return times, added, outcome
    except EOFError:
        return [], None, f"child died with exit code {child.exitcode}"
    finally:
        if child.is_alive():
            child.kill()
        child.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,8,32", help="sizes in MiB, comma separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per shape and size, all rounds")
    parser.add_argument(
        "--shapes", default=",".join(SHAPES), help="comma separated, of: " + ", ".join(SHAPES)
    )
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    print(f"{'shape':<13} {'size':>7} {'median s':>9} {'peak MiB':>9}  outcome")
    ratios: dict[str, str] = {}
    for shape in args.shapes.split(","):
        medians: dict[float, float] = {}
        for size in sizes:
            measured = run_one(shape, int(size * MIB), args.rounds, args.timeout)
            if measured is None:
                print(f"{shape:<13} {size:>3g} MiB {'>' + format(args.timeout, '.0f'):>9} {'':>9}  timed out")
                break
            times, added, outcome = measured
            median = statistics.median(times) if times else float("nan")
            medians[size] = median
            peak = f"{added:.0f}" if added is not None else "?"
            print(f"{shape:<13} {size:>3g} MiB {median:>9.3f} {peak:>9}  {outcome}", flush=True)
            report.record(
                "parse_speed", f"{shape} {size:g} MiB: median / peak added", f"{median:.3f} s / {peak} MiB"
            )
        if 8 in medians and 32 in medians and medians[8] > 0:
            ratios[shape] = f"{medians[32] / medians[8]:.1f}"
        else:
            ratios[shape] = "-"
    print("\nratio of the 32 MiB to the 8 MiB median (about 4 when linear):")
    for shape, ratio in ratios.items():
        print(f"  {shape:<13} {ratio}")
        report.record("parse_speed", f"{shape}: 32 MiB / 8 MiB time", ratio, "", "about 4 (linear)")
    report.note("parse_speed", f"{args.rounds} rounds per shape and size")


if __name__ == "__main__":
    main()
