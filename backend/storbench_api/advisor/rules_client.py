"""Advisor rules on the client side: its network link, how many hosts ran, its NFS client's limits."""

import math

from storbench_api.advisor.evidence import Evidence, is_windows, moving_directions, on_nfs
from storbench_api.advisor.findings import Finding, Severity
from storbench_api.storage_classes.expected import figure_for
from storbench_api.storage_classes.schemas import Metric, Workload


def _link_bytes(evidence: Evidence) -> float | None:
    if evidence.facts is None:
        return None
    speeds = [n.speed_mbps for n in evidence.facts.nics if n.speed_mbps and (n.state or "up") == "up"]
    return max(speeds) * 1e6 / 8 if speeds else None


def client_bound(evidence: Evidence) -> list[Finding]:
    """Throughput near the client's link speed measures the client's network."""
    link = _link_bytes(evidence)
    if link is None or (evidence.target_kind == "block_device" and not on_nfs(evidence)):
        return []
    moved = sum(d.bw_bytes for d in moving_directions(evidence))
    if moved < 0.9 * link:
        return []
    fix = "run the plan on several hosts at once (host_label) and read the aggregate"
    workload = next((evidence.job.workload(d.direction) for d in moving_directions(evidence)), None)
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
    if evidence.facts is None or not on_nfs(evidence):
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
    if not is_windows(evidence) or not on_nfs(evidence) or evidence.job.numjobs > 1:
        return []
    return [
        Finding(
            code="windows_nfs_single_job",
            severity=Severity.warning,
            message="Windows' NFS client serialises requests per file system: one job cannot load the share",
            fix="raise numjobs (the published Windows recipes use numjobs=2 or more, with thread)",
        )
    ]
