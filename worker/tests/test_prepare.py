"""What a host checks itself before running anything."""

from pathlib import Path

import pytest

from storbench_fio.safety import SafetyLimits
from storbench_protocol.assignments import AssignmentTarget, TargetKind
from storbench_worker.devices import device_in_use
from storbench_worker.prepare import (
    CannotRun,
    check_block_device_target,
    check_directory_target,
    check_safety,
    resolved_target,
    validated_jobs,
)
from storbench_worker.rundir import RunDirectory


def test_paths_outside_the_allowed_roots_are_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    assert resolved_target(str(allowed / "sub"), "directory", (allowed,), "h") == allowed / "sub"
    with pytest.raises(CannotRun, match="outside the paths"):
        resolved_target(str(tmp_path / "elsewhere"), "directory", (allowed,), "h")
    with pytest.raises(CannotRun, match="outside the paths"):
        resolved_target(str(allowed), "directory", (), "h")


def test_a_symlink_out_of_an_allowed_root_is_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "escape").symlink_to("/etc")
    (allowed / "away").symlink_to(tmp_path)
    with pytest.raises(CannotRun, match="/etc"):
        resolved_target(str(allowed / "escape"), "directory", (allowed,), "h")
    with pytest.raises(CannotRun, match="outside"):
        resolved_target(str(allowed / "away"), "directory", (allowed,), "h")


def test_system_paths_are_refused_whatever_the_host_allows() -> None:
    for path in ("/", "/dev", "/etc", "/proc/self", "/usr/lib"):
        with pytest.raises(CannotRun, match="refused"):
            resolved_target(path, "directory", (Path("/"),), "h")


def test_a_block_device_must_be_named_by_the_host(tmp_path: Path) -> None:
    with pytest.raises(CannotRun, match="--allow /dev/vdz"):
        resolved_target("/dev/vdz", "block_device", (Path("/"), Path("/dev")), "h")


def test_the_run_directory_is_made_fresh_private_and_pinned(tmp_path: Path) -> None:
    run_dir = RunDirectory(tmp_path, "storbench-run1-abc", create=True)
    try:
        assert (tmp_path / "storbench-run1-abc").stat().st_mode & 0o777 == 0o700
        assert run_dir.fio_prefix == f"/proc/self/fd/{run_dir.fd}/"
        # Renaming the directory and putting a link in its place does not move what fio sees.
        (tmp_path / "storbench-run1-abc").rename(tmp_path / "moved")
        (tmp_path / "storbench-run1-abc").symlink_to("/etc")
        assert Path(run_dir.fio_prefix).resolve() == tmp_path / "moved"
    finally:
        run_dir.close()
    with pytest.raises(CannotRun, match="already exists"):
        RunDirectory(tmp_path, "storbench-run1-abc", create=True)
    with pytest.raises(CannotRun, match="cannot open"):
        RunDirectory(tmp_path, "storbench-run1-abc", create=False)  # a symlink is never joined
    for bad in ("../etc", "storbench-../x", "x", "storbench-a/b", "storbench- a"):
        with pytest.raises(CannotRun, match="invalid run directory name"):
            RunDirectory(tmp_path, bad, create=True)


def test_a_planted_special_file_is_found(tmp_path: Path) -> None:
    run_dir = RunDirectory(tmp_path, "storbench-x", create=True)
    try:
        (tmp_path / "storbench-x" / "link").symlink_to("/etc/passwd")
        assert run_dir.unexpected_entries() == ["link"]
    finally:
        run_dir.close()


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


def _target(kind: TargetKind, path: str, destructive: bool = False) -> AssignmentTarget:
    return AssignmentTarget(kind=kind, path=path, destructive=destructive, confirmed_destructive=False)


def test_jobs_the_server_sent_are_validated_again() -> None:
    with pytest.raises(CannotRun, match="iodepth"):
        validated_jobs([{"name": "r", "rw": "randread", "iodepth": -3}])


def test_a_job_larger_than_the_free_space_is_refused(tmp_path: Path) -> None:
    jobs = validated_jobs([{"name": "w", "rw": "write", "size": "100t", "runtime": 10}])
    target = _target("directory", str(tmp_path))
    with pytest.raises(CannotRun, match="size"):
        check_safety(jobs, target, tmp_path, SafetyLimits(max_total_size_bytes=1 << 60))


def test_buffers_beyond_half_of_this_hosts_memory_are_refused(tmp_path: Path) -> None:
    jobs = validated_jobs(
        [{"name": "w", "rw": "read", "size": "1m", "bs": "64m", "iodepth": 1024, "numjobs": 64, "runtime": 1}]
    )
    target = _target("directory", str(tmp_path))
    with pytest.raises(CannotRun, match="buffers"):
        check_safety(jobs, target, tmp_path, SafetyLimits(max_io_memory_bytes=1 << 60))


def test_writing_a_device_is_refused_unless_destructive_and_confirmed(tmp_path: Path) -> None:
    jobs = validated_jobs([{"name": "w", "rw": "randwrite", "bs": "4k", "runtime": 10}])
    mounts = tmp_path / "mounts"
    mounts.write_text("")
    device = _target("block_device", "/dev/null-device-for-test", destructive=True)
    with pytest.raises(CannotRun, match="destructive"):
        check_safety(jobs, device, Path(device.path), SafetyLimits())


def test_a_mounted_or_swapped_device_is_in_use(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    swaps = tmp_path / "swaps"
    mounts.write_text("/dev/vdb /data ext4 rw 0 0\n/dev/nvme0n1p2 /x xfs rw 0 0\n")
    swaps.write_text("Filename Type Size Used Priority\n/dev/vdc partition 1 0 -2\n")
    assert "mounted" in (device_in_use(Path("/dev/vdb"), mounts, swaps, probe_signature=False) or "")
    assert "swap" in (device_in_use(Path("/dev/vdc"), mounts, swaps, probe_signature=False) or "")
    assert device_in_use(Path("/dev/vdd"), mounts, swaps, probe_signature=False) is None
    assert "cannot read" in (device_in_use(Path("/dev/vdd"), tmp_path / "none", swaps) or "")


def test_a_mounted_partition_makes_its_disk_in_use() -> None:
    """On this machine: every disk with a mounted partition is refused whole."""
    mounted = [line.split()[0] for line in Path("/proc/mounts").read_text().splitlines()]
    for disk in Path("/sys/block").iterdir():
        partitions = [p.name for p in disk.iterdir() if (p / "partition").exists()]
        if any(f"/dev/{p}" in mounted for p in partitions):
            assert device_in_use(Path(f"/dev/{disk.name}"), probe_signature=False) is not None
