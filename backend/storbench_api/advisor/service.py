"""Assessing a stored result: its spec check per direction and the advisor's findings."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.orm import Session

from storbench_api.advisor.advice import advise
from storbench_api.advisor.evidence import Evidence, MeasuredDirection, judgements
from storbench_api.advisor.findings import Finding
from storbench_api.models import Target
from storbench_api.models.storage_class import StorageClassSpec
from storbench_api.storage_classes import repository as storage_classes_repository
from storbench_api.storage_classes import service as storage_classes_service
from storbench_api.storage_classes.expected import Provisioned, Verdict, expected_figures
from storbench_api.storage_classes.schemas import ExpectedFigure, Metric, SpecIn, Workload
from storbench_protocol.facts import HostFacts


class SpecCheck(BaseModel):
    """One direction's measured figure against the spec line for its kind of test."""

    direction: str
    metric: Metric
    workload: Workload
    unit: str
    expected: float
    low: float | None
    measured: float
    percent: float = Field(description="measured as a percentage of expected")
    verdict: Verdict
    formula: str


@dataclass(frozen=True, slots=True)
class Assessment:
    """What the advisor says of one result."""

    findings: list[Finding]
    spec_checks: list[SpecCheck]


@dataclass(frozen=True, slots=True)
class SpecContext:
    """The storage class spec a result is judged by, at the target's provisioned figures."""

    spec: StorageClassSpec
    protocol: str
    provisioned: Provisioned


def spec_context(db: Session, target: Target | None) -> SpecContext | None:
    """The current spec of the target's storage class at its provisioned figures, if it has a class."""
    if target is None or target.storage_class_id is None:
        return None
    storage_class = storage_classes_repository.get_class(db, target.team_id, target.storage_class_id)
    if storage_class is None or not storage_class.specs:
        return None
    return SpecContext(
        spec=storage_classes_service.current_spec(storage_class),
        protocol=storage_class.protocol.value,
        provisioned=Provisioned(
            capacity_gib=target.capacity_gib, iops=target.provisioned_iops, mbps=target.provisioned_mbps
        ),
    )


def host_facts(raw: dict[str, Any] | None) -> HostFacts | None:
    """A host's stored facts, or None when there are none or they cannot be read."""
    if not raw:
        return None
    try:
        return HostFacts.model_validate(raw)
    except ValidationError:
        return None


def measured_directions(detail: Mapping[str, dict[str, Any]]) -> list[MeasuredDirection]:
    """A stored result's per-direction detail as the advisor reads it."""
    directions = []
    for name, d in detail.items():
        lat = d.get("lat_ns") or d.get("clat_ns") or {}
        directions.append(
            MeasuredDirection(
                direction=name,
                iops=float(d.get("iops") or 0),
                bw_bytes=float(d.get("bw_bytes") or 0),
                runtime_ms=int(d.get("runtime_ms") or 0),
                lat_mean_ns=lat.get("mean_ns"),
                total_ios=d.get("total_ios"),
                short_ios=d.get("short_ios"),
                dropped_ios=d.get("dropped_ios"),
            )
        )
    return directions


def assess(
    *,
    options: dict[str, str],
    directions: Sequence[MeasuredDirection],
    error: int = 0,
    facts: HostFacts | None = None,
    target_path: str | None = None,
    target_kind: str | None = None,
    hosts_in_run: int = 1,
    spec: SpecContext | None = None,
) -> Assessment:
    """Findings and spec checks for a result."""
    figures: list[ExpectedFigure] = []
    if spec is not None:
        published = SpecIn.model_validate(spec.spec, from_attributes=True)
        figures, _ = expected_figures(published, spec.provisioned)
    evidence = Evidence(
        options={str(k): str(v) for k, v in options.items()},
        directions=directions,
        error=error,
        facts=facts,
        target_path=target_path,
        target_kind=target_kind,
        protocol=spec.protocol if spec else None,
        hosts_in_run=hosts_in_run,
        min_hosts=spec.spec.min_hosts if spec else 1,
        figures=figures,
    )
    checks = [
        SpecCheck(
            direction=d.direction,
            metric=line.metric,
            workload=line.workload,
            unit=line.unit,
            expected=line.expected,
            low=line.low,
            measured=round(judgement.measured, 3),
            percent=judgement.percent,
            verdict=judgement.verdict,
            formula=line.formula,
        )
        for d, line, judgement in judgements(evidence)
    ]
    return Assessment(findings=advise(evidence), spec_checks=checks)
