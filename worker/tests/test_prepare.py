"""What a host checks itself before running anything."""

from pathlib import Path

import pytest

from storbench_fio.safety import SafetyLimits
from storbench_worker.prepare import (
    CannotRun,
    check_allowed,
    check_block_device_target,
    check_directory_target,
    check_safety,
    device_is_mounted,
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
    with pytest.raises(CannotRun, match="not a block device"):
        check_block_device_target(tmp_path / "disk.img", host_name="h")


def test_jobs_the_server_sent_are_validated_again() -> None:
    with pytest.raises(CannotRun, match="iodepth"):
        validated_jobs([{"name": "r", "rw": "randread", "iodepth": -3}])


def test_a_job_larger_than_the_free_space_is_refused(tmp_path: Path) -> None:
    jobs = validated_jobs([{"name": "w", "rw": "write", "size": "100t", "runtime": 10}])
    target = {"kind": "directory", "path": str(tmp_path), "destructive": False}
    with pytest.raises(CannotRun, match="size"):
        check_safety(jobs, target, SafetyLimits(max_total_size_bytes=1 << 60))


def test_writing_a_device_is_refused_unless_destructive_and_confirmed(tmp_path: Path) -> None:
    jobs = validated_jobs([{"name": "w", "rw": "randwrite", "bs": "4k", "runtime": 10}])
    mounts = tmp_path / "mounts"
    mounts.write_text("")
    device = {"kind": "block_device", "path": "/dev/null-device-for-test", "destructive": True}
    with pytest.raises(CannotRun, match="destructive"):
        check_safety(jobs, {**device, "confirmed_destructive": False}, SafetyLimits())


def test_a_mounted_partition_makes_its_disk_count_as_mounted(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/vdb1 /data ext4 rw 0 0\n/dev/nvme0n1p2 /x xfs rw 0 0\n")
    assert device_is_mounted(Path("/dev/vdb"), mounts)
    assert device_is_mounted(Path("/dev/nvme0n1"), mounts)
    assert not device_is_mounted(Path("/dev/vdc"), mounts)
    assert not device_is_mounted(Path("/dev/vd"), mounts)
