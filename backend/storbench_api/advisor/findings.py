"""The methodology advisor: what may make a figure untrue, derived from the job, the host and the numbers.

Each rule is one function of the evidence returning findings; every finding says what is wrong in
one line and how to fix it. Rules follow the published pitfalls (METHODOLOGY.md §4).
"""

import enum
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from storbench_api.advisor.job_facts import JobFacts, job_facts
from storbench_api.storage_classes.expected import Judgement, Verdict, figure_for, judge
from storbench_api.storage_classes.schemas import ExpectedFigure, Metric, Workload
from storbench_fio.budget import human_bytes
from storbench_protocol.facts import HostFacts, HostMount


class Severity(enum.StrEnum):
    """How much a finding puts the figure in doubt."""

    critical = "critical"  # the figure is wrong (fio failed, the output is inconsistent)
    warning = "warning"  # the figure is likely not the storage's
    info = "info"  # worth knowing when reading the figure


class Finding(BaseModel):
    """One methodology problem with a result, and its fix."""

    code: str = Field(description="stable identifier, e.g. direct_off")
    severity: Severity
    message: str
    fix: str
    direction: str | None = Field(default=None, description="read or write, when it concerns one")


@dataclass(frozen=True, slots=True)
class MeasuredDirection:
    """One direction's headline figures, as stored."""

    direction: str
    iops: float
    bw_bytes: float
    runtime_ms: int
    lat_mean_ns: float | None = None
    total_ios: int | None = None
    short_ios: int | None = None
    dropped_ios: int | None = None


@dataclass(frozen=True, slots=True)
class Evidence:
    """Everything the advisor looks at for one result."""

    options: dict[str, str]
    directions: Sequence[MeasuredDirection]
    error: int = 0
    facts: HostFacts | None = None
    target_path: str | None = None
    target_kind: str | None = None  # directory, block_device
    protocol: str | None = None  # the storage class's: block, nfs, smb, cfs
    hosts_in_run: int = 1
    min_hosts: int = 1
    figures: Sequence[ExpectedFigure] = field(default_factory=tuple)
    # The job's parameters with fio's defaults, and each direction against its spec line: worked
    # out once here for every rule and for the spec checks stored with the result.
    job: JobFacts = field(init=False)
    judged: list[tuple[MeasuredDirection, ExpectedFigure, Judgement]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "job", job_facts(self.options))
        object.__setattr__(self, "judged", _judge_all(self))


Rule = Callable[[Evidence], list[Finding]]


def _storage_mount(evidence: Evidence) -> HostMount | None:
    """The mount the target lives on (the longest mount point above its path)."""
    if evidence.facts is None or not evidence.target_path:
        return None
    best: HostMount | None = None
    for mount in evidence.facts.mounts:
        root = mount.mountpoint.rstrip("/") or "/"
        inside = evidence.target_path == root or evidence.target_path.startswith(root.rstrip("/") + "/")
        if inside and (best is None or len(root) > len(best.mountpoint)):
            best = mount
    return best


def _on_nfs(evidence: Evidence) -> bool:
    mount = _storage_mount(evidence)
    return (mount is not None and mount.fstype.startswith("nfs")) or evidence.protocol == "nfs"


def _is_windows(evidence: Evidence) -> bool:
    return evidence.facts is not None and (evidence.facts.os or "").lower().startswith("windows")


def _moving(evidence: Evidence) -> list[MeasuredDirection]:
    return [
        d for d in evidence.directions if d.direction in ("read", "write") and d.total_ios != 0 and d.iops > 0
    ]


def direct_off(evidence: Evidence) -> list[Finding]:
    """Buffered I/O measures the client's page cache."""
    if evidence.job.direct:
        return []
    return [
        Finding(
            code="direct_off",
            severity=Severity.warning,
            message="direct=0: I/O went through the client's page cache, so the figure is partly the cache's",
            fix="set direct=1 (O_DIRECT) to measure the storage",
        )
    ]


def libaio_without_direct(evidence: Evidence) -> list[Finding]:
    """libaio is asynchronous only with O_DIRECT."""
    job = evidence.job
    if job.ioengine != "libaio" or job.direct or job.iodepth <= 1:
        return []
    return [
        Finding(
            code="libaio_without_direct",
            severity=Severity.warning,
            message=f"ioengine=libaio without direct=1 is synchronous: iodepth={job.iodepth} never "
            "had more than one I/O in flight, the engine was the bottleneck",
            fix="add direct=1, or use numjobs for concurrency with a synchronous engine",
        )
    ]


def cached_read_file(evidence: Evidence) -> list[Finding]:
    """A read test on a file that fits in the host's memory reads the cache."""
    job = evidence.job
    memory = evidence.facts.memory_bytes if evidence.facts else None
    if not job.moves("read") or evidence.target_kind == "block_device" or not memory or not job.size_bytes:
        return []
    file_bytes = job.size_bytes
    if file_bytes >= 2 * memory:
        return []
    size, ram, twice = human_bytes(file_bytes), human_bytes(memory), human_bytes(2 * memory)
    if job.direct:
        return [
            Finding(
                code="cached_read_file",
                severity=Severity.info,
                message=f"the {size} test file is smaller than twice the host's {ram} of memory: "
                "direct=1 skips the client's cache, but a server-side cache may still hold it",
                fix=f"use size ≥ {twice} when reading through a server with a cache",
            )
        ]
    return [
        Finding(
            code="cached_read_file",
            severity=Severity.warning,
            message=f"the {size} test file fits in the host's {ram} of memory and direct=0: "
            "reads came from the page cache",
            fix=f"set direct=1, or use size ≥ {twice} (twice the host's memory)",
        )
    ]


def short_run(evidence: Evidence) -> list[Finding]:
    """Short runs and throughput runs without ramp time catch bursts, not steady state."""
    findings: list[Finding] = []
    runtimes = [d.runtime_ms for d in _moving(evidence)]
    if runtimes and max(runtimes) < 30_000:
        findings.append(
            Finding(
                code="short_run",
                severity=Severity.warning,
                message=f"the run measured for {max(runtimes) / 1000:.3g} s: caches, burst credits and "
                "warm-up dominate under 30 s",
                fix="set time_based=1 and runtime=60 (or more)",
            )
        )
    job = evidence.job
    throughput_test = any(job.metric(d.direction) == Metric.throughput for d in _moving(evidence))
    if throughput_test and not job.ramp_time_s:
        findings.append(
            Finding(
                code="no_ramp_time",
                severity=Severity.info,
                message="no ramp_time on a throughput test: "
                "the first seconds (queues filling, bursts) are counted",
                fix="add ramp_time=5 (or more)",
            )
        )
    return findings


def queue_depth_one_for_iops(evidence: Evidence) -> list[Finding]:
    """At one I/O in flight, IOPS is 1 / latency, not what the storage can do."""
    job = evidence.job
    if job.in_flight != 1:
        return []
    wants_iops = [d.direction for d in _moving(evidence) if job.metric(d.direction) == Metric.iops]
    if not wants_iops:
        return []
    return [
        Finding(
            code="queue_depth_one_for_iops",
            severity=Severity.warning,
            message="iodepth=1 and numjobs=1: this IOPS figure is 1 / latency, not the storage's IOPS",
            fix="raise iodepth (with direct=1 and an asynchronous engine) or numjobs; "
            "keep QD 1 only to measure latency",
        )
    ]


def _link_bytes(evidence: Evidence) -> float | None:
    if evidence.facts is None:
        return None
    speeds = [n.speed_mbps for n in evidence.facts.nics if n.speed_mbps and (n.state or "up") == "up"]
    return max(speeds) * 1e6 / 8 if speeds else None


def client_bound(evidence: Evidence) -> list[Finding]:
    """Throughput near the client's link speed measures the client's network."""
    link = _link_bytes(evidence)
    if link is None or (evidence.target_kind == "block_device" and not _on_nfs(evidence)):
        return []
    moved = sum(d.bw_bytes for d in _moving(evidence))
    if moved < 0.9 * link:
        return []
    fix = "run the plan on several hosts at once (host_label) and read the aggregate"
    workload = next((evidence.job.workload(d.direction) for d in _moving(evidence)), None)
    spec = figure_for(list(evidence.figures), Metric.throughput, workload or Workload.any)
    if spec is not None:
        needed = math.ceil(spec.expected * 1e6 / (0.9 * link))
        more = max(needed - evidence.hosts_in_run, 1)
        plural = "s" if more > 1 else ""
        fix = (
            f"add {more} host{plural}: the spec's {spec.expected:,.0f} MB/s needs {needed} at this link speed"
        )
    return [
        Finding(
            code="client_bound",
            severity=Severity.warning,
            message=f"{moved / 1e6:.0f} MB/s is {100 * moved / link:.0f}% of the client's "
            f"{link * 8 / 1e9:g} Gb/s link: the client's network, not the storage, set the figure",
            fix=fix,
        )
    ]


def too_few_hosts(evidence: Evidence) -> list[Finding]:
    """Some classes publish figures only several hosts reach together."""
    if evidence.min_hosts <= evidence.hosts_in_run:
        return []
    return [
        Finding(
            code="too_few_hosts",
            severity=Severity.warning,
            message=f"the class's published figures need {evidence.min_hosts} hosts at once; this run had "
            f"{evidence.hosts_in_run}",
            fix=f"run on {evidence.min_hosts} hosts together (host_ids or host_label) "
            "before comparing with the spec",
        )
    ]


def nfs_slot_table(evidence: Evidence) -> list[Finding]:
    """A small sunrpc slot table caps an NFS client's requests in flight."""
    if evidence.facts is None or not _on_nfs(evidence):
        return []
    facts = evidence.facts
    # Newer kernels grow the table up to its maximum; older ones keep the fixed size.
    limit = facts.sunrpc_tcp_max_slot_table_entries or facts.sunrpc_tcp_slot_table_entries
    if limit is None or limit >= evidence.job.in_flight:
        return []
    return [
        Finding(
            code="nfs_slot_table",
            severity=Severity.warning,
            message=f"the NFS client's sunrpc slot table allows {limit} requests in flight, "
            "the job asked for "
            f"{evidence.job.in_flight}: throughput is capped by the client",
            fix=f"raise sunrpc.tcp_max_slot_table_entries (≥ {evidence.job.in_flight}) and remount, "
            "or use nconnect",
        )
    ]


def windows_nfs_single_job(evidence: Evidence) -> list[Finding]:
    """Windows' NFS client serialises requests per file system."""
    if not _is_windows(evidence) or not _on_nfs(evidence) or evidence.job.numjobs > 1:
        return []
    return [
        Finding(
            code="windows_nfs_single_job",
            severity=Severity.warning,
            message="Windows' NFS client serialises requests per file system: one job cannot load the share",
            fix="raise numjobs (the published Windows recipes use numjobs=2 or more, with thread)",
        )
    ]


def littles_law(evidence: Evidence) -> list[Finding]:
    """IOPS × mean latency should equal the I/Os in flight; far off, something else waited."""
    job = evidence.job
    moving = [d for d in _moving(evidence) if d.lat_mean_ns and (d.total_ios or 0) >= 100]
    if job.rate_limited or not moving:
        return []
    observed = sum(d.iops * (d.lat_mean_ns or 0) / 1e9 for d in moving)
    expected = job.in_flight_per_result
    if abs(observed - expected) <= 0.25 * expected:
        return []
    return [
        Finding(
            code="littles_law",
            severity=Severity.info,
            message=f"IOPS × mean latency = {observed:.3g} I/Os in flight, but the job kept {expected}: "
            "the submitting side (CPU, engine, client) waited as well as the storage",
            fix="check CPU use and the engine; raise numjobs if fio's own thread is saturated",
        )
    ]


def bandwidth_mismatch(evidence: Evidence) -> list[Finding]:
    """Bandwidth must be IOPS × block size for a fixed block size."""
    findings = []
    for d in _moving(evidence):
        block = evidence.job.block_size.get(d.direction)
        if block is None or d.bw_bytes <= 0:
            continue
        implied = d.iops * block
        if abs(implied - d.bw_bytes) > 0.1 * d.bw_bytes:
            findings.append(
                Finding(
                    code="bandwidth_mismatch",
                    severity=Severity.critical,
                    message=f"bandwidth {d.bw_bytes / 1e6:.4g} MB/s is not IOPS × block size "
                    f"({implied / 1e6:.4g} MB/s): the output is damaged "
                    "or the job's options are not the ones that ran",
                    fix="re-run, or import the complete fio output with its job options",
                    direction=d.direction,
                )
            )
    return findings


def fio_errors(evidence: Evidence) -> list[Finding]:
    """fio reported an error, or I/Os that did not complete in full."""
    findings = []
    if evidence.error:
        reason = os.strerror(evidence.error) if 0 < evidence.error < 4096 else "unknown"
        findings.append(
            Finding(
                code="fio_error",
                severity=Severity.critical,
                message=f"fio reported error {evidence.error} ({reason}): the figures cover a failed run",
                fix="fix the cause in fio's output and re-run",
            )
        )
    for d in evidence.directions:
        short, dropped = d.short_ios or 0, d.dropped_ios or 0
        if short or dropped:
            findings.append(
                Finding(
                    code="short_ios",
                    severity=Severity.warning,
                    message=f"{short} short and {dropped} dropped I/Os",
                    fix="check the target's free space and errors in the host's kernel log, then re-run",
                    direction=d.direction,
                )
            )
    return findings


def measured_value(direction: MeasuredDirection, metric: Metric) -> float | None:
    """The direction's figure for a metric in the spec's units (IOPS, MB/s, ms)."""
    if metric == Metric.iops:
        return direction.iops
    if metric == Metric.throughput:
        return direction.bw_bytes / 1e6
    return direction.lat_mean_ns / 1e6 if direction.lat_mean_ns else None


def _judge_all(evidence: Evidence) -> list[tuple[MeasuredDirection, ExpectedFigure, Judgement]]:
    """Each direction's figure against its spec line: the job's kind of test, else the workload's own line."""
    judged = []
    for d in _moving(evidence):
        workload = evidence.job.workload(d.direction)
        if workload is None:
            continue
        metric = evidence.job.metric(d.direction)
        line = figure_for(list(evidence.figures), metric, workload)
        if line is None:
            own = [f for f in evidence.figures if f.workload == workload and f.metric != Metric.latency]
            line = own[0] if own else None
        value = measured_value(d, line.metric) if line else None
        if line is not None and value is not None:
            judged.append((d, line, judge(value, line)))
    return judged


def judgements(evidence: Evidence) -> list[tuple[MeasuredDirection, ExpectedFigure, Judgement]]:
    """Each direction's figure against its spec line (worked out when the evidence was gathered)."""
    return evidence.judged


def above_spec(evidence: Evidence) -> list[Finding]:
    """More than the storage can deliver: a cache answered."""
    findings = []
    for d, line, judgement in judgements(evidence):
        if judgement.verdict != Verdict.above:
            continue
        findings.append(
            Finding(
                code="above_spec",
                severity=Severity.warning,
                message=f"{judgement.percent:g}% of the spec's {line.expected:,.6g} {line.unit}: "
                "more than the storage delivers, a server-side cache answered",
                fix="use a working set larger than the server's cache, "
                "or drop the server's caches before the run",
                direction=d.direction,
            )
        )
    return findings


RULES: tuple[Rule, ...] = (
    fio_errors,
    bandwidth_mismatch,
    direct_off,
    libaio_without_direct,
    cached_read_file,
    short_run,
    queue_depth_one_for_iops,
    client_bound,
    too_few_hosts,
    nfs_slot_table,
    windows_nfs_single_job,
    littles_law,
    above_spec,
)
_ORDER = {Severity.critical: 0, Severity.warning: 1, Severity.info: 2}


# What can be said of a result whose job options fio did not print (a text output).
WITHOUT_OPTIONS: tuple[Rule, ...] = (fio_errors, too_few_hosts)
OPTIONS_UNKNOWN = Finding(
    code="options_unknown",
    severity=Severity.info,
    message="the output does not say which options the job ran with, so the method cannot be checked",
    fix="import fio's JSON output (--output-format=json), which carries the job options",
)


def advise(evidence: Evidence) -> list[Finding]:
    """Every finding for a result, most serious first."""
    if not evidence.options:
        findings = [finding for rule in WITHOUT_OPTIONS for finding in rule(evidence)] + [OPTIONS_UNKNOWN]
    else:
        findings = [finding for rule in RULES for finding in rule(evidence)]
    return sorted(findings, key=lambda f: _ORDER[f.severity])
