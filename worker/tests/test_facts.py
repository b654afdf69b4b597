"""The facts a host reports are this host's."""

import os
from pathlib import Path

from storbench_worker.facts import collect_facts


def test_facts_describe_this_host() -> None:
    facts = collect_facts((Path("/mnt/nas"),))
    assert facts.allowed_roots == ["/mnt/nas"]
    assert facts.cpu_count == os.cpu_count()
    assert facts.memory_bytes is not None and facts.memory_bytes > 0
    assert facts.kernel == os.uname().release
    disks = {d.name for d in facts.block_devices if d.parent is None}
    assert disks <= set(os.listdir("/sys/block"))
    assert all(d.path == f"/dev/{d.name}" for d in facts.block_devices)
    assert all(d.size_bytes is None or d.size_bytes > 0 for d in facts.block_devices)
    assert {n.name for n in facts.nics} <= set(os.listdir("/sys/class/net")) - {"lo"}
    mounted = {m.mountpoint for m in facts.mounts}
    assert all(Path(m).is_absolute() for m in mounted)


def test_free_space_is_reported_for_each_allowed_directory(tmp_path: Path) -> None:
    roots = (tmp_path, Path("/dev/null-is-not-a-directory"))
    facts = collect_facts(roots)
    stat = os.statvfs(tmp_path)
    [space] = facts.path_space
    assert space.path == str(tmp_path)
    assert space.total_bytes == stat.f_blocks * stat.f_frsize
    # Others write meanwhile: the figure is this file system's, give or take what changed since.
    assert abs(space.free_bytes - stat.f_bavail * stat.f_frsize) < 1 << 30


def test_a_mount_inside_an_allowed_directory_gets_its_own_free_space() -> None:
    from storbench_protocol.facts import HostMount
    from storbench_worker.facts import path_space

    mounted = [m for m in collect_facts().mounts if m.mountpoint != "/"]
    if not mounted:
        mounted = [HostMount(source="proc", mountpoint="/proc", fstype="proc", options="rw")]
    inner = mounted[0].mountpoint
    spaces = {s.path: s for s in path_space((Path("/"),), mounted)}
    assert set(spaces) == {"/", inner}
    stat = os.statvfs(inner)
    assert spaces[inner].total_bytes == stat.f_blocks * stat.f_frsize
