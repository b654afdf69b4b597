"""Storage classes and specs as the API reads and writes them."""

import enum
from datetime import datetime
from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from storbench_api.models.storage_class import Medium, Protocol
from storbench_api.storage_classes.formula import MAX_FORMULA_LENGTH, FormulaError, parse_formula
from storbench_api.wire import JSON_INTEGER, RequestBody


class Metric(enum.StrEnum):
    """The figure a spec line promises: IOPS, throughput in MB/s (as vendors publish it) or latency in ms."""

    iops = "iops"
    throughput = "throughput"
    latency = "latency"


UNITS = {Metric.iops: "IOPS", Metric.throughput: "MB/s", Metric.latency: "ms"}


class Workload(enum.StrEnum):
    """Which tests a spec line is for; `any` when the vendor publishes one figure for all."""

    any = "any"
    random_read = "random_read"
    random_write = "random_write"
    sequential_read = "sequential_read"
    sequential_write = "sequential_write"


FormulaText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_FORMULA_LENGTH,
        description="arithmetic of C (GiB), provisioned_iops, provisioned_mbps: + - × / min() max()",
        examples=["min(1200 + 30 * C, 20000)"],
    ),
]


def _checked(text: str) -> str:
    try:
        parse_formula(text)
    except FormulaError as exc:
        raise ValueError(str(exc)) from None
    return text


class Expectation(RequestBody):
    """One published figure: a formula for the expected value, or a range low..formula."""

    model_config = ConfigDict(extra="forbid")

    metric: Metric = Field(strict=False)
    workload: Workload = Field(default=Workload.any, strict=False)
    formula: FormulaText
    low_formula: FormulaText | None = Field(
        default=None, description="lower end when the vendor publishes a range (e.g. latency 0.5-2 ms)"
    )
    note: str | None = Field(default=None, max_length=300)

    @field_validator("formula", "low_formula")
    @classmethod
    def _readable(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value)


class SpecIn(RequestBody):
    """A spec: the expected figures and where they hold."""

    model_config = ConfigDict(extra="forbid")

    expectations: list[Expectation] = Field(min_length=1, max_length=40)
    min_capacity_gib: float | None = Field(default=None, ge=0, le=1e9)
    max_capacity_gib: float | None = Field(default=None, gt=0, le=1e9)
    min_hosts: Annotated[int, Field(ge=1, le=10_000, strict=False), JSON_INTEGER] = 1
    price_per_gib_month: float | None = Field(default=None, ge=0, le=1e6, description="price per GiB-month")
    notes: str | None = Field(default=None, max_length=2000)

    @model_validator(mode="after")
    def _capacity_range(self) -> Self:
        if (
            self.min_capacity_gib is not None
            and self.max_capacity_gib is not None
            and self.min_capacity_gib > self.max_capacity_gib
        ):
            raise ValueError("min_capacity_gib is larger than max_capacity_gib")
        seen: set[tuple[Metric, Workload]] = set()
        for line in self.expectations:
            if (line.metric, line.workload) in seen:
                raise ValueError(f"two expectations for {line.metric.value} on {line.workload.value} tests")
            seen.add((line.metric, line.workload))
        return self


Text120 = Annotated[str, Field(min_length=1, max_length=120)]


class StorageClassCreate(RequestBody):
    """A team's own storage class with its first spec."""

    model_config = ConfigDict(extra="forbid")

    name: Text120
    vendor: Text120
    product: Text120
    tier: Text120
    protocol: Protocol = Field(strict=False)
    medium: Medium = Field(default=Medium.unknown, strict=False)
    source: str = Field(min_length=1, max_length=2000, description="where the figures come from")
    spec: SpecIn

    @field_validator("name", "vendor", "product", "tier", "source")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


class StorageClassUpdate(RequestBody):
    """Changes to a team's class; a new spec is a new version (results keep the one that judged them)."""

    model_config = ConfigDict(extra="forbid")

    name: Text120 | None = None
    vendor: Text120 | None = None
    product: Text120 | None = None
    tier: Text120 | None = None
    medium: Medium | None = Field(default=None, strict=False)
    source: str | None = Field(default=None, min_length=1, max_length=2000)
    spec: SpecIn | None = None


class SpecOut(SpecIn):
    """One version of a class's spec."""

    id: int
    version: int
    created_by: str
    created_at: datetime


class StorageClassOut(BaseModel):
    """A storage class with its current spec."""

    id: int
    name: str
    vendor: str
    product: str
    tier: str
    protocol: Protocol
    medium: Medium
    source: str
    published: bool = Field(description="part of storbench's published catalogue (read-only)")
    version: int
    spec: SpecOut


class StorageClassList(BaseModel):
    """The published catalogue and the team's own classes."""

    items: list[StorageClassOut]
    total: int


class SpecVersionList(BaseModel):
    """Every version of a class's spec, oldest first."""

    items: list[SpecOut]
    total: int


class ExpectedFigure(BaseModel):
    """What the spec promises for one kind of test at the given provisioned figures."""

    metric: Metric
    workload: Workload
    unit: str
    expected: float = Field(description="the promised figure (the upper end of a range)")
    low: float | None = Field(description="the lower end when the vendor publishes a range")
    formula: str
    low_formula: str | None
    note: str | None


class ExpectedSpec(BaseModel):
    """A class's spec evaluated at a provisioned capacity, with the formulas shown."""

    storage_class_id: int
    spec_id: int
    version: int
    capacity_gib: float | None
    provisioned_iops: float | None
    provisioned_mbps: float | None
    iops: ExpectedFigure | None = Field(description="the figure for all tests, if the class has one")
    throughput: ExpectedFigure | None
    latency: ExpectedFigure | None
    figures: list[ExpectedFigure] = Field(description="every line of the spec, per kind of test")
    min_hosts: int
    warnings: list[str] = Field(description="e.g. a capacity outside what the class is sold in")
