"""What the advisor looks at for one result, and what every rule asks of it: the directions that
moved, the mount the target lives on, each direction against its spec line."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from storbench_api.advisor.job_facts import JobFacts, job_facts
from storbench_api.storage_classes.expected import Judgement, figure_for, judge
from storbench_api.storage_classes.schemas import ExpectedFigure, Metric
from storbench_protocol.facts import HostFacts, HostMount


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


def on_nfs(evidence: Evidence) -> bool:
    """The target is on an NFS mount, or its storage class says NFS."""
    mount = _storage_mount(evidence)
    return (mount is not None and mount.fstype.startswith("nfs")) or evidence.protocol == "nfs"


def is_windows(evidence: Evidence) -> bool:
    """The host that ran the job runs Windows."""
    return evidence.facts is not None and (evidence.facts.os or "").lower().startswith("windows")


def moving_directions(evidence: Evidence) -> list[MeasuredDirection]:
    """The read and write directions that did I/O."""
    return [
        d for d in evidence.directions if d.direction in ("read", "write") and d.total_ios != 0 and d.iops > 0
    ]


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
    for d in moving_directions(evidence):
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
