"""The methodology advisor: what may make a figure untrue, derived from the job, the host and the numbers.

Each rule is one function of the evidence returning findings; every finding says what is wrong in
one line and how to fix it. Rules follow the published pitfalls (METHODOLOGY.md §4), by family: the
job's method (rules_method), the client side (rules_client) and fio's figures (rules_output).
"""

from collections.abc import Callable

from storbench_api.advisor.evidence import Evidence
from storbench_api.advisor.findings import Finding, Severity
from storbench_api.advisor.rules_client import (
    client_bound,
    nfs_slot_table,
    too_few_hosts,
    windows_nfs_single_job,
)
from storbench_api.advisor.rules_method import (
    cached_read_file,
    direct_off,
    libaio_without_direct,
    queue_depth_one_for_iops,
    short_run,
)
from storbench_api.advisor.rules_output import above_spec, bandwidth_mismatch, fio_errors, littles_law

Rule = Callable[[Evidence], list[Finding]]

RULES: tuple[Rule, ...] = (
    fio_errors,
    bandwidth_mismatch,
    direct_off,
    libaio_without_direct,
    cached_read_file,
    short_run,
    queue_depth_one_for_iops,
    client_bound,
    too_few_hosts,
    nfs_slot_table,
    windows_nfs_single_job,
    littles_law,
    above_spec,
)
_ORDER = {Severity.critical: 0, Severity.warning: 1, Severity.info: 2}


# What can be said of a result whose job options fio did not print (a text output).
WITHOUT_OPTIONS: tuple[Rule, ...] = (fio_errors, too_few_hosts)
OPTIONS_UNKNOWN = Finding(
    code="options_unknown",
    severity=Severity.info,
    message="the output does not say which options the job ran with, so the method cannot be checked",
    fix="import fio's JSON output (--output-format=json), which carries the job options",
)


def most_serious_first(findings: list[Finding]) -> list[Finding]:
    """Findings ordered as the advisor lists them: critical, then warnings, then information."""
    return sorted(findings, key=lambda f: _ORDER[f.severity])


def advise(evidence: Evidence) -> list[Finding]:
    """Every finding for a result, most serious first."""
    if not evidence.options:
        findings = [finding for rule in WITHOUT_OPTIONS for finding in rule(evidence)] + [OPTIONS_UNKNOWN]
    else:
        findings = [finding for rule in RULES for finding in rule(evidence)]
    return most_serious_first(findings)
