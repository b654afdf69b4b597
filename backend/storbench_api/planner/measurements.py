"""The team's measurements of a class against its spec: how far reality sits from the promise.

Each stored result carries its spec checks (advisor.service.SpecCheck): measured ÷ expected for
the line of its kind of test, at the capacity the target had. The ratio is capacity-free, so it
carries over to the capacity the planner proposes.
"""

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from storbench_api.storage_classes.expected import Verdict
from storbench_api.storage_classes.schemas import Metric, Workload

LineKey = tuple[Metric, Workload]


@dataclass(frozen=True, slots=True)
class RatioSummary:
    """Measured ÷ spec for one spec line over the team's results."""

    metric: Metric
    workload: Workload
    median: float | None  # over the checks that are not above the spec; None when none are
    low: float | None
    high: float | None
    n: int  # checks the median is taken over
    above_spec: int  # checks above the spec (a cache answered): left out of the median

    @property
    def trusted(self) -> bool:
        """There are measurements of the sustained figure (not only a cache's)."""
        return self.n > 0


def ratios_by_line(checks: Iterable[Mapping[str, Any]]) -> dict[LineKey, RatioSummary]:
    """Each spec line's measured-to-spec ratio over stored spec checks (latency lines left out)."""
    kept: dict[LineKey, list[float]] = {}
    cached: dict[LineKey, int] = {}
    for check in checks:
        try:
            key = (Metric(check["metric"]), Workload(check["workload"]))
            expected, measured = float(check["expected"]), float(check["measured"])
            verdict = Verdict(check["verdict"])
        except (KeyError, TypeError, ValueError):
            continue  # a check stored by an older version, or damaged: not evidence
        if key[0] == Metric.latency or expected <= 0:
            continue
        kept.setdefault(key, [])
        if verdict == Verdict.above:
            cached[key] = cached.get(key, 0) + 1
        else:
            kept[key].append(measured / expected)
    return {
        key: RatioSummary(
            metric=key[0],
            workload=key[1],
            median=statistics.median(values) if values else None,
            low=min(values) if values else None,
            high=max(values) if values else None,
            n=len(values),
            above_spec=cached.get(key, 0),
        )
        for key, values in kept.items()
    }
