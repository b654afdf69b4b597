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
