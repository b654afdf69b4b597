"""The verdict strip under a finished run: the class's spec, the previous run, the worst finding.

The web UI's run page opens with the same three answers; here they are plain lines, in words (a
terminal or a CI log loses colour). Each comes from what the API already answers: a result's
spec checks and findings, and GET /compare/previous.
"""

from __future__ import annotations

from typing import Any

from .api import Api
from .errors import ApiError
from .figures import Vocabulary, format_figure

# The figures the previous-run line speaks of (the table above shows the rest).
HEADLINE_FIGURES = ("iops", "bw_bytes", "clat_p99_ns")
_SEVERITY_RANK = {"critical": 0, "warning": 1, "info": 2}
# Words, not colour.
VERDICT_WORDS = {
    "better": "better",
    "worse": "worse",
    "no_change": "no change",
    "cant_tell": "can't tell: repeat",
    "too_few": "too few repetitions to tell",
}
SPEC_WORDS = {"meets": "meets the spec", "below": "BELOW the spec", "above": "above the spec (a cache?)"}


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def spec_lines(results: list[dict[str, Any]]) -> list[str]:
    """Each direction's figure against its storage class's spec line, or why there is none."""
    lines = []
    for result in results:
        for check in result.get("spec_checks") or []:
            unit = check["unit"]
            lines.append(
                f"spec: {result['job_name']} {check['direction']} {check['metric']} "
                f"{_number(check['measured'])} {unit} of {_number(check['expected'])} {unit} expected "
                f"({check['percent']:.0f} %): {SPEC_WORDS.get(check['verdict'], check['verdict'])}"
            )
    return lines or ["spec: no spec line applies (give the target a storage class with a spec)"]


def _side_lines(comparison: dict[str, Any], figures: Vocabulary, index: int) -> list[str]:
    """One line per direction of one side: each headline figure's change and verdict."""
    by_direction: dict[str, list[str]] = {}
    for row in comparison["rows"]:
        if row["figure"] not in HEADLINE_FIGURES:
            continue
        cell = row["cells"][index]
        if cell["value"] is None:
            continue
        pct = cell.get("delta_pct")
        change = "" if pct is None else f" {pct:+.1f} %"
        verdict = cell.get("verdict")
        words = f" {VERDICT_WORDS.get(verdict['kind'], verdict['kind'])}" if verdict else ""
        by_direction.setdefault(row["direction"], []).append(
            f"{figures.label(row['figure'])} {format_figure(row['unit'], cell['value'])}{change}{words}"
        )
    job = comparison["sides"][index]["job_name"]
    return [f"  {job} {direction}: " + ", ".join(parts) for direction, parts in by_direction.items()]


def previous_lines(api: Api, run: dict[str, Any], figures: Vocabulary) -> list[str]:
    """The run against the previous run of its plan (or the same jobs) on its target."""
    try:
        comparison = api.get("/compare/previous", {"run_id": run["id"]})
    except ApiError as exc:
        if exc.status in (404, 422):
            return ["previous run: none yet of the same jobs on this target"]
        raise
    sides = comparison["sides"]
    baseline = next((s for s in sides if s["is_baseline"]), sides[0])
    before = ", ".join(str(i) for i in baseline["run_ids"]) or "?"
    lines = [f"previous run {before}: changes against it"]
    for index, side in enumerate(sides):
        if run["id"] in side["run_ids"] and not side["is_baseline"]:
            lines.extend(_side_lines(comparison, figures, index))
    return lines


def worst_finding_line(results: list[dict[str, Any]]) -> str:
    """The most serious methodology finding of any result, with its fix."""
    found = [(result, finding) for result in results for finding in result.get("findings") or []]
    if not found:
        return "findings: none"
    result, worst = min(found, key=lambda pair: _SEVERITY_RANK.get(pair[1]["severity"], 3))
    more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
    return (
        f"worst finding ({worst['severity']}, {result['job_name']}): {worst['message']} "
        f"fix: {worst['fix']}{more}"
    )


def verdict_lines(api: Api, run: dict[str, Any], figures: Vocabulary) -> list[str]:
    """The strip: spec lines, the previous-run comparison, the worst finding."""
    results = run["results"]
    return [*spec_lines(results), *previous_lines(api, run, figures), worst_finding_line(results)]
