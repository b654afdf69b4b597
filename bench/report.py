"""Figures a bench records for `make bench`'s report (bench/make_report.py): value, unit, target, verdict.

A bench prints its figures as before and also calls record() for each one that matters; when
STORBENCH_BENCH_FIGURES names a file (make_report.py sets it), each figure is appended there as one
JSON line, so the report is assembled from what the bench measured, never scraped from its output.
Run alone, a bench records nothing.
"""

import json
import os
from pathlib import Path
from typing import Literal

FIGURES_ENV = "STORBENCH_BENCH_FIGURES"
Verdict = Literal["ok", "missed", "info"]


def _append(entry: dict[str, object]) -> None:
    path = os.environ.get(FIGURES_ENV)
    if not path:
        return
    with Path(path).open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def record(
    bench: str,
    figure: str,
    value: float | int | str,
    unit: str = "",
    target: str = "",
    ok: bool | None = None,
) -> None:
    """One figure: `target` says what it should be ("< 200 ms"); ok None means it has no target."""
    verdict: Verdict = "info" if ok is None else ("ok" if ok else "missed")
    _append(
        {"bench": bench, "figure": figure, "value": value, "unit": unit, "target": target, "verdict": verdict}
    )


def note(bench: str, text: str) -> None:
    """How the figures were measured (size, rounds, what was smaller than asked), for the report."""
    _append({"bench": bench, "note": text})


def record_spread(
    bench: str, figure: str, values: list[float], unit: str, at_most: float | None = None
) -> None:
    """median / p95 / max of a series; with at_most, the target is that every value stays at or under it."""
    if not values:
        record(bench, figure, "no samples", unit, "" if at_most is None else f"<= {at_most:g}", None)
        return
    ordered = sorted(values)
    p95 = ordered[max(0, -(-95 * len(ordered) // 100) - 1)]
    text = f"{ordered[len(ordered) // 2]:.3f} / {p95:.3f} / {ordered[-1]:.3f}"
    target = "" if at_most is None else f"every value <= {at_most:g}"
    record(
        bench,
        f"{figure}, median / p95 / max",
        text,
        unit,
        target,
        None if at_most is None else ordered[-1] <= at_most,
    )
