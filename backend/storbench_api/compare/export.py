"""Comparisons and grouped views as files: JSON (the API body) and CSV (one row per figure and side).

The CSV names each figure as the API does (`figure`) and as people do (`label`, from the figures'
definition), with its unit (bandwidth in B/s).

Both read back to the same figures: the CSV keeps every number as Python writes it (shortest text
that reads back to the same float), lists joined by ';'. The CSV is written by the one writer the
CLI uses too, which neutralises text a spreadsheet would run as a formula (a hostile label).
"""

import json

from storbench_api.compare.schemas import ComparisonOut, GroupsOut
from storbench_protocol.csv_export import csv_text

COMPARISON_COLUMNS = (
    "direction",
    "figure",
    "label",
    "unit",
    "higher_is_better",
    "side",
    "title",
    "series",
    "job_name",
    "host_name",
    "is_baseline",
    "reference",
    "result_ids",
    "n",
    "value",
    "delta",
    "delta_pct",
    "verdict",
    "test",
    "p_value",
    "ratio",
    "ci_low",
    "ci_high",
    "samples",
)
GROUP_COLUMNS = (
    "by",
    "key",
    "rw",
    "bs",
    "iodepth",
    "numjobs",
    "figure",
    "label",
    "direction",
    "unit",
    "n",
    "median",
    "p25",
    "p75",
    "min",
    "max",
    "capacity_gib",
    "per_gib",
    "price_per_gib_month",
    "dollars_per_1000_iops",
    "dollars_per_mbps",
    "result_ids",
)


def _csv(columns: tuple[str, ...], rows: list[dict[str, object]]) -> str:
    return csv_text(columns, ([row.get(column) for column in columns] for row in rows))


def comparison_csv(comparison: ComparisonOut) -> str:
    """One row per figure, direction and side."""
    rows: list[dict[str, object]] = []
    for figure_row in comparison.rows:
        for side, cell in zip(comparison.sides, figure_row.cells, strict=True):
            verdict = cell.verdict
            rows.append(
                {
                    "direction": figure_row.direction,
                    "figure": figure_row.figure.value,
                    "label": figure_row.figure.label,
                    "unit": figure_row.unit,
                    "higher_is_better": figure_row.higher_is_better,
                    "side": side.index,
                    "title": side.title,
                    "series": side.series,
                    "job_name": side.job_name,
                    "host_name": side.host_name,
                    "is_baseline": side.is_baseline,
                    "reference": side.reference,
                    "result_ids": side.result_ids,
                    "n": side.n,
                    "value": cell.value,
                    "delta": cell.delta,
                    "delta_pct": cell.delta_pct,
                    "verdict": verdict.kind.value if verdict else None,
                    "test": verdict.test.value if verdict and verdict.test else None,
                    "p_value": verdict.p_value if verdict else None,
                    "ratio": verdict.ratio if verdict else None,
                    "ci_low": verdict.ci_low if verdict else None,
                    "ci_high": verdict.ci_high if verdict else None,
                    "samples": cell.samples,
                }
            )
    return _csv(COMPARISON_COLUMNS, rows)


def groups_csv(view: GroupsOut) -> str:
    """One row per group."""
    rows: list[dict[str, object]] = [
        {
            "by": view.by.value,
            "key": group.key,
            **group.shape.model_dump(),
            "figure": view.figure.value,
            "label": view.figure.label,
            "direction": view.direction.value,
            "unit": view.unit,
            "n": group.n,
            "median": group.median,
            "p25": group.p25,
            "p75": group.p75,
            "min": group.min,
            "max": group.max,
            "capacity_gib": group.capacity_gib,
            "per_gib": group.per_gib,
            "price_per_gib_month": group.price_per_gib_month,
            "dollars_per_1000_iops": group.dollars_per_1000_iops,
            "dollars_per_mbps": group.dollars_per_mbps,
            "result_ids": group.result_ids,
        }
        for group in view.groups
    ]
    return _csv(GROUP_COLUMNS, rows)


def as_json(body: ComparisonOut | GroupsOut) -> str:
    """The API body, indented for reading."""
    return json.dumps(body.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
