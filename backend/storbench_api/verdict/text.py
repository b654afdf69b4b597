"""The verdict as plain lines, for a terminal (colour is lost there: every standing is in words)."""

from storbench_api.figures.definition import FigureUnit
from storbench_api.verdict.schemas import HeadlineFigure, VerdictLine, VerdictStrip

_SPEC_WORDS = {"meets": "meets the spec", "below": "BELOW the spec", "above": "ABOVE the spec (a cache?)"}
_VERDICT_WORDS = {
    "better": "better",
    "worse": "WORSE",
    "no_change": "no change",
    "cant_tell": "can't tell: repeat",
    "too_few": "too few repetitions to test",
}


def _amount(value: float, unit: FigureUnit) -> str:
    if unit == FigureUnit.bytes_per_second:
        return f"{value / 2**20:,.1f} MiB/s"
    if unit == FigureUnit.nanoseconds:
        return f"{value / 1e6:,.3g} ms" if value >= 1e6 else f"{value / 1e3:,.3g} µs"
    if unit == FigureUnit.iops:
        return f"{value:,.0f} IOPS"
    return f"{value:.1f} %"


def _figure(figure: HeadlineFigure) -> str:
    parts = [f"{figure.figure.label} {_amount(figure.value or 0, figure.unit)}"]
    if figure.spec is not None:
        spec = figure.spec
        expected = f"{spec.expected:,.6g} {spec.unit} expected"
        parts.append(f"{_SPEC_WORDS[spec.verdict.value]} ({expected}, {spec.percent:.0f} %)")
    previous = figure.previous
    if previous is not None and previous.verdict is not None:
        change = f" {previous.delta_pct:+.1f} %" if previous.delta_pct is not None else ""
        parts.append(f"previous run: {_VERDICT_WORDS[previous.verdict.kind.value]}{change}")
    return "; ".join(parts)


def _line(line: VerdictLine) -> list[str]:
    repetitions = f" (n = {line.n})" if line.n > 1 else ""
    head = f"{line.job_name} {line.direction} on {line.host_name}{repetitions}"
    return [head, *(f"  {_figure(f)}" for f in line.figures)]


def verdict_text(verdict: VerdictStrip) -> list[str]:
    """Spec and previous run per headline figure, the regression state, the worst finding."""
    lines = [text for line in verdict.lines for text in _line(line)]
    if verdict.previous_run is not None:
        lines.append(f"compared with run #{verdict.previous_run.run_id}: {verdict.previous_note}")
    elif verdict.previous_import is not None:
        lines.append(f"compared with result #{verdict.previous_import.result_id}: {verdict.previous_note}")
    else:
        lines.append(f"previous run: {verdict.previous_note}")
    lines.append(f"regression: {verdict.regression.message}")
    worst = verdict.worst_finding
    if worst is None:
        lines.append("findings: none")
    else:
        lines.append(f"worst finding ({worst.finding.severity.value}): {worst.finding.message}")
        lines.append(f"  fix: {worst.finding.fix}")
    return lines
