"""`storbench import`: real fio output is stored; a file the service refuses is reported, not fatal."""

import json
import re
import subprocess
from pathlib import Path

from cli_testkit import CliRunner, Service


def _fio_json(workdir: Path) -> str:
    """fio's own --output-format=json of a short sequential read in a directory of ours."""
    workdir.mkdir()
    return subprocess.run(
        [
            "fio",
            "--output-format=json",
            f"--directory={workdir}",
            "--name=imported-read",
            "--rw=read",
            "--bs=64k",
            "--size=4m",
            "--ioengine=psync",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout


def test_import_stores_the_good_file_and_reports_the_bad_one(
    service: Service, storbench: CliRunner, tmp_path: Path
) -> None:
    good = tmp_path / "good.json"
    good.write_text(_fio_json(tmp_path / "fio"))
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("this is a shopping list, not fio output\n")
    with service.api() as api:
        refusal = api.post("/results/import", files={"file": ("garbage.txt", garbage.read_bytes())}).json()

    done = storbench(
        "import", str(garbage), str(good), "--storage-class", "cli-imported", "--host-name", "laptop-01"
    )

    assert done.returncode == 1
    assert f"{garbage}: refused: {refusal['message']}" in done.stderr
    line = re.fullmatch(rf"{re.escape(str(good))}: json, (fio-[\d.]+), 1 result \(id (\d+)\)\n", done.stdout)
    assert line, done.stdout
    fio_report = json.loads(good.read_text())
    assert line[1] == fio_report["fio version"]
    with service.api() as api:
        (stored,) = api.get("/results", params={"storage_class": "cli-imported"}).json()["items"]
    assert stored["id"] == int(line[2])
    assert stored["imported"] is True and stored["host_name"] in ("laptop-01", fio_report.get("hostname"))
    assert stored["job_name"] == "imported-read"
    assert stored["directions"]["read"]["io_bytes"] == fio_report["jobs"][0]["read"]["io_bytes"]


def test_import_of_a_missing_file_exits_1_naming_it(storbench: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"

    done = storbench("import", str(missing))

    assert done.returncode == 1
    assert f"{missing}: cannot read" in done.stderr


def test_importing_the_same_output_again_says_when_it_was_first_imported(
    service: Service, storbench: CliRunner, tmp_path: Path
) -> None:
    first = tmp_path / "first.json"
    first.write_text(_fio_json(tmp_path / "fio"))
    copy = tmp_path / "copy-of-first.json"
    copy.write_bytes(first.read_bytes())

    done = storbench("import", str(first), str(copy))

    assert done.returncode == 0, done.stderr
    stored = re.search(rf"{re.escape(str(first))}: json, fio-[\d.]+, 1 result \(id (\d+)\)\n", done.stdout)
    assert stored, done.stdout
    again = re.search(
        rf"{re.escape(str(copy))}: already imported on (\d{{4}}-\d\d-\d\d \d\d:\d\d UTC), "
        rf"as 1 result \(id {stored[1]}\); not stored again\n",
        done.stdout,
    )
    assert again, done.stdout
    with service.api() as api:
        imported = api.get("/results", params={"imported": "true"}).json()["items"]
    assert [r["id"] for r in imported if r["id"] == int(stored[1])] == [int(stored[1])]
    assert (
        sum(1 for r in imported if r["job_name"] == "imported-read" and r["label"] == "copy-of-first.json")
        == 0
    )
