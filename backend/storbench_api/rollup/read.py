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
from sqlalchemy.orm import Session

from storbench_api.rollup import repository
from storbench_api.rollup.counts import CPU_FIGURES, JOB, LN_BASE
from storbench_api.rollup.repository import KeyFilters

_ZERO_BIN = -(10**9)  # values ≤ 0: exp((bin + 0.5) ln 1.01) underflows to 0, then clamped to [min, max]
_SHAPE = ("rw", "bs", "iodepth", "numjobs")

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
GroupId = tuple[str, tuple[tuple[str, str], ...]]  # key, and the job shape it keeps apart


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


@dataclass(frozen=True, slots=True)
class RolledGroup:
    """One group's figures as the rollup answers them."""

    key: str
    shape: dict[str, str]  # the job shape the group keeps apart (the grouped option left out)
    n: int
    median: float
    p25: float
    p75: float
    low: float
    high: float
    capacity_gib: float | None
    per_gib: float | None
    price_per_gib_month: float | None
    per_dollar: float | None  # a month's dollars per `dollar_unit` of the figure


@dataclass(frozen=True, slots=True)
class _Rows:
    """The rows' columns: attribute access on thousands of rows costs more than the arithmetic."""

    classes: list[str]
    specs: list[int]
    class_ids: list[int | None]
    shapes: list[tuple[str, str, str, str]]
    capacities: list[float | None]  # the stored capacity, else the target's
    n: Ints
    zeros: Ints
    low: Floats
    high: Floats
    bin_texts: list[str]
    count_texts: list[str]


@dataclass(frozen=True, slots=True)
class _Binned:
    """Every row's histogram in one place: per entry, its row, its value and how many it stands for."""

    own: Ints
    zero: npt.NDArray[np.bool_]  # an entry of values ≤ 0
    values: Floats
    weights: Ints


@dataclass(frozen=True, slots=True)
class _Assigned:
    """Each row's group, capacity and price (NaN: none)."""

    index: dict[GroupId, int]
    group: Ints
    capacity: Floats
    price: Floats


def _columns(rows: Sequence[Any]) -> _Rows:
    (classes, specs, stored, rws, bss, depths, jobs, ns, zeros, lows, highs, bins, counts, targets, ids) = (
        list(c) for c in zip(*rows, strict=True)
    )
    capacities = [s if s != -1 else t for s, t in zip(stored, targets, strict=True)]
    return _Rows(
        classes=classes,
        specs=specs,
        class_ids=ids,
        shapes=list(zip(rws, bss, depths, jobs, strict=True)),
        capacities=[float(c) if c else None for c in capacities],
        n=np.asarray(ns, dtype=np.int64),
        zeros=np.asarray(zeros, dtype=np.int64),
        low=np.asarray(lows, dtype=np.float64),
        high=np.asarray(highs, dtype=np.float64),
        bin_texts=bins,
        count_texts=counts,
    )


def _assign(rows: _Rows, by_value: str, resolve: Resolve) -> _Assigned:
    """Each row's group: its key (resolved once per class and shape) and the job shape it keeps apart."""
    index: dict[GroupId, int] = {}
    resolved: dict[tuple[Any, ...], tuple[str, float | None]] = {}
    by_shape = by_value in _SHAPE
    groups, prices = [], []
    for row_class, spec, class_id, capacity, shape in zip(
        rows.classes, rows.specs, rows.class_ids, rows.capacities, rows.shapes, strict=True
    ):
        memo = (row_class, spec, class_id, None if by_shape else shape)
        if memo not in resolved:
            facts = RowFacts(row_class or None, spec or None, class_id, {}, capacity)
            resolved[memo] = resolve(facts, dict(zip(_SHAPE, shape, strict=True)))
        key, price = resolved[memo]
        if by_shape:
            key = shape[_SHAPE.index(by_value)]
        kept = tuple((k, v) for k, v in zip(_SHAPE, shape, strict=True) if k != by_value)
        groups.append(index.setdefault((key, kept), len(index)))
        prices.append(price if price is not None else np.nan)
    capacities = [c if c is not None else np.nan for c in rows.capacities]
    return _Assigned(
        index=index,
        group=np.asarray(groups, dtype=np.int64),
        capacity=np.asarray(capacities, dtype=np.float64),
        price=np.asarray(prices, dtype=np.float64),
    )


def _binned(rows: _Rows) -> _Binned:
    """Every row's histogram parsed at once (the JSON arrays' texts joined, read by numpy)."""
    pairs = zip(rows.bin_texts, rows.count_texts, strict=True)
    texts = [(b.strip()[1:-1].strip(), c.strip()[1:-1]) for b, c in pairs]
    lengths = [t[0].count(",") + 1 if t[0] else 0 for t in texts]
    texts = [t for t in texts if t[0]]
    binned = np.asarray(json.loads("[" + ",".join(t[0] for t in texts) + "]"), dtype=np.float64)
    counted = np.asarray(json.loads("[" + ",".join(t[1] for t in texts) + "]"), dtype=np.int64)
    with_zeros = np.flatnonzero(rows.zeros)
    own = np.concatenate((np.repeat(np.arange(len(lengths)), lengths), with_zeros)).astype(np.int64)
    b = np.concatenate((binned, np.full(len(with_zeros), float(_ZERO_BIN))))
    weights = np.concatenate((counted, rows.zeros[with_zeros])).astype(np.int64)
    values = np.clip(np.exp((b + 0.5) * LN_BASE), rows.low[own], rows.high[own])
    return _Binned(own=own, zero=b == _ZERO_BIN, values=values, weights=weights)


def _quantiles(values: Floats, weights: Ints, groups: Ints, count: int, qs: Sequence[float]) -> list[Floats]:
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


def _spread(rows: _Rows, rows_of: _Assigned, binned: _Binned) -> dict[str, npt.NDArray[Any]]:
    """Per group: n, min, max, quartiles and median capacity."""
    count, g_row = len(rows_of.index), rows_of.group
    lows = np.full(count, np.inf)
    np.minimum.at(lows, g_row, rows.low)
    highs = np.full(count, -np.inf)
    np.maximum.at(highs, g_row, rows.high)
    p25, median, p75 = _quantiles(binned.values, binned.weights, g_row[binned.own], count, (0.25, 0.5, 0.75))
    has_capacity = ~np.isnan(rows_of.capacity)
    (capacity,) = _quantiles(rows_of.capacity, np.where(has_capacity, rows.n, 0), g_row, count, (0.5,))
    n = np.bincount(g_row, weights=rows.n, minlength=count).astype(np.int64)
    return {
        "n": n,
        "low": lows,
        "high": highs,
        "p25": p25,
        "median": median,
        "p75": p75,
        "capacity": capacity,
    }


def _per_capacity_and_price(
    rows: _Rows, rows_of: _Assigned, binned: _Binned, dollar_unit: float
) -> dict[str, Floats]:
    """Per group: median value per GiB, median price, and median dollars a month per `dollar_unit`."""
    count, g_row, own = len(rows_of.index), rows_of.group, binned.own
    values, weights, groups_of = binned.values, binned.weights, rows_of.group[own]
    cap_el = rows_of.capacity[own]
    with_cap = ~np.isnan(cap_el)
    (per_gib,) = _quantiles(
        np.where(with_cap, values / np.where(with_cap, cap_el, 1.0), 0.0),
        np.where(with_cap, weights, 0),
        groups_of,
        count,
        (0.5,),
    )
    priced = ~np.isnan(rows_of.capacity) & ~np.isnan(rows_of.price)
    (price,) = _quantiles(rows_of.price, np.where(priced, rows.n - rows.zeros, 0), g_row, count, (0.5,))
    monthly = (rows_of.capacity * rows_of.price)[own]
    positive = priced[own] & ~binned.zero & (values > 0)
    safe = np.where(positive, values, 1.0)
    (per_dollar,) = _quantiles(
        np.where(positive, monthly / (safe / dollar_unit), 0.0),
        np.where(positive, weights, 0),
        groups_of,
        count,
        (0.5,),
    )
    return {"per_gib": per_gib, "price": price, "per_dollar": per_dollar}


def _value(array: Floats, index: int) -> float | None:
    value = float(array[index])
    return None if np.isnan(value) else value


def groups(
    db: Session,
    team_id: int,
    *,
    by_value: str,
    figure: str,
    direction: str,
    filters: KeyFilters,
    resolve: Resolve,
    dollar_unit: float | None,
) -> list[RolledGroup]:
    """Per group (key and job shape): n, median, quartiles, range, per GiB and per dollar.

    A job shape option as `by_value` groups by the rows' own option; anything else by what
    `resolve` says of each row. `dollar_unit` (a throughput figure's: 1,000 IOPS, 10^6 bytes/s)
    asks for per GiB and per dollar figures; None leaves them out.
    """
    found = repository.figure_rows(db, team_id, JOB if figure in CPU_FIGURES else direction, figure, filters)
    if not found:
        return []
    rows = _columns(found)
    rows_of = _assign(rows, by_value, resolve)
    binned = _binned(rows)
    spread = _spread(rows, rows_of, binned)
    nothing = np.full(len(rows_of.index), np.nan)
    priced = (
        _per_capacity_and_price(rows, rows_of, binned, dollar_unit)
        if dollar_unit is not None
        else {"per_gib": nothing, "price": nothing, "per_dollar": nothing}
    )
    return [
        RolledGroup(
            key=key,
            shape=dict(kept),
            n=int(spread["n"][g]),
            median=float(spread["median"][g]),
            p25=float(spread["p25"][g]),
            p75=float(spread["p75"][g]),
            low=float(spread["low"][g]),
            high=float(spread["high"][g]),
            capacity_gib=_value(spread["capacity"], g),
            per_gib=_value(priced["per_gib"], g),
            price_per_gib_month=_value(priced["price"], g),
            per_dollar=_value(priced["per_dollar"], g),
        )
        for (key, kept), g in rows_of.index.items()
        if spread["n"][g]
    ]
