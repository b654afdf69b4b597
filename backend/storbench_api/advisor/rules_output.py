"""Advisor rules on fio's figures themselves: errors, figures that contradict each other, figures
above what the storage can deliver."""

import os

from storbench_api.advisor.evidence import Evidence, judgements, moving_directions
from storbench_api.advisor.findings import Finding, Severity
from storbench_api.storage_classes.expected import Verdict


def littles_law(evidence: Evidence) -> list[Finding]:
    """IOPS × mean latency should equal the I/Os in flight; far off, something else waited."""
    job = evidence.job
    moving = [d for d in moving_directions(evidence) if d.lat_mean_ns and (d.total_ios or 0) >= 100]
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
    for d in moving_directions(evidence):
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
