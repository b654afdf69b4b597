"""What a host checks itself before running anything."""

from pathlib import Path

import pytest

from storbench_worker.prepare import (
    CannotRun,
    check_allowed,
    check_block_device_target,
    check_directory_target,
    validated_jobs,
)


def test_paths_outside_the_allowed_roots_are_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    check_allowed(allowed / "sub", (allowed,), "h")
    with pytest.raises(CannotRun, match="outside the paths"):
        check_allowed(tmp_path / "elsewhere", (allowed,), "h")


def test_a_symlink_out_of_an_allowed_root_is_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "escape").symlink_to("/etc")
    with pytest.raises(CannotRun):
        check_allowed(allowed / "escape", (allowed,), "h")


def test_a_missing_directory_says_so(tmp_path: Path) -> None:
    with pytest.raises(CannotRun, match="does not exist"):
        check_directory_target(tmp_path / "missing", "h")


def test_a_file_is_not_a_directory_target(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(CannotRun, match="not a directory"):
        check_directory_target(tmp_path / "f", "h")


def test_a_regular_file_is_not_a_block_device(tmp_path: Path) -> None:
    (tmp_path / "disk.img").write_text("x")
    jobs = validated_jobs([{"name": "r", "rw": "randread"}])
    with pytest.raises(CannotRun, match="not a block device"):
        check_block_device_target(tmp_path / "disk.img", jobs, destructive=False, host_name="h")


def test_jobs_the_server_sent_are_validated_again() -> None:
    with pytest.raises(CannotRun, match="iodepth"):
        validated_jobs([{"name": "r", "rw": "randread", "iodepth": -3}])
