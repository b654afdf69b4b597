"""Advisor rules on the job's method: caches it measured, bursts it caught, queues it never filled."""

from storbench_api.advisor.evidence import Evidence, moving_directions
from storbench_api.advisor.findings import Finding, Severity
from storbench_api.storage_classes.schemas import Metric
from storbench_fio.budget import human_bytes


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
    runtimes = [d.runtime_ms for d in moving_directions(evidence)]
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
    throughput_test = any(job.metric(d.direction) == Metric.throughput for d in moving_directions(evidence))
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
    wants_iops = [d.direction for d in moving_directions(evidence) if job.metric(d.direction) == Metric.iops]
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
