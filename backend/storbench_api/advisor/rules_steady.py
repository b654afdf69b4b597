"""What the advisor says of a figure measured outside steady state (SNIA PTS, see curves.steady_state)."""

from collections.abc import Mapping
from typing import Any

from storbench_api.advisor.findings import Finding, Severity

FIX_NOT_STEADY = (
    "precondition the working set (the run's precondition option: a sequential fill of twice its size) "
    "and run longer, until 5 rounds in a row stay within 20 % and trend under 10 % of their mean"
)


def steady_state_findings(verdicts: Mapping[str, Mapping[str, Any]]) -> list[Finding]:
    """A finding per direction whose figure was measured before (or without) steady state."""
    findings: list[Finding] = []
    for direction, verdict in verdicts.items():
        unit = "second" if verdict.get("basis") == "per_second" else "repetition"
        if verdict.get("status") == "not_steady":
            findings.append(
                Finding(
                    code="not_steady",
                    severity=Severity.warning,
                    message=f"{direction} IOPS never reached steady state over {verdict['rounds']} "
                    f"{unit}s: {verdict['reason']}; the figure is the device's transient, not its "
                    "steady rate",
                    fix=FIX_NOT_STEADY,
                    direction=direction,
                )
            )
        elif unit == "repetition" and verdict.get("status") == "steady":
            reached = int(verdict["reached_at"])
            this = int(verdict.get("round") or reached)
            if this < reached:
                findings.append(
                    Finding(
                        code="before_steady",
                        severity=Severity.warning,
                        message=f"{direction} IOPS of repetition {this} were measured before steady "
                        f"state, which the repetitions reached at repetition {reached}",
                        fix="precondition, or leave the repetitions before steady state out",
                        direction=direction,
                    )
                )
        elif verdict.get("status") == "steady" and int(verdict.get("reached_at") or 1) > 1:
            before = int(verdict["reached_at"]) - 1
            findings.append(
                Finding(
                    code="steady_late",
                    severity=Severity.info,
                    message=f"{direction} IOPS reached steady state only at {unit} {before + 1}: the "
                    f"figure averages the {before} {unit}{'s' if before > 1 else ''} before it too",
                    fix=f"precondition, or add a ramp_time of at least {before} s so fio does not count them",
                    direction=direction,
                )
            )
    return findings
