"""Helpers shared by the fio package's tests (a uniquely named module, not a package)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

FIO = shutil.which("fio")
requires_fio = pytest.mark.skipif(FIO is None, reason="fio binary not installed")

RunFio = Callable[..., str]


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


JOB_FILE = """\
; storbench sample
# two jobs sharing [global]
[global]
ioengine = libaio
direct=1
bs=4k ; inline comment
time_based
runtime=1m

[randread]
rw=randread
iodepth=32
size=64m

[global]
numjobs=2

[seqwrite]
rw=write
bs=1m
size=256m
"""
