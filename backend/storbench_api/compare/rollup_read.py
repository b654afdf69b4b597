"""Grouped views answered from the rollup: a few thousand rows of histograms instead of every result.

Each rollup row's histogram stands for its values by each bin's geometric middle, clamped to the
row's exact min and max; the quantiles of a group (numpy's linear interpolation, as on the results
path) are then read from the merged histograms, within ±0.5 % of the exact ones. n, min and max are
exact. Per GiB and per dollar figures divide each value by its row's capacity (the capacity the
result stored, else its target's current one) and price (its spec's, else its class's current one).
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from storbench_api.compare.repository import ResultFilters
from storbench_api.compare.rollup import JOB, LN_BASE
from storbench_api.compare.schemas import GroupOut, ShapeOut
from storbench_api.figures.definition import Figure, MeasuredPer
from storbench_api.models import GroupRollup, Target

_ZERO_BIN = -(10**9)  # values ≤ 0: exp((bin + 0.5) ln 1.01) underflows to 0, then clamped to [min, max]
_SHAPE = ("rw", "bs", "iodepth", "numjobs")


def answerable(filters: ResultFilters, by_value: str) -> bool:
    """Whether the rollup holds what these filters and this grouping need."""
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
        and by_value not in ("host", "label")
        and filters.storage_class != ""
        and filters.job_name != ""
    )


@dataclass(frozen=True, slots=True)
class RowFacts:
    """What the grouping reads of a rollup row, named as on a result row."""

    storage_class: str | None
    storage_class_spec_id: int | None
    storage_class_id: int | None
    comparability: dict[str, Any]
    capacity_gib: float | None
    host_name: None = None
    label: None = None


# (row facts, shape) → (group key, price per GiB-month or None)
Resolve = Callable[[RowFacts, dict[str, str]], tuple[str, float | None]]


def _rows(db: Session, team_id: int, direction: str, figure: str, filters: ResultFilters) -> Sequence[Any]:
    query = (
        select(
            GroupRollup.storage_class,
            GroupRollup.storage_class_spec_id,
            GroupRollup.capacity_gib,
            GroupRollup.rw,
            GroupRollup.bs,
            GroupRollup.iodepth,
            GroupRollup.numjobs,
            GroupRollup.n,
            GroupRollup.zeros,
            GroupRollup.low,
            GroupRollup.high,
            cast(GroupRollup.bins, Text).label("bins_text"),
            cast(GroupRollup.counts, Text).label("counts_text"),
            Target.capacity_gib.label("target_capacity"),
            Target.storage_class_id,
        )
        .outerjoin(Target, Target.id == GroupRollup.target_id)
        .where(
            GroupRollup.team_id == team_id, GroupRollup.direction == direction, GroupRollup.figure == figure
        )
    )
    if filters.target_id is not None:
        query = query.where(GroupRollup.target_id == filters.target_id)
    if filters.storage_class is not None:
        query = query.where(GroupRollup.storage_class == filters.storage_class)
    if filters.job_name is not None:
        query = query.where(GroupRollup.job_name == filters.job_name)
    if filters.imported is not None:
        query = query.where(GroupRollup.imported == filters.imported)
    return db.execute(query).all()


def _quantiles(
    values: npt.NDArray[np.float64],
    weights: npt.NDArray[np.int64],
    groups: npt.NDArray[np.int64],
    count: int,
    qs: Sequence[float],
) -> list[npt.NDArray[np.float64]]:
    """Per group, numpy's linear-interpolated percentiles of values each repeated weights times."""
    keep = weights > 0
    values, weights, groups = values[keep], weights[keep], groups[keep]
    order = np.lexsort((values, groups))
    values, weights, groups = values[order], weights[order], groups[order]
    cum = np.cumsum(weights)
    totals = np.bincount(groups, weights=weights, minlength=count).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(totals)[:-1]))
    present = totals > 0
    found = []
    for q in qs:
        out = np.full(count, np.nan)
        if len(values):
            pos = q * (totals[present] - 1)
            low = np.floor(pos).astype(np.int64)
            frac = pos - low
            high = np.minimum(low + 1, totals[present] - 1)
            at_low = values[np.searchsorted(cum, starts[present] + low, side="right")]
            at_high = values[np.searchsorted(cum, starts[present] + high, side="right")]
            out[present] = at_low + frac * (at_high - at_low)
        found.append(out)
    return found


def _value(array: npt.NDArray[np.float64], index: int) -> float | None:
    value = float(array[index])
    return None if np.isnan(value) else value


def groups(
    db: Session,
    team_id: int,
    by_value: str,
    figure: Figure,
    direction: str,
    filters: ResultFilters,
    resolve: Resolve,
) -> list[GroupOut]:
    """Per group (key and job shape): n, median, quartiles, range, per GiB and per dollar."""
    cpu = figure.per is MeasuredPer.job
    rows = _rows(db, team_id, JOB if cpu else direction, figure.value, filters)
    if not rows:
        return []
    # Columns, not rows: attribute access on thousands of rows costs more than the arithmetic.
    (
        classes,
        specs,
        stored,
        rws,
        bss,
        depths,
        jobs,
        ns,
        zeros,
        row_lows,
        row_highs,
        bin_texts,
        count_texts,
    ) = (list(c) for c in zip(*(r[:13] for r in rows), strict=True))
    target_capacities = [r[13] for r in rows]
    class_ids = [r[14] for r in rows]
    index: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    resolved: dict[tuple[Any, ...], tuple[str, float | None]] = {}
    by_shape = by_value in _SHAPE
    row_group, capacities, prices = [], [], []
    for row_class, spec, kept_capacity, target_capacity, class_id, shape in zip(
        classes,
        specs,
        stored,
        target_capacities,
        class_ids,
        zip(rws, bss, depths, jobs, strict=True),
        strict=True,
    ):
        capacity = kept_capacity if kept_capacity != -1 else target_capacity
        capacity = float(capacity) if capacity else None
        memo = (row_class, spec, class_id, None if by_shape else shape)
        if memo not in resolved:
            facts = RowFacts(row_class or None, spec or None, class_id, {}, capacity)
            resolved[memo] = resolve(facts, dict(zip(_SHAPE, shape, strict=True)))
        key, price = resolved[memo]
        if by_shape:
            key = shape[_SHAPE.index(by_value)]
        kept = tuple((k, v) for k, v in zip(_SHAPE, shape, strict=True) if k != by_value)
        row_group.append(index.setdefault((key, kept), len(index)))
        capacities.append(capacity if capacity is not None else np.nan)
        prices.append(price if price is not None else np.nan)
    texts = [(b.strip()[1:-1].strip(), c.strip()[1:-1]) for b, c in zip(bin_texts, count_texts, strict=True)]
    lengths = [t[0].count(",") + 1 if t[0] else 0 for t in texts]
    texts = [t for t in texts if t[0]]
    count = len(index)
    g_row = np.asarray(row_group, dtype=np.int64)
    n_row = np.asarray(ns, dtype=np.int64)
    zeros_row = np.asarray(zeros, dtype=np.int64)
    low_row = np.asarray(row_lows, dtype=np.float64)
    high_row = np.asarray(row_highs, dtype=np.float64)
    cap_row = np.asarray(capacities, dtype=np.float64)
    price_row = np.asarray(prices, dtype=np.float64)
    # Every row's histogram parsed at once: the JSON arrays' texts joined, read by numpy.
    binned = np.asarray(json.loads("[" + ",".join(t[0] for t in texts) + "]"), dtype=np.float64)
    counted = np.asarray(json.loads("[" + ",".join(t[1] for t in texts) + "]"), dtype=np.int64)
    with_zeros = np.flatnonzero(zeros_row)
    own = np.concatenate((np.repeat(np.arange(len(rows)), lengths), with_zeros)).astype(np.int64)
    b = np.concatenate((binned, np.full(len(with_zeros), float(_ZERO_BIN))))
    counts = np.concatenate((counted, zeros_row[with_zeros])).astype(np.int64)
    weights = counts
    values = np.clip(np.exp((b + 0.5) * LN_BASE), low_row[own], high_row[own])
    groups_of = g_row[own]

    n = np.bincount(g_row, weights=n_row, minlength=count).astype(np.int64)
    lows = np.full(count, np.inf)
    np.minimum.at(lows, g_row, low_row)
    highs = np.full(count, -np.inf)
    np.maximum.at(highs, g_row, high_row)
    p25, median, p75 = _quantiles(values, weights, groups_of, count, (0.25, 0.5, 0.75))
    has_cap = ~np.isnan(cap_row)
    (capacity,) = _quantiles(cap_row, np.where(has_cap, n_row, 0), g_row, count, (0.5,))
    per_gib = per_dollar = price_median = np.full(count, np.nan)
    if figure in (Figure.iops, Figure.bw_bytes):
        cap_el = cap_row[own]
        with_cap = ~np.isnan(cap_el)
        (per_gib,) = _quantiles(
            np.where(with_cap, values / np.where(with_cap, cap_el, 1.0), 0.0),
            np.where(with_cap, weights, 0),
            groups_of,
            count,
            (0.5,),
        )
        priced = has_cap & ~np.isnan(price_row)
        (price_median,) = _quantiles(price_row, np.where(priced, n_row - zeros_row, 0), g_row, count, (0.5,))
        monthly = (cap_row * price_row)[own]
        positive = priced[own] & (b != _ZERO_BIN) & (values > 0)
        unit = 1000.0 if figure is Figure.iops else 1e6
        safe = np.where(positive, values, 1.0)
        (per_dollar,) = _quantiles(
            np.where(positive, monthly / (safe / unit), 0.0),
            np.where(positive, weights, 0),
            groups_of,
            count,
            (0.5,),
        )
    found = []
    for (key, kept), g in index.items():
        if not n[g]:
            continue
        found.append(
            GroupOut(
                key=key,
                shape=ShapeOut(**dict(kept)),
                n=int(n[g]),
                median=float(median[g]),
                p25=float(p25[g]),
                p75=float(p75[g]),
                min=float(lows[g]),
                max=float(highs[g]),
                result_ids=[],
                capacity_gib=_value(capacity, g),
                per_gib=_value(per_gib, g),
                price_per_gib_month=_value(price_median, g),
                dollars_per_1000_iops=_value(per_dollar, g) if figure is Figure.iops else None,
                dollars_per_mbps=_value(per_dollar, g) if figure is Figure.bw_bytes else None,
            )
        )
    return found
