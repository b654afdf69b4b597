"""`storbench compare`: imported results side by side as a table, JSON and CSV, and refusals."""

import csv
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cli_testkit import CliRunner, Service


def _fio_json(workdir: Path, bs: str) -> str:
    """fio's --output-format=json of a short sequential read in a directory of ours."""
    workdir.mkdir()
    argv = [
        "fio",
        "--output-format=json",
        f"--directory={workdir}",
        "--name=cmp-read",
        "--rw=read",
        f"--bs={bs}",
        "--size=4m",
        "--ioengine=psync",
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout


@pytest.fixture(scope="module")
def imported(service: Service, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Two imported reads, 4 KiB and 64 KiB blocks: measured differently."""
    found = []
    with service.api() as api:
        for bs in ("4k", "64k"):
            output = _fio_json(tmp_path_factory.mktemp("cmp") / bs, bs)
            answer = api.post(
                "/results/import",
                files={"file": (f"{bs}.json", output.encode())},
                data={"label": f"cmp-{bs}"},
            )
            assert answer.status_code == 201, answer.text
            found.append(answer.json()["results"][0])
    return found


def test_compare_prints_differences_before_figures(
    imported: list[dict[str, Any]], storbench: CliRunner
) -> None:
    a, b = (r["id"] for r in imported)
    done = storbench("compare", str(a), str(b))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "measured differently:" in out and "job.bs" in out
    assert out.index("job.bs") < out.index("read IOPS")
    assert "baseline" in out and "too few" in out
    assert "too few on one side (n = 1 vs 1): repeat" in out


def test_every_figure_row_is_named_as_the_service_names_it(
    imported: list[dict[str, Any]], storbench: CliRunner, service: Service
) -> None:
    a, b = (r["id"] for r in imported)
    out = storbench("compare", str(a), str(b)).stdout
    with service.api() as api:
        labels = {item["name"]: item["label"] for item in api.get("/figures").json()["items"]}
        rows = api.get("/compare", params={"ids": f"{a},{b}"}).json()["rows"]
    assert {row["figure"] for row in rows} >= {
        "iops",
        "bw_bytes",
        "lat_mean_ns",
        "clat_p99_ns",
        "cpu_usr_pct",
    }
    lines = out.splitlines()
    for row in rows:
        name = (
            labels[row["figure"]]
            if row["direction"] == "job"
            else f"{row['direction']} {labels[row['figure']]}"
        )
        assert any(line.startswith(name + "  ") for line in lines), (name, out)


def test_json_is_the_apis_comparison_and_csv_its_export(
    imported: list[dict[str, Any]], storbench: CliRunner, service: Service
) -> None:
    a, b = (r["id"] for r in imported)
    as_json = storbench("compare", str(a), str(b), "--baseline", str(b), "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    comparison = json.loads(as_json.stdout)
    assert comparison["baseline_result_id"] == b
    with service.api() as api:
        assert comparison == api.get("/compare", params={"ids": f"{a},{b}", "baseline": b}).json()
    as_csv = storbench("compare", str(a), str(b), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    iops = [r for r in rows if r["figure"] == "iops" and r["direction"] == "read"]
    assert [float(r["value"]) for r in iops] == [
        imported[0]["directions"]["read"]["iops"],
        imported[1]["directions"]["read"]["iops"],
    ]


def test_refusals_say_what_to_fix(imported: list[dict[str, Any]], storbench: CliRunner) -> None:
    a, b = (r["id"] for r in imported)
    outside = storbench("compare", str(a), str(b), "--baseline", "999999")
    assert outside.returncode == 2 and "not among the ids" in outside.stderr
    unknown = storbench("compare", str(a), "2147483000")
    assert unknown.returncode == 2 and "2147483000" in unknown.stderr
    assert storbench("compare", "abc").returncode == 2
