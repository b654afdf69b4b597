"""The local worker and Redis that `make up` starts get environments of their own, not the API's."""

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.stack import free_port

UP_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "up.py"


def _load_up() -> ModuleType:
    spec = importlib.util.spec_from_file_location("storbench_up_script", UP_SCRIPT)
    assert spec is not None and spec.loader is not None
    up = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(up)
    return up


API_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/home/someone",
    "LANG": "C.UTF-8",
    "STORBENCH_DATA_DIR": "/srv/storbench/var",
    "STORBENCH_SECRET_KEY": "the-api-secret-key",
    "STORBENCH_ADMIN_PASSWORD": "the-admin-password",
    "STORBENCH_DATABASE_URL": "postgresql://storbench:db-password@127.0.0.1/storbench",
    "STORBENCH_BROKER_URL": "redis://storbench-api:redis-password@127.0.0.1:6390/0",
    "STORBENCH_WORKER_BROKER_URL": "redis://192.0.2.10:6390/0",
    "STORBENCH_WORKER_TOKEN": "sbw_some-other-token",
    "STORBENCH_WORKER_FIO": "/opt/fio/bin/fio",
    "AWS_SECRET_ACCESS_KEY": "cloud-secret",
}


def test_the_local_worker_gets_the_basics_and_none_of_the_apis_configuration() -> None:
    given = _load_up().worker_environment(API_ENV)
    assert given == {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/home/someone",
        "LANG": "C.UTF-8",
        "STORBENCH_WORKER_FIO": "/opt/fio/bin/fio",
    }


class Started(Exception):
    """Raised in place of starting a process: the test has what it wanted to see."""


def test_the_remote_mode_redis_gets_the_basics_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in API_ENV.items():
        monkeypatch.setenv(name, value)
    up = _load_up()
    monkeypatch.setattr(up, "DATA", tmp_path)
    monkeypatch.setattr(up, "REDIS_PORT", free_port())
    given: dict[str, str] = {}

    def start(name: str, argv: list[str], env: dict[str, str]) -> None:
        given.update(env)
        raise Started

    monkeypatch.setattr(up, "start", start)
    with pytest.raises(Started):
        up.start_redis("192.0.2.10")
    assert given == {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/home/someone",
        "LANG": "C.UTF-8",
        **{
            name: os.environ[name]
            for name in ("LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME")
            if name in os.environ
        },
    }
