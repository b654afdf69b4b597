"""`storbench host rotate|revoke`: an owner's controls over a host's credential."""

import httpx
from cli_testkit import CliRunner, Service


def test_rotate_prints_the_new_token_alone_and_revoke_stops_it(
    service: Service, storbench: CliRunner
) -> None:
    with service.api() as api:
        spare = api.post("/hosts", json={"name": "spare-host"}).json()
    old = spare["worker_token"]
    url = f"{service.stack.url}/api/v1/worker/me"

    rotated = storbench("host", "rotate", "spare-host")
    assert rotated.returncode == 0, rotated.stderr
    new = rotated.stdout.strip()
    assert new.startswith("sbh_") and new != old
    assert "shown once" in rotated.stderr
    assert httpx.get(url, headers={"Authorization": f"Bearer {old}"}).status_code == 401
    assert httpx.get(url, headers={"Authorization": f"Bearer {new}"}).status_code == 200

    revoked = storbench("host", "revoke", "spare-host")
    assert revoked.returncode == 0, revoked.stderr
    assert "revoked" in revoked.stdout
    assert httpx.get(url, headers={"Authorization": f"Bearer {new}"}).status_code == 401
    hosts = storbench("hosts")
    (row,) = [line for line in hosts.stdout.splitlines() if " spare-host " in line]
    assert "revoked" in row


def test_an_unknown_host_exits_2_naming_the_hosts(service: Service, storbench: CliRunner) -> None:
    refused = storbench("host", "revoke", "no-such-host")
    assert refused.returncode == 2
    assert "no-such-host" in refused.stderr


def test_rename_remove_and_delete_a_host(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        kept = api.post("/hosts", json={"name": "old-client"}).json()
        api.post("/hosts", json={"name": "typo-client"})
    url = f"{service.stack.url}/api/v1/worker/me"

    renamed = storbench("host", "rename", "old-client", "new-client")
    assert renamed.returncode == 0, renamed.stderr
    assert "now new-client" in renamed.stdout
    taken = storbench("host", "rename", "new-client", service.host["name"])
    assert taken.returncode == 2
    assert f"a host named '{service.host['name']}' already exists" in taken.stderr
    bad = storbench("host", "rename", "new-client", "two words")
    assert bad.returncode == 2
    assert "name" in bad.stderr

    removed = storbench("host", "remove", "new-client")
    assert removed.returncode == 0, removed.stderr
    assert "runs and results stay" in removed.stdout
    headers = {"Authorization": f"Bearer {kept['worker_token']}"}
    assert httpx.get(url, headers=headers).status_code == 401

    deleted = storbench("host", "delete", "typo-client")
    assert deleted.returncode == 0, deleted.stderr
    listed = storbench("hosts").stdout
    assert "new-client" not in listed and "typo-client" not in listed
    assert service.host["name"] in listed


def test_a_host_that_ran_cannot_be_deleted(service: Service, storbench: CliRunner) -> None:
    refused = storbench("host", "delete", service.host["name"])
    assert refused.returncode == 2
    assert "remove it instead" in refused.stderr
