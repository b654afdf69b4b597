"""How long each test suite of `make test` takes: wall time and CPU time (user + sys) side by side.

Runs the suites as the Makefile does (same directories, databases and Redis databases), one after the
other unless --alongside, which runs the backend unit, integration and CLI suites together (to try
the CLI suite alongside, as `make test` already runs the integration suite). CPU time is each suite's
process tree (pytest or npm and every process it waited for: the API and worker processes it
started, fio), so it moves much less than wall time when the machine
is shared; compare CPU times between two checkouts, and wall times only on an idle machine. The
installs and the lint step are not timed. Run after `make deps e2e-deps services`, in a shell where
/work/helper-env.sh (or the CI environment) chose the databases:

    .venv/bin/python bench/test_time.py [--only fio,backend-unit] [--alongside] [--pytest-args "-x"]

A suite's output goes to var/test-time/<suite>.log; a failed suite is reported, never hidden.
"""

import argparse
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import report

ROOT = Path(__file__).resolve().parents[1]
PYTEST = str(ROOT / ".venv" / "bin" / "pytest")
LOGS = ROOT / "var" / "test-time"


@dataclass(frozen=True)
class Suite:
    """One suite as the Makefile runs it."""

    name: str
    cwd: str
    command: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    is_pytest: bool = True


def _suites() -> list[Suite]:
    redis = os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379")
    test_db = os.environ.get("STORBENCH_TEST_DB", "storbench_test")
    return [
        Suite("fio", "fio", (PYTEST, "-q")),
        Suite("protocol", "protocol", (PYTEST, "-q")),
        Suite("worker", "worker", (PYTEST, "-q")),
        Suite("backend-unit", "backend", (PYTEST, "-q", "--ignore=tests/integration")),
        Suite(
            "backend-integration",
            "backend",
            (PYTEST, "-q", "tests/integration"),
            (("STORBENCH_TEST_DB", f"{test_db}_it"), ("STORBENCH_TEST_REDIS_URL", f"{redis}/8")),
        ),
        Suite("cli", "cli", (PYTEST, "-q")),
        Suite("frontend", "frontend", ("npm", "test", "--silent"), is_pytest=False),
        Suite("e2e", "e2e", ("npx", "playwright", "test"), is_pytest=False),
    ]


# Suites --alongside runs together.
ALONGSIDE = ("backend-unit", "backend-integration", "cli")


@dataclass
class Timing:
    """What one suite took."""

    suite: str
    status: int
    wall_s: float
    user_s: float
    sys_s: float


def _start(suite: Suite, pytest_args: list[str]) -> tuple[subprocess.Popen[bytes], float]:
    LOGS.mkdir(parents=True, exist_ok=True)
    command = [*suite.command, *(pytest_args if suite.is_pytest else [])]
    log = (LOGS / f"{suite.name}.log").open("wb")
    process = subprocess.Popen(
        command, cwd=ROOT / suite.cwd, env={**os.environ, **dict(suite.env)}, stdout=log, stderr=log
    )
    return process, time.monotonic()


def _wait(suite: Suite, process: subprocess.Popen[bytes], started: float) -> Timing:
    # wait4 gives the CPU time of the suite's whole process tree (each process counts what it reaped).
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return Timing(suite.name, process.returncode, time.monotonic() - started, usage.ru_utime, usage.ru_stime)


def run(suites: list[Suite], alongside: bool, pytest_args: list[str]) -> list[Timing]:
    """Run the suites, the ALONGSIDE ones together when asked; their timings in the order given."""
    timings: dict[str, Timing] = {}
    together = [s for s in suites if alongside and s.name in ALONGSIDE]
    for suite in suites:
        if suite in together:
            if suite is together[0]:
                started = [(s, *_start(s, pytest_args)) for s in together]
                for each, process, at in started:
                    timings[each.name] = _wait(each, process, at)
            continue
        print(f"running {suite.name} ...", file=sys.stderr, flush=True)
        timings[suite.name] = _wait(suite, *_start(suite, pytest_args))
    return [timings[s.name] for s in suites]


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    """Run, print the table, record the figures; exit 1 when a suite failed."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="", help="comma-separated suite names (default: all)")
    parser.add_argument("--alongside", action="store_true", help="together: " + ", ".join(ALONGSIDE))
    parser.add_argument("--pytest-args", default="", help="more arguments for the pytest suites")
    args = parser.parse_args()
    wanted = [name for name in args.only.split(",") if name]
    suites = [s for s in _suites() if not wanted or s.name in wanted]
    unknown = set(wanted) - {s.name for s in suites}
    if unknown:
        parser.error(
            f"unknown suite(s) {', '.join(sorted(unknown))}; known: {', '.join(s.name for s in _suites())}"
        )
    load_before = _load()
    started = time.monotonic()
    timings = run(suites, args.alongside, shlex.split(args.pytest_args))
    total_wall = time.monotonic() - started
    print(f"load average before: {load_before}, after: {_load()} on {os.cpu_count()} CPUs")
    print(f"{'suite':<22}{'result':>8}{'wall s':>10}{'user s':>10}{'sys s':>10}{'cpu s':>10}")
    for t in timings:
        result = "ok" if t.status == 0 else f"exit {t.status}"
        cpu = t.user_s + t.sys_s
        print(f"{t.suite:<22}{result:>8}{t.wall_s:>10.1f}{t.user_s:>10.1f}{t.sys_s:>10.1f}{cpu:>10.1f}")
        report.record("test_time", f"{t.suite} wall", round(t.wall_s, 1), "s")
        report.record("test_time", f"{t.suite} CPU (user+sys)", round(cpu, 1), "s")
    cpu_total = sum(t.user_s + t.sys_s for t in timings)
    print(f"{'total':<22}{'':>8}{total_wall:>10.1f}{'':>10}{'':>10}{cpu_total:>10.1f}")
    print(f"logs in {LOGS.relative_to(ROOT)}/")
    return 0 if all(t.status == 0 for t in timings) else 1


if __name__ == "__main__":
    sys.exit(main())
