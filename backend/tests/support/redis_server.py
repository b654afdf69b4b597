"""A redis-server of a test's own, so it can be stopped and started without disturbing others."""

import shutil
import subprocess
import time
from pathlib import Path

import redis

from tests.support.stack import free_port


class PrivateRedis:
    """A redis-server of this test's own, so it can be stopped and started without disturbing others."""

    def __init__(self, workdir: Path, bind: str = "127.0.0.1", options: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.bind = bind
        self.options = options  # more of redis-server's options, e.g. ("--maxmemory", "32mb")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{self.bind}:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [
                binary,
                "--bind",
                self.bind,
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                # Bound only to this test's own address; the bridge address is not loopback.
                "--protected-mode",
                "no",
                "--dir",
                str(self.workdir),
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("private redis did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
