"""The capacity planner's workload, constraints and candidates as the API reads and writes them."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from storbench_api.models.storage_class import Protocol
from storbench_api.plans.schemas import PlanOut
from storbench_api.storage_classes.schemas import Metric, Workload
from storbench_api.wire import JSON_INTEGER, RequestBody
from storbench_fio.units import parse_size

# What a demand may ask for: the four kinds of test a spec publishes figures for.
RW_WORKLOADS = {
    "randread": Workload.random_read,
    "randwrite": Workload.random_write,
    "read": Workload.sequential_read,
    "write": Workload.sequential_write,
}
FIGURE_METRICS = {"iops": Metric.iops, "mbps": Metric.throughput}
MIN_BS, MAX_BS = 512, 64 * 1024 * 1024

ClassId = Annotated[int, Field(ge=1, le=2**31 - 1, strict=False), JSON_INTEGER]


class DemandIn(RequestBody):
    """One figure the workload needs, e.g. 20,000 IOPS of 8 KiB random reads with p99 under 2 ms."""

    figure: Literal["iops", "mbps"] = Field(description="IOPS, or MB/s (10^6 bytes, as vendors publish)")
    value: float = Field(gt=0, le=1e9, examples=[20000])
    rw: Literal["randread", "randwrite", "read", "write"] = Field(examples=["randread"])
    bs: str | int = Field(default="4k", description="block size: bytes or fio's units (8k, 1M)")
    latency_percentile: float | None = Field(default=None, ge=1, le=100, examples=[99])
    latency_ms: float | None = Field(default=None, gt=0, le=1e6, examples=[2])

    @field_validator("bs")
    @classmethod
    def _block_size(cls, value: str | int) -> str | int:
        try:
            size = parse_size(value)
        except ValueError as exc:
            raise ValueError(f"'{value}' is not a block size (e.g. 4k, 8k, 1M): {exc}") from None
        if not MIN_BS <= size <= MAX_BS:
            raise ValueError(f"a block size is between 512 bytes and 64 MiB ({value} given)")
        return value

    @property
    def bs_bytes(self) -> int:
        """The block size in bytes."""
        return parse_size(self.bs)


class Constraints(RequestBody):
    """What limits the choice; everything optional."""

    protocol: Protocol | None = Field(default=None, strict=False, description="only classes of this protocol")
    vendor: str | None = Field(default=None, min_length=1, max_length=120)
    max_hosts: Annotated[int | None, Field(ge=1, le=10_000, strict=False), JSON_INTEGER] = None
    budget: float | None = Field(
        default=None, ge=0, le=1e12, description="most per month, in the price's currency"
    )
    include_classes: list[ClassId] | None = Field(
        default=None, max_length=200, description="only these classes"
    )
    exclude_classes: list[ClassId] = Field(default_factory=list, max_length=200)
    data_gib: float | None = Field(default=None, gt=0, le=1e9, description="data the volume must hold")
    host_nic_mbps: float | None = Field(
        default=None,
        gt=0,
        le=1e7,
        description="one client's network in MB/s (default: the team's hosts' NICs, where they report them)",
    )


class PlannerRequest(RequestBody):
    """A workload (one or more demands, met at once) and its constraints."""

    demands: list[DemandIn] = Field(min_length=1, max_length=20)
    constraints: Constraints = Field(default_factory=Constraints)


class MeasuredRatio(BaseModel):
    """The team's measurements of one spec line: measured ÷ spec."""

    metric: Metric
    workload: Workload
    median: float | None = Field(description="over results not above the spec; None when all were")
    low: float | None
    high: float | None
    n: int = Field(description="results the median is taken over")
    above_spec: int = Field(description="results above the spec (a cache answered), left out")
    trusted: bool = Field(description="there are measurements of the sustained figure")


class LineLoad(BaseModel):
    """A spec line, the load the workload puts on it, and what it gives at the proposed capacity."""

    metric: Metric
    workload: Workload
    unit: str
    load: float
    spec_at_capacity: float | None = Field(description="the spec's figure at the proposed capacity")
    headroom: float | None = Field(description="spec_at_capacity ÷ load (after any measured ratio)")


class HostIops(BaseModel):
    """The most IOPS one client host reached on a class in one shape of I/O, and where it was measured."""

    workload: Workload
    bs_bytes: int
    iops: float
    result_id: int
    host_name: str
    job_name: str
    measured_at: datetime


class Candidate(BaseModel):
    """One storage class sized for the workload, or why it cannot carry it."""

    storage_class_id: int
    name: str
    vendor: str
    protocol: Protocol
    tier: str
    published: bool
    feasible: bool
    capacity_gib: int | None = Field(description="smallest capacity whose spec meets every demand")
    measured_capacity_gib: int | None = Field(
        description="the capacity needed if the team's measured-to-spec ratios hold"
    )
    proposed_capacity_gib: int | None = Field(description="what to buy: the larger of the two")
    provisioned_iops: float | None
    provisioned_mbps: float | None
    hosts: int | None = Field(description="client hosts needed at once")
    min_hosts: int
    hosts_by_nic: int | None = Field(description="hosts the throughput needs at one client's NIC speed")
    hosts_by_iops: int | None = Field(
        description="hosts the demands need at the most IOPS one host of the team reached on this class "
        "in each demand's shape (None: no such measurement)"
    )
    host_iops: list[HostIops] = Field(
        description="the measurements hosts_by_iops came from: one per demand that has one"
    )
    price_per_gib_month: float | None
    monthly_cost: float | None = Field(
        description="proposed capacity × price; None when the class has no price"
    )
    headroom: float | None = Field(
        description="the tightest line's figure ÷ its load at the proposed capacity"
    )
    lines: list[LineLoad]
    measured_ratio: MeasuredRatio | None = Field(description="the binding line's measurements, if any")
    measurements: list[MeasuredRatio]
    reasons: list[str] = Field(description="why it cannot, or what to know before choosing it")
    verification_presets: list[str] = Field(description="published recipes the verification plan runs")


class HostBounds(BaseModel):
    """What one client host can move, as the planner assumed it."""

    host_nic_mbps: float | None
    source: str


class PlannerAnswer(BaseModel):
    """Every class considered, feasible ones first, by cost then headroom."""

    candidates: list[Candidate]
    client: HostBounds


class VerificationRequest(PlannerRequest):
    """The workload again and the class chosen: its verification plan is saved."""

    storage_class_id: ClassId


class VerificationPlan(BaseModel):
    """The saved plan, and where it can run."""

    plan: PlanOut
    storage_class_id: int
    capacity_gib: int | None
    presets: list[str]
    target_ids: list[int] = Field(description="the team's targets of this class (run the plan on one)")
