"""`storbench file`: imports without a target are listed, then filed under one; a target's directory
is checked by the real worker."""

import re
import subprocess
import time
from pathlib import Path
from typing import Any

from cli_testkit import TARGET_NAME, CliRunner, Service


def _fio_json(workdir: Path, job: str) -> str:
    workdir.mkdir()
    argv = ["fio", "--output-format=json", f"--directory={workdir}", f"--name={job}", "--rw=write"]
    argv += ["--bs=64k", "--size=4m", "--ioengine=psync"]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout


def test_an_import_without_a_target_is_listed_then_filed(
    service: Service, storbench: CliRunner, tmp_path: Path
) -> None:
    output = tmp_path / "old.json"
    output.write_text(_fio_json(tmp_path / "fio", "filed-later"))
    imported = storbench("import", str(output))
    assert imported.returncode == 0, imported.stderr
    assert "storbench file --target NAME" in imported.stderr
    result_id = re.search(r"\(id (\d+)\)", imported.stdout)
    assert result_id, imported.stdout

    listed = storbench("file")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"  filed-later: 1 import, last \d{4}-\d\d-\d\d", listed.stdout), listed.stdout

    filed = storbench("file", result_id[1], "--target", TARGET_NAME)
    assert filed.returncode == 0, filed.stderr
    assert f"filed 1 import under target '{TARGET_NAME}'" in filed.stdout
    with service.api() as api:
        assert api.get(f"/results/{result_id[1]}").json()["target_id"] == service.target["id"]
    assert "filed-later" not in storbench("file").stdout
    again = storbench("file", result_id[1], "--target", TARGET_NAME)
    assert again.returncode == 2 and "already filed" in again.stderr


def _directory_state(service: Service, target_id: int, wanted: str) -> dict[str, Any]:
    """The target's directory once the worker reported it in `wanted` state (at most 60 s)."""
    deadline = time.monotonic() + 60
    with service.api() as api:
        while True:
            directory: dict[str, Any] = api.get(f"/targets/{target_id}").json()["directory"]
            if directory["state"] == wanted or time.monotonic() > deadline:
                return directory
            time.sleep(0.5)


def test_the_worker_reports_a_new_targets_directory_missing_then_present(service: Service) -> None:
    later = service.scratch / "made-later"
    with service.api() as api:
        body = {"name": "made-later", "host_id": service.host["id"], "path": str(later), "kind": "directory"}
        created = api.post("/targets", json=body)
        assert created.status_code == 201, created.text
        target_id = created.json()["id"]
        missing = _directory_state(service, target_id, "missing")
        assert missing["state"] == "missing", missing
        assert f"mkdir -p {later}" in missing["message"]
        refused = api.post(
            "/runs",
            json={
                "target_id": target_id,
                "jobs": [{"name": "w", "rw": "write", "bs": "4k", "size": "1m", "runtime": 5}],
            },
        )
        assert refused.status_code == 422 and "does not exist" in refused.json()["message"]
        later.mkdir()
        assert _directory_state(service, target_id, "exists")["state"] == "exists"
        assert api.get(f"/targets/{service.target['id']}").json()["directory"]["state"] == "exists"
