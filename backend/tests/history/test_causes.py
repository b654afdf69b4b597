"""A regression says what changed around it: the kernel, mount options… or nothing (the storage did)."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.history.causes import NOTHING_CHANGED
from storbench_api.results import service as results_service
from storbench_api.results.provenance import Provenance
from tests.conftest import Caller, make_host, make_target
from tests.history.fio_outputs import with_figures
from tests.history.test_router import LEVELS
from tests.support.fio import quick_randread

MOUNT = {"source": "nas:/export", "mountpoint": "/srv", "fstype": "nfs4"}


@pytest.fixture(scope="module")
def base_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return json.loads(quick_randread(tmp_path_factory.mktemp("history-fio")))


def _facts(kernel: str, options: str) -> dict[str, Any]:
    return {"kernel": kernel, "os": "Debian 12", "mounts": [{**MOUNT, "options": options}]}


def _store(db: Session, owner: Caller, base: dict[str, Any], changed: dict[str, Any] | None) -> None:
    """LEVELS measured by a host; from the drop on, with `changed` facts when given."""
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, path="/srv/scratch")
    before = _facts("6.1.0-18-amd64", "rw,vers=4.1,nconnect=4,hard")
    for day, iops in enumerate(LEVELS):
        facts = changed if changed is not None and iops < 8_000 else before
        output = with_figures(base, iops=iops, lat_ns=3.2e9 / iops, day=day)
        source = Provenance(owner.team.id, target=target, host_facts=facts)
        results_service.store_report(db, source, results_service.parse_output(output), output)
    db.commit()


def _iops_regression(client: TestClient, owner: Caller) -> dict[str, Any]:
    listed = client.get("/api/v1/regressions?kind=regression", headers=owner.headers)
    assert listed.status_code == 200, listed.text
    found: dict[str, Any] = next(c for c in listed.json()["items"] if c["metric"] == "iops")
    return found


def test_a_kernel_upgrade_and_a_remount_are_named_as_likely_causes(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    _store(db, owner, base_output, _facts("6.12.0-1-amd64", "rw,vers=4.1,nconnect=4,soft"))
    change = _iops_regression(client, owner)
    causes = {c["component"]: (c["before"], c["after"]) for c in change["likely_causes"]}
    assert causes == {
        "kernel": ("6.1.0-18-amd64", "6.12.0-1-amd64"),
        "mount options": ("rw,vers=4.1,nconnect=4,hard", "rw,vers=4.1,nconnect=4,soft"),
    }
    assert change["what_changed"].startswith("changed around it: kernel 6.1.0-18-amd64 → 6.12.0-1-amd64")


def test_a_drop_with_nothing_changed_in_how_it_was_measured_says_the_storage_did(
    client: TestClient, db: Session, owner: Caller, base_output: dict[str, Any]
) -> None:
    _store(db, owner, base_output, None)
    change = _iops_regression(client, owner)
    assert change["likely_causes"] == [] and change["what_changed"] == NOTHING_CHANGED
