"""Any job fio 3.33 accepts (`fio --parse-only` on this host) that the safety rules allow is
accepted: the allow-list is fio's own table, refusals are the safety rules'. And any refusal of a
job fio accepts names the safety rule it follows."""

from __future__ import annotations

import subprocess

from fio_testkit import FIO, requires_fio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storbench_fio.errors import RULES, FioJobError
from storbench_fio.job import validate_job_dict
from storbench_fio.option_table import OPTIONS
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_job_safety
from storbench_fio.units import parse_size

pytestmark = requires_fio

_TARGET = SafetyTarget(kind="directory", path="/mnt/bench")
_BASE = {"name": "a", "size": "1m", "runtime": "10"}
# Options whose values name places or other jobs: their grammar is a path's, not a value's.
_PLACES = {"filename", "directory", "opendir", "wait_for", "name", "description", "ioengine"}


def _value(name: str) -> st.SearchStrategy[str]:
    spec = OPTIONS[name]
    if spec.kind in ("bool", "flag"):
        return st.sampled_from(["0", "1"])
    if spec.kind == "choice":
        return st.sampled_from(spec.values)
    if spec.kind in ("time", "time_us"):
        return st.integers(0, 100).map(lambda n: f"{n}ms" if spec.kind == "time_us" else f"{n}s")
    low = int(spec.minimum or 0)
    high = int(spec.maximum) if spec.maximum is not None else low + 4096
    return st.integers(low, min(high, low + 4096)).map(str)


_CANDIDATES = sorted(
    name
    for name, spec in OPTIONS.items()
    if spec.built
    and not spec.engines
    and name not in _PLACES
    and spec.kind in ("bool", "flag", "choice", "time", "time_us", "int")
)


def _any_value(name: str) -> st.SearchStrategy[str]:
    """Values in and out of fio's bounds: huge numbers and times, negatives, words."""
    spec = OPTIONS[name]
    if spec.kind in ("time", "time_us"):
        return st.builds(lambda n, unit: f"{n}{unit}", st.integers(0, 500), st.sampled_from("smhd"))
    if spec.kind == "int":
        return st.one_of(
            st.integers(-2, 1 << 40).map(str), st.sampled_from(["[port]", "1k", "4g", "0x10"])
        )
    return _value(name)


_JOBS = st.lists(st.sampled_from(_CANDIDATES), min_size=1, max_size=4, unique=True).flatmap(
    lambda names: st.fixed_dictionaries({n: _value(n) for n in names})
)


def _fio_accepts(options: dict[str, str]) -> bool:
    assert FIO is not None
    args = [f"--{k}={v}" for k, v in {**_BASE, **options}.items()]
    proc = subprocess.run(
        [FIO, "--parse-only", *args], capture_output=True, text=True, timeout=30, check=False
    )
    return proc.returncode == 0 and not (proc.stdout + proc.stderr).strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JOBS)
def test_a_job_fio_accepts_and_safety_allows_is_accepted(options: dict[str, str]) -> None:
    job = {**_BASE, **options}
    if not _fio_accepts(options) or check_job_safety(job, _TARGET, SafetyLimits()):
        return
    try:
        validate_job_dict(job)
    except FioJobError as exc:
        raise AssertionError(f"fio accepts {job} but storbench refused: {exc}") from None


_ANY_JOBS = st.lists(st.sampled_from(_CANDIDATES), min_size=1, max_size=3, unique=True).flatmap(
    lambda names: st.fixed_dictionaries({n: _any_value(n) for n in names})
)


# Values `fio --parse-only` passes that fio then refuses to run.
_PARSED_BUT_FAILS_TO_RUN = {("numjobs", "0")}  # "error: maximum number of jobs reached"


def _in_documented_range(options: dict[str, str]) -> bool:
    """fio's parser skips a range check whose bound is 0 (flow=-1 passes `range: min=0`) and
    wraps big numbers (trim_percentage=4g passes `max=100`): a value outside the range fio
    documents is not one fio accepts."""
    for name, value in options.items():
        spec = OPTIONS[name]
        if (name, value) in _PARSED_BUT_FAILS_TO_RUN:
            return False
        if spec.kind != "int" or value.startswith("["):
            continue
        if value.startswith("-") and (spec.minimum or 0) >= 0:
            return False
        number = parse_size(value.lstrip("-"), allow_zero=True)
        if spec.maximum is not None and number > spec.maximum:
            return False
    return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_JOBS)
def test_a_refusal_of_a_job_fio_accepts_names_its_safety_rule(options: dict[str, str]) -> None:
    if not _in_documented_range(options) or not _fio_accepts(options):
        return
    job = {**_BASE, **options}
    try:
        validate_job_dict(job)
        refusals = check_job_safety(job, _TARGET, SafetyLimits())
    except FioJobError as exc:
        refusals = exc.errors
    unnamed = [str(e) for e in refusals if e.rule not in RULES]
    assert not unnamed, f"fio accepts {job}; storbench refused without naming a rule: {unnamed}"
