"""Adding a host: whether this server can take remote ones, the commands, and the worker's packages."""

import hashlib
import io
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.models import Role
from storbench_api.settings import get_settings
from tests.conftest import Caller, make_caller


def _setup(client: TestClient, caller: Caller) -> dict[str, object]:
    response = client.get("/api/v1/worker/setup", headers=caller.headers)
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_the_embedded_broker_cannot_take_remote_hosts_and_says_what_to_do(
    client: TestClient, db: Session, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "broker_url", "")
    viewer = make_caller(db, team=owner.team, role=Role.viewer)
    setup = _setup(client, viewer)
    assert setup["accepts_remote_hosts"] is False
    problems = setup["problems"]
    assert isinstance(problems, list)
    assert len(problems) == 1
    assert "embedded broker" in problems[0]
    assert "make up REMOTE=1" in problems[0]
    assert str(setup["broker"]).startswith("folder ")


def test_a_loopback_broker_or_address_cannot_take_remote_hosts(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "worker_broker_url", "redis://127.0.0.1:6390/0")
    monkeypatch.setattr(get_settings(), "public_url", "http://localhost:8000")
    setup = _setup(client, owner)
    assert setup["accepts_remote_hosts"] is False
    problems = " ".join(str(p) for p in setup["problems"])  # type: ignore[attr-defined]
    assert "redis://127.0.0.1:6390/0, which only this machine can reach" in problems
    assert "http://localhost:8000, is reachable only from this machine" in problems
    assert "STORBENCH_PUBLIC_URL" in problems


def test_a_reachable_server_gives_complete_commands_without_secrets(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "public_url", "http://192.0.2.10:8000/")
    monkeypatch.setattr(get_settings(), "worker_broker_url", "redis://192.0.2.10:6390/0")
    setup = _setup(client, owner)
    assert setup["accepts_remote_hosts"] is True
    assert setup["problems"] == []
    assert setup["server_url"] == "http://192.0.2.10:8000"
    assert setup["broker"] == "redis://192.0.2.10:6390/0"
    assert setup["install_command"] == (
        "apt-get install -y fio python3-venv && python3 -m venv /opt/storbench-worker && "
        "/opt/storbench-worker/bin/pip install -r http://192.0.2.10:8000/api/v1/worker/requirements.txt && "
        "ln -sf /opt/storbench-worker/bin/storbench-worker /usr/local/bin/storbench-worker"
    )
    assert setup["start_command"] == (
        "storbench-worker --server http://192.0.2.10:8000 --token-file /etc/storbench-token "
        '--name "$(hostname)" --allow <DIRECTORY>'
    )


def test_the_broker_address_shown_never_carries_its_password(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "worker_broker_url", "rediss://api:s3cret@broker.example:6380/2")
    setup = _setup(client, owner)
    assert setup["broker"] == "rediss://broker.example:6380/2"
    assert "s3cret" not in str(setup)


def test_an_enrollment_token_comes_with_every_command_and_the_token_only_in_the_file(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "public_url", "http://192.0.2.10:8000")
    created = client.post("/api/v1/enrollment-tokens", json={}, headers=owner.headers).json()
    lines = [line for line in created["command"].splitlines() if not line.startswith("#")]
    install, token_file, start = lines
    assert "requirements.txt" in install
    assert (
        token_file
        == f"install -m 600 /dev/null /etc/storbench-token && echo {created['token']} > /etc/storbench-token"
    )
    assert start.startswith(
        "storbench-worker --server http://192.0.2.10:8000 --token-file /etc/storbench-token"
    )
    assert start.endswith("--allow <DIRECTORY>")
    assert created["token"] not in start


def test_a_replacement_token_keeps_the_hosts_name(client: TestClient, db: Session, owner: Caller) -> None:
    from tests.conftest import make_host

    host, _ = make_host(db, team=owner.team, name="nas-client-07")
    created = client.post(
        "/api/v1/enrollment-tokens", json={"replaces_host_id": host.id}, headers=owner.headers
    ).json()
    assert "--name nas-client-07 --allow <DIRECTORY>" in created["command"]


def test_the_setup_needs_a_signed_in_caller(client: TestClient) -> None:
    assert client.get("/api/v1/worker/setup").status_code == 401


# ---- the worker's packages ------------------------------------------------------------------------


def test_requirements_name_our_wheels_by_url_with_their_hash_and_pin_the_rest(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "public_url", "http://192.0.2.10:8000")
    response = client.get("/api/v1/worker/requirements.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    lines = [line for line in response.text.splitlines() if line and not line.startswith("#")]
    ours = [line for line in lines if "://" in line]
    assert [line.split("#")[0] for line in ours] == [
        "http://192.0.2.10:8000/api/v1/worker/dist/storbench_fio-0.1.0-py3-none-any.whl",
        "http://192.0.2.10:8000/api/v1/worker/dist/storbench_protocol-0.1.0-py3-none-any.whl",
        "http://192.0.2.10:8000/api/v1/worker/dist/storbench_worker-0.1.0-py3-none-any.whl",
    ]
    for line in ours:
        url, fragment = line.split("#")
        served = client.get(url.replace("http://192.0.2.10:8000", ""))
        assert served.status_code == 200
        assert fragment == f"sha256={hashlib.sha256(served.content).hexdigest()}"
    pinned = {line.split("==")[0] for line in lines if "==" in line}
    assert {"celery", "redis", "httpx", "tenacity", "pydantic"} <= pinned
    assert not any(line.startswith("storbench") for line in lines)


def test_a_forged_host_header_never_becomes_the_address_hosts_install_from(
    client: TestClient, owner: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    forged = {"Host": "evil.example"}

    def setup() -> dict[str, object]:
        response = client.get("/api/v1/worker/setup", headers={**owner.headers, **forged})
        assert response.status_code == 200, response.text
        body: dict[str, object] = response.json()
        return body

    monkeypatch.setattr(get_settings(), "public_url", "http://192.0.2.10:8000")
    shown = setup()
    assert shown["server_url"] == "http://192.0.2.10:8000"
    assert "evil.example" not in str(shown)
    created = client.post("/api/v1/enrollment-tokens", json={}, headers={**owner.headers, **forged})
    assert "evil.example" not in created.json()["command"]
    requirements = client.get("/api/v1/worker/requirements.txt", headers=forged).text
    assert "evil.example" not in requirements
    assert "http://192.0.2.10:8000/api/v1/worker/dist/storbench_fio-" in requirements

    # Without a configured address: the socket the request came in on (the test client's), still
    # never the Host header.
    monkeypatch.setattr(get_settings(), "public_url", "")
    assert setup()["server_url"] == "http://testserver"
    requirements = client.get("/api/v1/worker/requirements.txt", headers=forged).text
    assert "evil.example" not in requirements
    assert "http://testserver/api/v1/worker/dist/storbench_fio-" in requirements


def test_an_unknown_wheel_is_404_and_a_bad_name_422(client: TestClient) -> None:
    missing = client.get("/api/v1/worker/dist/storbench_api-0.1.0-py3-none-any.whl")
    assert missing.status_code == 404
    assert "requirements.txt" in missing.json()["message"]
    assert client.get("/api/v1/worker/dist/..%2Fsecret.whl").status_code in (404, 422)
    assert client.get("/api/v1/worker/dist/notes.txt").status_code == 422


def test_the_served_wheels_install_a_working_worker_without_the_checkout(
    client: TestClient, tmp_path: Path
) -> None:
    """A fresh virtualenv gets our three packages from the server alone; the third-party ones come
    from this environment (no index here), and `storbench-worker` then runs from the new venv."""
    urls = [
        line for line in client.get("/api/v1/worker/requirements.txt").text.splitlines() if "/dist/" in line
    ]
    wheels: list[str] = []
    for url in urls:
        url = url.split("#")[0]
        response = client.get(url.replace("http://testserver", ""))
        assert response.status_code == 200
        name = url.rsplit("/", 1)[1]
        zipfile.ZipFile(io.BytesIO(response.content)).testzip()
        (tmp_path / name).write_bytes(response.content)
        wheels.append(str(tmp_path / name))
    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(target)
    subprocess.run(
        [target / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", *wheels],
        check=True,
        timeout=300,
    )
    site = next(Path(p) for p in sys.path if p.endswith("site-packages"))
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [
            target / "bin" / "python",
            "-c",
            "import storbench_worker.cli, storbench_fio; print(storbench_worker.cli.__file__)",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip().startswith(str(target))
    usage = subprocess.run(
        [target / "bin" / "storbench-worker", "--help"], env=env, capture_output=True, text=True, check=True
    )
    assert "--allow" in usage.stdout
