"""The start gate fio's jobs wait on before the common start."""

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from storbench_fio.job import validate_job_dict
from storbench_worker.start_gate import StartGate, jobs_at_first_gate, without_gate_notices

pytestmark = pytest.mark.skipif(shutil.which("flock") is None, reason="flock(1) is not installed")


def test_only_the_first_groups_job_processes_wait_at_the_start() -> None:
    jobs = [
        validate_job_dict({"name": "readers", "rw": "randread", "numjobs": 3}),
        validate_job_dict({"name": "late", "rw": "randread", "startdelay": 5}),
        validate_job_dict({"name": "next-group", "rw": "randread", "stonewall": True, "numjobs": 4}),
    ]
    assert jobs_at_first_gate(jobs) == 3


def test_a_waiting_job_is_counted_and_goes_on_only_once_the_gate_opens(tmp_path: Path) -> None:
    gate = StartGate(tmp_path / "gate")
    command = gate.fio_args[0].removeprefix("--exec_prerun=")
    waiter = subprocess.Popen(["sh", "-c", command])
    try:
        deadline = time.monotonic() + 10
        while gate.waiting() < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gate.waiting() == 1
        assert waiter.poll() is None, "the job waits while the gate is closed"
        gate.open()
        assert waiter.wait(timeout=10) == 0
        # A job of a later group passes the open gate at once.
        assert subprocess.run(["sh", "-c", command], timeout=10).returncode == 0
    finally:
        gate.close()
        waiter.kill()
    assert not gate.path.exists()


def test_fios_notice_about_a_prerun_file_is_left_out_of_what_fio_said() -> None:
    said = "two-readers : Saving output of prerun in two-readers.prerun.txt\nfio: file too big\n"
    assert without_gate_notices(said) == "fio: file too big\n"
