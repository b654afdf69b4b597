"""storbench's own presets, run as they ask, are not flagged by storbench's own advisor."""

import pytest

from storbench_api.advisor.advice import advise
from storbench_api.advisor.evidence import Evidence, MeasuredDirection
from storbench_api.advisor.findings import Severity
from storbench_api.advisor.job_facts import job_facts
from storbench_fio.presets import PRESETS, Preset

LATENCY_NS = 1_000_000.0  # 1 ms per I/O: any figure consistent with Little's law would do


def _options(job: dict[str, object]) -> dict[str, str]:
    """A preset job's options as fio prints them in its JSON output (flags as 1 and 0)."""
    return {
        key: "1" if value is True else "0" if value is False else str(value)
        for key, value in job.items()
        if key != "name"
    }


def _measured(options: dict[str, str]) -> list[MeasuredDirection]:
    """What fio reports for a job that ran for the runtime it asks for, at a steady 1 ms per I/O."""
    job = job_facts(options)
    runtime_ms = int(float(options.get("runtime", "60")) * 1000)
    iops = job.in_flight_per_result / (LATENCY_NS / 1e9)
    block = int(options.get("bs", "4096").split(",")[0])
    return [
        MeasuredDirection(
            direction=direction,
            iops=iops,
            bw_bytes=iops * block,
            runtime_ms=runtime_ms,
            lat_mean_ns=LATENCY_NS,
            total_ios=int(iops * runtime_ms / 1000),
        )
        for direction in ("read", "write")
        if job.moves(direction)
    ]


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_a_preset_run_as_it_asks_draws_no_warning_from_the_advisor(preset: Preset) -> None:
    # No host facts, no spec: only what the job's own options can cause is judged.
    for job in preset.model_dump()["jobs"]:
        options = _options(job)
        findings = advise(Evidence(options=options, directions=_measured(options)))
        serious = [f"{f.code}: {f.message}" for f in findings if f.severity != Severity.info]
        assert serious == [], f"{preset.id} job {job['name']}"
