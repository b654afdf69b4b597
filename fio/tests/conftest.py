"""Shared fixtures: running the real fio binary inside a scratch directory."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

FIO = shutil.which("fio")
requires_fio = pytest.mark.skipif(FIO is None, reason="fio binary not installed")

RunFio = Callable[..., str]


@pytest.fixture
def run_fio(tmp_path: Path) -> RunFio:
    """Run fio with the given arguments inside tmp_path and return its stdout."""

    def run(*args: str, timeout: float = 30) -> str:
        assert FIO is not None
        proc = subprocess.run(
            [FIO, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr + proc.stdout
        return proc.stdout

    return run


def tiny_job_args(directory: Path, **overrides: str) -> list[str]:
    """Arguments for a ~1 s psync job on a small file in a scratch directory."""
    options = {
        "name": "t",
        "rw": "randread",
        "bs": "4k",
        "size": "8m",
        "runtime": "1",
        "ioengine": "psync",
        "directory": str(directory),
    }
    options.update(overrides)
    args = [f"--{key}={value}" for key, value in options.items()]
    args.append("--time_based")
    return args
