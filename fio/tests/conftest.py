"""Fixtures for the fio package's tests: running the real fio in a scratch directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Tests import fio_testkit by a name unique in the repository, so this folder need not be a
# package (a package named "tests" would clash with other folders' tests).
sys.path.insert(0, str(Path(__file__).parent))

from fio_testkit import FIO, RunFio


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
