"""The local worker `make up` starts gets an environment of its own, none of the API's secrets."""

import importlib.util
from pathlib import Path

UP_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "up.py"


def test_the_local_worker_gets_the_basics_and_none_of_the_apis_configuration() -> None:
    spec = importlib.util.spec_from_file_location("storbench_up_script", UP_SCRIPT)
    assert spec is not None and spec.loader is not None
    up = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(up)
    api_env = {
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
    given = up.worker_environment(api_env)
    assert given == {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/home/someone",
        "LANG": "C.UTF-8",
        "STORBENCH_WORKER_FIO": "/opt/fio/bin/fio",
    }
