"""Comparability components and fingerprints: what makes two results compare fairly."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Result, Run, RunStatus
from storbench_api.results import service as results_service
from storbench_api.results.fingerprint import comparability, fingerprint
from storbench_api.results.provenance import Provenance
from storbench_fio.options import ALIASES
from storbench_fio.reported import job_shape
from storbench_protocol.facts import HostFacts
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_host, make_target

NFS_HOST = HostFacts.model_validate(
    {
        "cpu_model": "Intel Xeon Platinum 8269CY",
        "cpu_count": 8,
        "memory_bytes": 32 * 2**30 - 300 * 2**20,
        "nics": [{"name": "eth0", "speed_mbps": 10000, "state": "up"}, {"name": "lo"}],
        "mounts": [
            {"source": "/dev/vda1", "mountpoint": "/", "fstype": "ext4", "options": "rw,relatime"},
            {
                "source": "nas.example:/share",
                "mountpoint": "/mnt/nas",
                "fstype": "nfs4",
                "options": "rw,vers=4.1,rsize=1048576,wsize=1048576,nconnect=8,hard",
            },
        ],
    }
)


def test_names_paths_and_spellings_do_not_change_the_fingerprint() -> None:
    one = comparability(
        options={"name": "a", "bs": "4k", "filename": "/x", "iodepth": "32"}, fio_version="3.33"
    )
    two = comparability(
        options={"name": "b", "blocksize": "4096", "directory": "/y", "iodepth": "32", "output": "o"},
        fio_version="3.33",
    )
    assert one == two
    assert fingerprint(one) == fingerprint(two)
    deeper = comparability(options={"bs": "4k", "iodepth": "64"}, fio_version="3.33")
    assert fingerprint(deeper) != fingerprint(one)
    assert len(fingerprint(one)) == 64


@pytest.mark.parametrize(("alias", "canonical"), sorted(ALIASES.items()))
@pytest.mark.parametrize("value", ["4k", "60"])
def test_every_alias_fio_documents_gives_the_fingerprint_of_its_canonical_name(
    alias: str, canonical: str, value: str
) -> None:
    # The alias table is fio 3.33's (fio/tests/test_reported.py checks it against fio itself).
    spelled = comparability(options={alias: value, "rw": "randread"}, fio_version="fio-3.33")
    canonically = comparability(options={canonical: value, "rw": "randread"}, fio_version="fio-3.33")
    assert fingerprint(spelled) == fingerprint(canonically)


def test_a_job_at_fios_defaults_has_the_fingerprint_of_one_spelling_them_out() -> None:
    spelled = {"rw": "read", "bs": "4k", "iodepth": "1", "numjobs": "1", "ioengine": "psync", "direct": "0"}
    assert fingerprint(comparability(options={}, fio_version=None)) == fingerprint(
        comparability(options=spelled, fio_version=None)
    )
    shorter = comparability(options={"timeout": "1m"}, fio_version=None)
    assert fingerprint(shorter) == fingerprint(comparability(options={"runtime": "60"}, fio_version=None))


def test_host_class_and_the_targets_mount_are_components() -> None:
    found = comparability(
        options={"rw": "randread"},
        fio_version="fio-3.33",
        facts=NFS_HOST,
        target_path="/mnt/nas/bench",
        storage_class="NAS performance",
        capacity_gib=800,
    )
    assert found["host"] == {
        "cpu_model": "Intel Xeon Platinum 8269CY",
        "cpu_count": 8,
        "memory_gib": 32,
        "nic_mbps": 10000,
    }
    assert found["mount"] == {
        "fstype": "nfs4",
        "nfs_version": "4.1",
        "nconnect": 8,
        "rsize": 1048576,
        "wsize": 1048576,
    }
    assert found["storage"] == {"class": "NAS performance", "capacity_gib": 800}
    on_root = comparability(options={}, fio_version=None, facts=NFS_HOST, target_path="/srv")
    assert on_root["mount"] == {"fstype": "ext4"}


def test_job_shape_takes_fios_defaults() -> None:
    assert job_shape({}) == {"rw": "read", "bs": "4096", "iodepth": "1", "numjobs": "1"}
    assert job_shape({"readwrite": "randrw:8", "bs": "64k", "numjobs": "4"})["rw"] == "randrw"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def test_a_stored_result_carries_its_components_and_fingerprint(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="nas-800")
    target.storage_class = "NAS performance"
    target.capacity_gib = 800
    db.commit()
    files = {"file": ("o.json", shaped(base, iops=5000).encode(), "application/json")}
    response = client.post(
        "/api/v1/results/import", files=files, data={"target_id": str(target.id)}, headers=owner.headers
    )
    assert response.status_code == 201, response.text
    stored = db.get(Result, response.json()["results"][0]["id"])
    assert stored is not None
    assert stored.comparability["storage"] == {"class": "NAS performance", "capacity_gib": 800}
    assert stored.comparability["job"]["bs"] == "4096"
    assert stored.comparability["fio_version"] == "fio-3.33"
    assert stored.fingerprint == fingerprint(stored.comparability)


def _written(output: str, **spelling: str) -> str:
    """The output with its job's options respelled: each spelling moves a value to a new name."""
    out = json.loads(output)
    options = out["jobs"][0]["job options"]
    for new, old in spelling.items():
        options[new] = options.pop(old)
    return json.dumps(out)


def test_an_imported_job_and_a_run_of_it_pool_into_one_side(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="pooled")
    run = Run(
        team_id=owner.team.id,
        target_id=target.id,
        jobs=[{"name": "j"}],
        status=RunStatus.completed,
        label="nightly",
    )
    db.add(run)
    db.flush()
    # storbench renders runtime= and bs=; a job written by hand said timeout= and blocksize=.
    ran = shaped(base, iops=10_000, name="j", timestamp=1_700_000_000)
    source = Provenance(owner.team.id, target=target, run_id=run.id)
    stored = results_service.store_report(db, source, results_service.parse_output(ran), ran)
    db.commit()
    by_hand = _written(
        shaped(base, iops=10_400, name="j", timestamp=1_700_000_100), timeout="runtime", blocksize="bs"
    )
    files = {"file": ("hand.json", by_hand.encode(), "application/json")}
    form = {"target_id": str(target.id), "label": "nightly"}
    response = client.post("/api/v1/results/import", files=files, data=form, headers=owner.headers)
    assert response.status_code == 201, response.text
    ids = sorted([stored[0].id, response.json()["results"][0]["id"]])
    response = client.get(f"/api/v1/compare?ids={ids[0]},{ids[1]}", headers=owner.headers)
    assert response.status_code == 200, response.text
    assert [(side["n"], sorted(side["result_ids"])) for side in response.json()["sides"]] == [(2, ids)]
