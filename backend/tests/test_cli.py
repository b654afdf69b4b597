"""`storbench-api serve` as `make up` runs it: never beyond loopback with the published admin password,
and X-Forwarded-For believed only from the proxies the operator names."""

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from storbench_api import cli
from storbench_api.settings import get_settings
from tests.support.stack import BIN, _stop, free_port

SERVE_DEADLINE_S = 120  # migrating an empty SQLite database on a loaded machine


def embedded_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The embedded mode (SQLite, folder broker) of `make up`, in a folder of the test's own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STORBENCH_")}
    return {**env, "STORBENCH_DATA_DIR": str(data_dir), **extra}


@contextmanager
def serving(env: dict[str, str], bind: str, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The real `storbench-api serve` process, stopped afterwards whatever it did."""
    port = free_port()
    with log.open("ab") as out:
        api = subprocess.Popen(
            [str(BIN / "storbench-api"), "serve", "--host", bind, "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield api, port
    finally:
        _stop(api)


def exits_or_answers(api: subprocess.Popen[bytes], port: int) -> str:
    """'exited' or 'answers', whichever comes first within the deadline."""
    deadline = time.monotonic() + SERVE_DEADLINE_S
    while time.monotonic() < deadline:
        if api.poll() is not None:
            return "exited"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=1).status_code == 200:
                return "answers"
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"serve neither exited nor answered within {SERVE_DEADLINE_S} s")


def test_refuses_every_interface_while_the_admin_password_is_the_documented_one(tmp_path: Path) -> None:
    log = tmp_path / "api.log"
    with serving(embedded_env(tmp_path / "data"), "0.0.0.0", log) as (api, port):
        assert exits_or_answers(api, port) == "exited"
        assert api.returncode != 0
    said = log.read_text()
    assert "refusing to listen on 0.0.0.0" in said
    assert "STORBENCH_ADMIN_PASSWORD=" in said and "Account" in said


def test_loopback_with_the_documented_password_starts(tmp_path: Path) -> None:
    with serving(embedded_env(tmp_path / "data"), "127.0.0.1", tmp_path / "api.log") as (api, port):
        assert exits_or_answers(api, port) == "answers"


def test_a_password_set_once_is_what_counts_not_the_variable(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "api.log"
    # First start on loopback: the admin is created with the documented password.
    with serving(embedded_env(data), "127.0.0.1", log) as (api, port):
        assert exits_or_answers(api, port) == "answers"
    # STORBENCH_ADMIN_PASSWORD replaces the documented password of the existing admin.
    with serving(embedded_env(data, STORBENCH_ADMIN_PASSWORD="chosen-pw-1"), "0.0.0.0", log) as (api, port):
        assert exits_or_answers(api, port) == "answers", log.read_text()
        signed_in = httpx.post(
            f"http://127.0.0.1:{port}/api/v1/auth/token",
            data={"username": "admin@storbench.local", "password": "chosen-pw-1"},
        )
        assert signed_in.status_code == 200, signed_in.text
    # The stored password is checked: without the variable, every interface is fine from now on.
    with serving(embedded_env(data), "0.0.0.0", log) as (api, port):
        assert exits_or_answers(api, port) == "answers", log.read_text()
        refused = httpx.post(
            f"http://127.0.0.1:{port}/api/v1/auth/token",
            data={"username": "admin@storbench.local", "password": "storbench"},
        )
        assert refused.status_code == 401


async def _echo_client_address(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app answering with the address a request came from, as the sign-in limits read it."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": scope["client"][0].encode()})


def _address_seen_through_serve(monkeypatch: pytest.MonkeyPatch, forwarded_for: str) -> str:
    """The client address an app served with serve()'s own uvicorn settings sees behind forwarded_for."""
    served: dict[str, Any] = {}
    monkeypatch.setattr(cli, "refuse_unsafe_production", lambda: None)
    monkeypatch.setattr("uvicorn.run", lambda target, **settings: served.update(settings))
    port = free_port()
    cli.serve("127.0.0.1", port)
    served.pop("factory")
    server = uvicorn.Server(uvicorn.Config(_echo_client_address, **served))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + SERVE_DEADLINE_S
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        answer = httpx.get(f"http://127.0.0.1:{port}/", headers={"X-Forwarded-For": forwarded_for})
        return answer.text
    finally:
        server.should_exit = True
        thread.join(timeout=SERVE_DEADLINE_S)


def test_a_forwarded_for_header_is_ignored_unless_its_proxy_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # uvicorn on its own believes 127.0.0.1: any local process could claim a fresh address per guess.
    monkeypatch.setattr(get_settings(), "forwarded_allow_ips", "")
    assert _address_seen_through_serve(monkeypatch, "203.0.113.9") == "127.0.0.1"
    monkeypatch.setattr(get_settings(), "forwarded_allow_ips", "127.0.0.1")
    assert _address_seen_through_serve(monkeypatch, "203.0.113.9") == "203.0.113.9"
