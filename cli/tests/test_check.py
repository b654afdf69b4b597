"""`storbench check`: exit 3 when the newest run of a plan on a target is an unacknowledged regression."""

import json
import sys
from typing import Any

import psycopg
import pytest
from cli_testkit import DATABASE, TARGET_NAME, TINY_JOB, CliRunner, Service, fresh_database

PLAN_NAME = "ci-nightly"


@pytest.fixture(scope="module")
def plan(service: Service) -> dict[str, Any]:
    with service.api() as api:
        created = api.post("/plans", json={"name": PLAN_NAME, "jobs": [{**TINY_JOB, "name": "ci-read"}]})
        assert created.status_code == 201, created.text
        return dict(created.json())


def _database_url() -> str:
    """The service's database, on the server the backend's harness creates it on."""
    admin_url: str = sys.modules[fresh_database.__module__].ADMIN_URL
    return admin_url.rsplit("/", 1)[0] + f"/{DATABASE}"


def _mark_regression(
    service: Service, result_id: int, metric: str = "iops", before: float = 20000, after: float = 14000
) -> int:
    """A change point starting at result_id, as detection stores one (detection is tested in the backend)."""
    with psycopg.connect(_database_url(), autocommit=True) as conn:
        row = conn.execute(
            """
            INSERT INTO change_points (team_id, target_id, job_name, direction, metric,
                fingerprint, result_id, measured_at, kind, before_median, after_median, ratio,
                p_value, method, detected_at)
            SELECT team_id, target_id, job_name, 'read', %s, fingerprint, id, measured_at,
                'regression', %s, %s, %s, 0.002, 'e-divisive', now()
            FROM results WHERE id = %s
            RETURNING id
            """,
            (metric, before, after, after / before, result_id),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_check_passes_fails_on_a_regression_and_passes_once_acknowledged(
    service: Service, storbench: CliRunner, plan: dict[str, Any]
) -> None:
    nothing = storbench("check", "--plan", PLAN_NAME, "--target", TARGET_NAME)
    assert nothing.returncode == 0, nothing.stderr
    assert "nothing to check" in nothing.stdout

    with service.api() as api:
        run = api.post("/runs", json={"target_id": service.target["id"], "plan_id": plan["id"]}).json()
    finished = service.wait_for_run(run["id"])
    assert finished["status"] == "completed", finished
    (result,) = finished["results"]

    fine = storbench("check", "--plan", PLAN_NAME, "--target", TARGET_NAME)
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert fine.stdout.splitlines()[-1].startswith(f"OK: plan '{PLAN_NAME}' on target '{TARGET_NAME}'")
    assert "ci-read" in fine.stdout

    change_id = _mark_regression(service, result["id"])
    failed = storbench("check", "--plan", str(plan["id"]), "--target", TARGET_NAME)
    assert failed.returncode == 3, failed.stdout + failed.stderr
    last = failed.stdout.splitlines()[-1]
    assert last.startswith("REGRESSION:")
    # In the units and under the names `run` prints them.
    assert "ci-read read IOPS: 20,000 → 14,000 (-30.0%)" in last

    # Bandwidth and latency as `run` prints them, not in bytes per second and nanoseconds.
    bandwidth_id = _mark_regression(service, result["id"], "bw_bytes", 100 * 2**20, 70 * 2**20)
    latency_id = _mark_regression(service, result["id"], "clat_p99_ns", 80_000, 1_200_000)
    units = storbench("check", "--plan", PLAN_NAME, "--target", TARGET_NAME).stdout.splitlines()[-1]
    assert "ci-read read Bandwidth: 100.0 MiB/s → 70.0 MiB/s (-30.0%)" in units
    assert "ci-read read p99 completion latency: 80.0 µs → 1.20 ms (+1400.0%)" in units

    as_json = storbench("check", "--plan", PLAN_NAME, "--target", TARGET_NAME, "--format", "json")
    assert as_json.returncode == 3
    verdict = json.loads(as_json.stdout)
    assert verdict["regression"] is True and verdict["run_id"] == run["id"]

    with service.api() as api:
        for acknowledged in (change_id, bandwidth_id, latency_id):
            done = api.post(
                f"/regressions/{acknowledged}/acknowledge", json={"comment": "new pool, expected"}
            )
            assert done.status_code == 200, done.text
    again = storbench("check", "--plan", PLAN_NAME, "--target", TARGET_NAME)
    assert again.returncode == 0, again.stdout
    assert "acknowledged" in again.stdout


def test_check_of_an_unknown_plan_is_a_usage_error(storbench: CliRunner) -> None:
    done = storbench("check", "--plan", "no-such-plan", "--target", TARGET_NAME)
    assert done.returncode == 2
    assert "no plan named 'no-such-plan'" in done.stderr
