"""`storbench results`: the history as CSV a spreadsheet or script can read back."""

import csv
import io
import json
from typing import Any

import pytest
from cli_testkit import TARGET_NAME, TINY_JOB, CliRunner, Service

HEADER = (
    "result_id,created_at,run_id,target_id,label,storage_class,host_name,job_name,fio_version,direction,"
    "iops,bw_bytes,io_bytes,runtime_ms,lat_mean_ns,clat_p50_ns,clat_p99_ns,clat_p99_9_ns,imported,partial"
)


@pytest.fixture(scope="module")
def measured_run(service: Service, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished run of a job with a name no other test uses."""
    job = {**TINY_JOB, "name": "csv-read"}
    with service.api() as api:
        run = api.post("/runs", json={"target_id": service.target["id"], "jobs": [job]}).json()
    finished = service.wait_for_run(run["id"])
    assert finished["status"] == "completed", finished
    return finished


def test_csv_rows_match_what_was_measured(measured_run: dict[str, Any], storbench: CliRunner) -> None:
    done = storbench("results", "--target", TARGET_NAME, "--measured", "--job", "csv-read", "--format", "csv")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == HEADER
    reader = csv.DictReader(io.StringIO(done.stdout))
    (row,) = list(reader)
    (result,) = measured_run["results"]
    read = result["directions"]["read"]
    assert int(row["result_id"]) == result["id"] and int(row["run_id"]) == measured_run["id"]
    assert int(row["target_id"]) == measured_run["target"]["id"]
    assert (row["host_name"], row["job_name"], row["direction"]) == ("cli-host", "csv-read", "read")
    assert row["fio_version"] == result["fio_version"] and row["created_at"] == result["created_at"]
    # Numbers are written unformatted: they read back exactly.
    assert float(row["iops"]) == read["iops"]
    assert float(row["bw_bytes"]) == read["bw_bytes"]
    assert int(row["io_bytes"]) == read["io_bytes"]
    assert int(row["runtime_ms"]) == read["runtime_ms"]
    assert float(row["lat_mean_ns"]) == read["lat_ns"]["mean_ns"]
    for column, key in (("clat_p50_ns", "50"), ("clat_p99_ns", "99"), ("clat_p99_9_ns", "99.9")):
        assert float(row[column]) == read["clat_ns"]["percentiles"][key]
    assert (row["imported"], row["partial"]) == ("false", "false")


def test_json_is_the_apis_items_and_filters_apply(measured_run: dict[str, Any], storbench: CliRunner) -> None:
    done = storbench("results", "--job", "csv-read", "--format", "json")
    imported = storbench("results", "--job", "csv-read", "--imported", "--format", "json")

    assert done.returncode == 0 and imported.returncode == 0
    assert json.loads(done.stdout) == measured_run["results"]
    assert json.loads(imported.stdout) == []


def test_table_shows_one_row_per_result_and_direction(
    measured_run: dict[str, Any], storbench: CliRunner
) -> None:
    done = storbench("results", "--job", "csv-read", "--limit", "5")

    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()
    assert header.split()[:6] == ["id", "created", "job", "host", "label", "class"]
    assert "csv-read" in row and "cli-host" in row and f"run {measured_run['id']}" in row
    assert "iB/s" in row
