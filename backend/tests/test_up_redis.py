"""The Redis that `make up REMOTE=1` starts is bounded and never evicts queued work: its generated
configuration, run by a real redis-server of this test's own (on loopback only)."""

import importlib.util
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
import redis

from tests.support.stack import free_port

UP_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "up.py"
DEADLINE_S = 15.0


def _load_up(monkeypatch: pytest.MonkeyPatch, port: int) -> ModuleType:
    monkeypatch.setenv("STORBENCH_REDIS_PORT", str(port))
    monkeypatch.setenv("STORBENCH_REDIS_MAXMEMORY", "64mb")
    spec = importlib.util.spec_from_file_location("storbench_up_script", UP_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def up_redis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    """A redis-server run with up.py's configuration, as the API's user."""
    port = free_port()
    up = _load_up(monkeypatch, port)
    config = up.redis_config(tmp_path, "api-password")
    # The same configuration, listening on loopback only (up.py listens on every interface).
    assert "bind * -::*" in config
    (tmp_path / "redis.conf").write_text(config.replace("bind * -::*", "bind 127.0.0.1"))
    server = subprocess.Popen(
        [shutil.which("redis-server") or "/usr/bin/redis-server", str(tmp_path / "redis.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(
        host="127.0.0.1", port=port, username=up.REDIS_API_USER, password="api-password", socket_timeout=5
    )
    try:
        _wait_until_answering(client, server)
        yield client
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=DEADLINE_S)


def _wait_until_answering(client: redis.Redis, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            assert server.poll() is None, "redis-server refused up.py's configuration"
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)


def test_up_redis_is_bounded_and_fails_writes_instead_of_evicting(up_redis: redis.Redis) -> None:
    config = up_redis.config_get("maxmemory*")
    assert config["maxmemory"] == str(64 << 20)
    assert config["maxmemory-policy"] == "noeviction"


def test_up_redis_refuses_a_value_over_one_mebibyte(up_redis: redis.Redis) -> None:
    up_redis.lpush("host.1", b"x" * 1000)
    with pytest.raises(redis.exceptions.RedisError):
        up_redis.lpush("host.1", b"x" * (2 << 20))
    assert up_redis.llen("host.1") == 1
