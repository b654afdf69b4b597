"""The capacity planner: every class the team can buy, sized for a workload and ranked."""

import statistics
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.errors import Invalid
from storbench_api.models.storage_class import StorageClass
from storbench_api.planner import repository
from storbench_api.planner.candidate import ranked, size_class
from storbench_api.planner.host_measurements import host_measurements
from storbench_api.planner.schemas import (
    FIGURE_METRICS,
    RW_WORKLOADS,
    Candidate,
    Constraints,
    HostBounds,
    PlannerAnswer,
    PlannerRequest,
    VerificationPlan,
    VerificationRequest,
)
from storbench_api.planner.solve import Demand
from storbench_api.planner.verification import recipes_for, verification_jobs
from storbench_api.plans import repository as plans_repository
from storbench_api.plans import service as plans_service
from storbench_api.plans.schemas import PlanCreate
from storbench_api.storage_classes import repository as storage_classes_repository
from storbench_api.storage_classes import service as storage_classes_service
from storbench_fio.units import format_size


def demands_of(body: PlannerRequest) -> list[Demand]:
    """The request's demands as the solver reads them."""
    return [
        Demand(
            metric=FIGURE_METRICS[d.figure],
            value=d.value,
            workload=RW_WORKLOADS[d.rw],
            bs_bytes=d.bs_bytes,
            latency_ms=d.latency_ms,
            latency_percentile=d.latency_percentile,
        )
        for d in body.demands
    ]


def _fastest_nic_mbits(facts: dict[str, Any]) -> float | None:
    speeds = [
        float(nic["speed_mbps"])
        for nic in facts.get("nics") or []
        if isinstance(nic, dict)
        and isinstance(nic.get("speed_mbps"), int | float)
        and nic["speed_mbps"] > 0
        and nic.get("state") in (None, "up")
        and nic.get("name") != "lo"
    ]
    return max(speeds) if speeds else None


def client_bounds(db: Session, team_id: int, constraints: Constraints) -> HostBounds:
    """One client's network in MB/s: as given, else the median of the team's hosts' fastest NICs."""
    if constraints.host_nic_mbps is not None:
        return HostBounds(host_nic_mbps=constraints.host_nic_mbps, source="given in the constraints")
    speeds = [s for facts in repository.host_facts(db, team_id) if (s := _fastest_nic_mbits(facts))]
    if not speeds:
        return HostBounds(host_nic_mbps=None, source="no host of the team reports its NIC speed")
    median = statistics.median(speeds)
    return HostBounds(
        host_nic_mbps=median / 8,
        source=f"median fastest NIC of the team's {len(speeds)} hosts ({median:,.0f} Mb/s)",
    )


def _considered(db: Session, team_id: int, constraints: Constraints) -> list[StorageClass]:
    classes = storage_classes_repository.list_classes(db, team_id)
    if constraints.include_classes is not None:
        visible = {c.id for c in classes}
        missing = [i for i in constraints.include_classes if i not in visible]
        if missing:
            raise Invalid(
                f"no storage class {', '.join(map(str, missing))} in the catalogue or the team's own",
                [
                    {"field": "constraints.include_classes", "value": str(i), "reason": "not found"}
                    for i in missing
                ],
            )
        classes = [c for c in classes if c.id in constraints.include_classes]
    vendor = constraints.vendor.casefold() if constraints.vendor else None
    return [
        c
        for c in classes
        if c.specs
        and c.id not in constraints.exclude_classes
        and (constraints.protocol is None or c.protocol == constraints.protocol)
        and (vendor is None or c.vendor.casefold() == vendor)
    ]


def _candidates(db: Session, team_id: int, body: PlannerRequest, bounds: HostBounds) -> list[Candidate]:
    demands = demands_of(body)
    checks = repository.spec_checks_by_class(db, team_id)
    directions = repository.direction_rows_by_class(db, team_id)
    found = []
    for storage_class in _considered(db, team_id, body.constraints):
        described = storage_classes_service.describe(storage_class)
        checks_of = checks.get(storage_class.id, [])
        measured = host_measurements(directions.get(storage_class.id, []))
        found.append(
            size_class(described, demands, body.constraints, checks_of, bounds.host_nic_mbps, measured)
        )
    return ranked(found)


def plan_capacity(db: Session, team_id: int, body: PlannerRequest) -> PlannerAnswer:
    """Every class considered, sized for the workload, feasible first by cost then headroom."""
    bounds = client_bounds(db, team_id, body.constraints)
    return PlannerAnswer(candidates=_candidates(db, team_id, body, bounds), client=bounds)


def _free_plan_name(db: Session, team_id: int, name: str) -> str:
    candidate, n = name, 1
    while plans_repository.plan_by_name(db, team_id, candidate) is not None:
        n += 1
        candidate = f"{name} ({n})"
    return candidate


def _describe_plan(candidate: Candidate, demands: Sequence[Demand], presets: Sequence[str]) -> str:
    wanted = "; ".join(
        f"{d.value:,.0f} {'IOPS' if d.metric.value == 'iops' else 'MB/s'} "
        f"{d.workload.value} at {format_size(d.bs_bytes)}"
        + (f", p{d.latency_percentile or 99:g} under {d.latency_ms:g} ms" if d.latency_ms else "")
        for d in demands
    )
    capacity = f"{candidate.proposed_capacity_gib:,} GiB" if candidate.proposed_capacity_gib else "any size"
    return (
        f"Verifies the capacity planner's choice: {candidate.name} at {capacity}, "
        f"{candidate.hosts} client host(s). Demands: {wanted}. Published recipes: "
        f"{', '.join(presets) or 'none for this protocol'}, then each demand in its own shape. "
        f"Run it on a target of this class provisioned at {capacity}."
    )


def create_verification_plan(
    db: Session, principal: Principal, body: VerificationRequest
) -> VerificationPlan:
    """Save the plan that confirms a candidate: its class's recipes and the demanded shapes."""
    constraints = body.constraints.model_copy(update={"include_classes": [body.storage_class_id]})
    request = PlannerRequest(demands=body.demands, constraints=constraints)
    bounds = client_bounds(db, principal.team_id, constraints)
    found = _candidates(db, principal.team_id, request, bounds)
    if not found:
        raise Invalid(f"storage class {body.storage_class_id} is excluded by the constraints")
    candidate, demands = found[0], demands_of(body)
    recipes = recipes_for(candidate.protocol, demands)
    size = f" at {candidate.proposed_capacity_gib:,} GiB" if candidate.proposed_capacity_gib else ""
    try:
        plan_body = PlanCreate.model_validate(
            {
                "name": _free_plan_name(db, principal.team_id, f"Verify {candidate.name}{size}"[:110]),
                "description": _describe_plan(candidate, demands, [p.id for p in recipes]),
                "jobs": verification_jobs(recipes, demands),
            }
        )
    except ValidationError as exc:
        # A demand in a shape fio cannot run as a job (an odd block size with direct I/O…).
        raise Invalid(
            f"no verification plan can be saved for this workload: {exc.errors()[0]['msg']}",
            [{"field": "demands", "reason": str(error["msg"])} for error in exc.errors()],
        ) from None
    plan = plans_service.create_plan(db, principal, plan_body)
    return VerificationPlan(
        plan=plans_service.describe(plan),
        storage_class_id=candidate.storage_class_id,
        capacity_gib=candidate.proposed_capacity_gib,
        presets=[p.id for p in recipes],
        target_ids=repository.targets_of_class(db, principal.team_id, candidate.storage_class_id),
    )
