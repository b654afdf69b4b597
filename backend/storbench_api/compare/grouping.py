"""Grouped views: results by class, vendor, host, label or a job option, with spread and price.

A group never mixes results that measured different things: within every key, results are kept
apart by job shape (rw, bs, iodepth, numjobs) unless the key is one of those options.
"""

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.compare import repository
from storbench_api.compare.schemas import (
    CompareDirection,
    GroupBy,
    GroupOut,
    GroupSource,
    GroupsOut,
    ShapeOut,
)
from storbench_api.compare.stats import spread
from storbench_api.errors import Invalid
from storbench_api.figures.definition import Figure, MeasuredPer
from storbench_api.models import StorageClass
from storbench_api.results.filters import ResultFilters
from storbench_api.rollup import read as rollup_read
from storbench_api.rollup.counts import PRECISION_PCT, stored_capacity
from storbench_api.storage_classes import repository as storage_classes_repository
from storbench_fio.reported import SHAPE_KEYS, job_shape

NONE_KEY = "(none)"
ROLLUP_NOTE = (
    "every result of the team counted (from the rollup): n, min and max exact, median and quartiles "
    f"within ±{PRECISION_PCT} % (1 % logarithmic bins); no result ids listed"
)
MAX_GROUP_IDS = 100
# Targets in one group disagree when their quartile ranges do not overlap and their medians are
# further apart than this: run-to-run noise of one volume is a few percent, so 10 % is a difference.
DISAGREE_RATIO = 1.10
# What a dollar figure is per: $ per 1,000 IOPS, or $ per MB/s (vendors' MB: 10^6 bytes).
_DOLLAR_UNIT = {Figure.iops: 1000.0, Figure.bw_bytes: 1e6}
_CLASS_KEYS = {
    GroupBy.vendor: "vendor",
    GroupBy.tier: "tier",
    GroupBy.protocol: "protocol",
    GroupBy.medium: "medium",
}


@dataclass
class _Group:
    key: str
    shape: dict[str, str]
    ids: list[int] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    capacities: list[float] = field(default_factory=list)
    per_gib: list[float] = field(default_factory=list)
    prices: list[float] = field(default_factory=list)
    per_dollar: list[float] = field(default_factory=list)
    by_target: dict[int | None, list[float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Classes:
    by_id: dict[int, StorageClass]
    by_name: dict[str, StorageClass]
    spec_class: dict[int, int]
    spec_price: dict[int, float | None]

    def of(self, row: Any) -> StorageClass | None:
        if row.storage_class_spec_id in self.spec_class:
            return self.by_id.get(self.spec_class[row.storage_class_spec_id])
        if row.storage_class_id is not None and row.storage_class_id in self.by_id:
            return self.by_id[row.storage_class_id]
        return self.by_name.get(row.storage_class) if row.storage_class else None

    def price(self, row: Any, storage_class: StorageClass | None) -> float | None:
        if row.storage_class_spec_id in self.spec_price:
            return self.spec_price[row.storage_class_spec_id]
        if storage_class is None:
            return None
        current = [s for s in storage_class.specs if s.version == storage_class.current_version]
        return current[0].price_per_gib_month if current else None


def _classes(db: Session, team_id: int) -> _Classes:
    classes = storage_classes_repository.list_classes(db, team_id)
    by_name: dict[str, StorageClass] = {}
    for c in classes:  # the team's own class wins over a published one of the same name
        if c.name not in by_name or c.team_id is not None:
            by_name[c.name] = c
    specs = [s for c in classes for s in c.specs]
    return _Classes(
        by_id={c.id: c for c in classes},
        by_name=by_name,
        spec_class={s.id: s.storage_class_id for s in specs},
        spec_price={s.id: s.price_per_gib_month for s in specs},
    )


def _key(by: GroupBy, row: Any, shape: dict[str, str], storage_class: StorageClass | None) -> str:
    if by in (GroupBy.bs, GroupBy.iodepth, GroupBy.numjobs, GroupBy.rw):
        return shape[by.value]
    if by is GroupBy.storage_class:
        return row.storage_class or (storage_class.name if storage_class else None) or NONE_KEY
    if by is GroupBy.host:
        return str(row.host_name)
    if by is GroupBy.label:
        return row.label or NONE_KEY
    if storage_class is None:
        return NONE_KEY
    return str(getattr(storage_class, _CLASS_KEYS[by]))


def _capacity(row: Any) -> float | None:
    stored = stored_capacity(row.comparability)
    capacity = stored if stored is not None else row.capacity_gib
    return float(capacity) if capacity else None


def _figure_value(row: Any, figure: Figure) -> float | None:
    if figure.per is MeasuredPer.job:
        value = (row.cpu or {}).get(figure.key)
        return float(value) if isinstance(value, int | float) else None
    return float(row.figure) if row.figure is not None else None


def _add(group: _Group, row: Any, value: float, figure: Figure, price: float | None) -> None:
    group.ids.append(row.id)
    group.values.append(value)
    group.by_target.setdefault(row.target_id, []).append(value)
    capacity = _capacity(row)
    if capacity is None:
        return
    group.capacities.append(capacity)
    if figure in (Figure.iops, Figure.bw_bytes):
        group.per_gib.append(value / capacity)
        if price is not None and value > 0:
            group.prices.append(price)
            monthly = capacity * price
            group.per_dollar.append(monthly / (value / _DOLLAR_UNIT[figure]))


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _target_name(target_id: int | None) -> str:
    return f"target #{target_id}" if target_id is not None else "imports without a target"


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def disagreement(by_target: dict[int | None, list[float]]) -> str | None:
    """Words when the lowest and highest target of a group measured clearly different things."""
    if len(by_target) < 2:
        return None
    spreads = {t: spread(v) for t, v in by_target.items()}
    low = min(spreads, key=lambda t: spreads[t][0])
    high = max(spreads, key=lambda t: spreads[t][0])
    (low_median, _, low_p75, _, _), (high_median, high_p25, _, _, _) = spreads[low], spreads[high]
    if low_median <= 0 or high_median / low_median <= DISAGREE_RATIO or low_p75 >= high_p25:
        return None
    high_n, low_n = len(by_target[high]), len(by_target[low])
    return (
        f"the targets disagree: {_target_name(high)} median {_number(high_median)} (n = {high_n}) vs "
        f"{_target_name(low)} {_number(low_median)} (n = {low_n}), quartiles apart; "
        "group by host or compare the targets before trusting this median"
    )


def _out(group: _Group, figure: Figure) -> GroupOut:
    median, p25, p75, low, high = spread(group.values)
    per_dollar = _median(group.per_dollar)
    return GroupOut(
        key=group.key,
        shape=ShapeOut(**group.shape),
        n=len(group.values),
        targets=len(group.by_target),
        targets_disagree=disagreement(group.by_target),
        median=median,
        p25=p25,
        p75=p75,
        min=low,
        max=high,
        result_ids=group.ids[:MAX_GROUP_IDS],
        capacity_gib=_median(group.capacities),
        per_gib=_median(group.per_gib),
        price_per_gib_month=_median(group.prices),
        dollars_per_1000_iops=per_dollar if figure is Figure.iops else None,
        dollars_per_mbps=per_dollar if figure is Figure.bw_bytes else None,
    )


def _note(by: GroupBy) -> str:
    if by.value in SHAPE_KEYS:
        others = ", ".join(k for k in SHAPE_KEYS if k != by.value)
        return f"grouped by {by.value}; results are kept apart by the rest of the job shape ({others})"
    return (
        "results are kept apart by job shape (rw, bs, iodepth, numjobs): a group holds only results "
        "that ran the same kind of job; group by one of these options to set them side by side"
    )


def _rollup_answers(filters: ResultFilters, by: GroupBy) -> bool:
    """Whether the rollup holds what these filters and this grouping need.

    It keeps results apart by target, class, job name, imported and job shape only; its '' stands
    for no class and no job name, so those empty filters need the results themselves.
    """
    per_result = (
        filters.ids,
        filters.label,
        filters.host_name,
        filters.run_id,
        filters.measured_after,
        filters.measured_before,
    )
    return (
        all(f is None for f in per_result)
        and by not in (GroupBy.host, GroupBy.label)
        and filters.storage_class != ""
        and filters.job_name != ""
    )


def _resolver(classes: _Classes, by: GroupBy) -> rollup_read.Resolve:
    def resolve(row: rollup_read.RowFacts, shape: dict[str, str]) -> tuple[str, float | None]:
        storage_class = classes.of(row)
        return _key(by, row, shape, storage_class), classes.price(row, storage_class)

    return resolve


def _from_results(
    db: Session,
    team_id: int,
    by: GroupBy,
    figure: Figure,
    direction: CompareDirection,
    filters: ResultFilters,
    classes: _Classes,
) -> tuple[list[GroupOut], bool]:
    column = None if figure.per is MeasuredPer.job else figure.key
    rows = repository.group_rows(db, team_id, filters, direction.value, column)
    truncated = len(rows) > repository.MAX_GROUP_ROWS
    found: dict[tuple[str, tuple[tuple[str, str], ...]], _Group] = {}
    for row in rows[: repository.MAX_GROUP_ROWS]:
        value = _figure_value(row, figure)
        if value is None:
            continue
        shape = job_shape((row.comparability or {}).get("job") or row.options or {})
        storage_class = classes.of(row)
        key = _key(by, row, shape, storage_class)
        kept = {k: v for k, v in shape.items() if k != by.value}
        group = found.setdefault((key, tuple(kept.items())), _Group(key, kept))
        _add(group, row, value, figure, classes.price(row, storage_class))
    if filters.ids is not None and not found:
        what = figure.value if figure.per is MeasuredPer.job else f"{direction.value} {figure.value}"
        raise Invalid(
            f"none of the results given has a {what} figure; choose another figure or direction",
            [{"field": "figure", "value": figure.value, "reason": f"no {what} in these results"}],
        )
    return [_out(g, figure) for g in found.values()], truncated


def _from_rollup(
    db: Session,
    team_id: int,
    by: GroupBy,
    figure: Figure,
    direction: CompareDirection,
    filters: ResultFilters,
    classes: _Classes,
) -> list[GroupOut]:
    rolled = rollup_read.groups(
        db,
        team_id,
        by_value=by.value,
        figure=figure.value,
        direction=direction.value,
        filters=filters,
        resolve=_resolver(classes, by),
        dollar_unit=_DOLLAR_UNIT.get(figure),
    )
    return [
        GroupOut(
            key=g.key,
            shape=ShapeOut(**g.shape),
            n=g.n,
            median=g.median,
            p25=g.p25,
            p75=g.p75,
            min=g.low,
            max=g.high,
            result_ids=[],
            capacity_gib=g.capacity_gib,
            per_gib=g.per_gib,
            price_per_gib_month=g.price_per_gib_month,
            dollars_per_1000_iops=g.per_dollar if figure is Figure.iops else None,
            dollars_per_mbps=g.per_dollar if figure is Figure.bw_bytes else None,
        )
        for g in rolled
    ]


def groups(
    db: Session,
    team_id: int,
    by: GroupBy,
    figure: Figure,
    direction: CompareDirection,
    filters: ResultFilters,
) -> GroupsOut:
    """Per group (key and job shape): n, median, quartiles, range, per GiB and per dollar.

    Answered from the rollup (every result of the team, quantiles within ±0.5 %) when the filters
    and the grouping allow it; otherwise from the results themselves (the newest 100,000).
    """
    classes = _classes(db, team_id)
    if _rollup_answers(filters, by):
        source = GroupSource.rollup
        found = _from_rollup(db, team_id, by, figure, direction, filters, classes)
        truncated = False
    else:
        source = GroupSource.results
        found, truncated = _from_results(db, team_id, by, figure, direction, filters, classes)
    ordered = sorted(
        found,
        key=lambda g: (
            tuple(v for v in g.shape.model_dump().values() if v is not None),
            -g.median if figure.higher_is_better else g.median,
            g.key,
        ),
    )
    note = _note(by)
    if source is GroupSource.rollup:
        note += f"; {ROLLUP_NOTE}"
    return GroupsOut(
        by=by,
        figure=figure,
        direction=direction,
        unit=figure.unit,
        higher_is_better=figure.higher_is_better,
        note=note,
        source=source,
        truncated=truncated,
        groups=ordered,
    )
