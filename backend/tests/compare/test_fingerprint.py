"""Comparability components and fingerprints: what makes two results compare fairly."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.compare.fingerprint import comparability, fingerprint, job_shape
from storbench_api.models import Result
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
