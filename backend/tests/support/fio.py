"""Real fio outputs produced on the spot, in scratch directories the tests create."""

import subprocess
from pathlib import Path


def run_fio_json(workdir: Path, *args: str) -> str:
    """Run the real fio with json+ output inside workdir and return its stdout."""
    workdir.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["fio", "--output-format=json+", f"--directory={workdir}", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def quick_randread(workdir: Path) -> str:
    """A 1 s 4 KiB random read over a 16 MiB file."""
    return run_fio_json(
        workdir,
        "--name=randread-4k",
        "--rw=randread",
        "--bs=4k",
        "--size=16m",
        "--runtime=1",
        "--time_based",
        "--ioengine=psync",
    )
