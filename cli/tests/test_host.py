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
