"""Every class of the catalogue solved backwards: its figure at a capacity gives that capacity."""

from typing import Any

import pytest
from sqlalchemy.orm import Session

from storbench_api.planner.solve import (
    Demand,
    capacity_bounds,
    figures_at,
    requirements,
    smallest_capacity,
)
from storbench_api.storage_classes import repository
from storbench_api.storage_classes.expected import Provisioned
from storbench_api.storage_classes.schemas import Metric, SpecIn, Workload

# The kind of test each line is asked for with, when it is the line for every kind.
_ASKED_AS = {
    Workload.any: Workload.random_read,
}


def _catalogue(db: Session) -> dict[str, SpecIn]:
    return {
        c.name: SpecIn.model_validate(c.specs[-1], from_attributes=True)
        for c in repository.list_classes(db, team_id=0)
        if c.team_id is None
    }


def _demand_for(metric: Metric, workload: Workload, value: float) -> Demand:
    # IOPS asked at 4 KiB and throughput at 1 MiB: the other line of the class carries them easily.
    bs = 4096 if metric == Metric.iops else 1024 * 1024
    return Demand(metric=metric, value=value, workload=_ASKED_AS.get(workload, workload), bs_bytes=bs)


def _growing_capacity(spec: SpecIn, metric: Metric, workload: Workload) -> int | None:
    """A capacity below the line's cap where one GiB less gives less: None for a constant line."""
    low, high = capacity_bounds(spec, None)

    def value(c: int) -> float:
        return next(
            f.expected
            for f in figures_at(spec, c, Provisioned())
            if (f.metric, f.workload) == (metric, workload)
        )

    for capacity in (137, 61, 23, 7):
        if low < capacity < high and value(capacity) > value(capacity - 1):
            return capacity
    return None


def test_every_catalogue_line_is_solved_back_to_its_capacity(db: Session) -> None:
    solved: list[str] = []
    for name, spec in _catalogue(db).items():
        low, high = capacity_bounds(spec, None)
        for line in spec.expectations:
            if line.metric == Metric.latency:
                continue
            capacity = _growing_capacity(spec, line.metric, line.workload)
            at = capacity or low
            figure = next(
                f
                for f in figures_at(spec, at, Provisioned())
                if (f.metric, f.workload) == (line.metric, line.workload)
            )
            demand = _demand_for(line.metric, line.workload, figure.expected)
            needs = [
                r
                for r in requirements(figures_at(spec, low, Provisioned()), [demand])
                if r.key == (line.metric, line.workload)
            ]
            sizing = smallest_capacity(spec, needs)
            assert sizing.capacity_gib == at, (name, line.metric, line.workload, figure.expected)
            # Beyond what the largest volume gives, the class cannot.
            top = next(
                f.expected
                for f in figures_at(spec, high, Provisioned())
                if (f.metric, f.workload) == (line.metric, line.workload)
            )
            beyond = _demand_for(line.metric, line.workload, top * 1.01)
            needs = [
                r
                for r in requirements(figures_at(spec, low, Provisioned()), [beyond])
                if r.key == (line.metric, line.workload)
            ]
            refused = smallest_capacity(spec, needs)
            assert refused.capacity_gib is None, (name, line.metric)
            assert refused.shortfalls[0].ceiling == pytest.approx(top)
            solved.append(f"{name}/{line.metric}/{line.workload}")
    assert len(solved) >= 25  # every IOPS and throughput line of the 16 published classes


@pytest.mark.parametrize(
    ("metric", "value", "capacity"),
    [
        (Metric.iops, 20000, 627),  # 1200 + 30 × 627 = 20,010; 626 gives 19,980
        (Metric.iops, 16200, 500),
        (Metric.throughput, 300, 440),  # 80 + 0.5 × 440
        (Metric.throughput, 130.5, 101),
    ],
)
def test_an_ssd_cloud_disk_reaches_its_caps_well_below_800_gib(
    db: Session, metric: Metric, value: float, capacity: int
) -> None:
    spec = _catalogue(db)["SSD cloud disk"]
    demand = _demand_for(metric, Workload.any, value)
    needs = requirements(figures_at(spec, 1, Provisioned()), [demand])
    assert smallest_capacity(spec, needs).capacity_gib == capacity


def test_throughput_and_iops_of_one_block_size_load_both_lines(db: Session) -> None:
    spec = _catalogue(db)["SSD cloud disk"]
    # 20,000 IOPS of 16 KiB is 327.7 MB/s: the IOPS line holds, the 300 MB/s line does not.
    demand = Demand(metric=Metric.iops, value=20000, workload=Workload.random_read, bs_bytes=16384)
    sizing = smallest_capacity(spec, requirements(figures_at(spec, 1, Provisioned()), [demand]))
    assert sizing.capacity_gib is None
    assert [(s.requirement.metric, round(s.ceiling)) for s in sizing.shortfalls] == [(Metric.throughput, 300)]


def test_measured_ratio_scales_the_capacity(db: Session) -> None:
    spec = _catalogue(db)["SSD cloud disk"]
    demand = Demand(metric=Metric.iops, value=9600, workload=Workload.random_read, bs_bytes=4096)
    needs = requirements(figures_at(spec, 1, Provisioned()), [demand])
    assert smallest_capacity(spec, needs).capacity_gib == 280  # 1200 + 30 × 280 = 9,600
    ratios: dict[Any, float] = {(Metric.iops, Workload.any): 0.8}
    # 9,600 ÷ 0.8 = 12,000 = 1200 + 30 × 360
    assert smallest_capacity(spec, needs, ratios=ratios).capacity_gib == 360
