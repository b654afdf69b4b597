"""The heartbeat, and the facts about its host that make results comparable.

Every fact is optional: a worker reports what it could read, and older workers fewer of them.
"""

from pydantic import Field

from storbench_protocol.common import Int, NonNegativeInt, WireModel, WireRequest


class HostMount(WireModel):
    """A real file system (a device or a network share) and its mount options."""

    source: str
    mountpoint: str
    fstype: str
    options: str


class PathSpace(WireModel):
    """The free and total bytes of the file system holding a path (an allowed root or a mount under one)."""

    path: str
    free_bytes: NonNegativeInt
    total_bytes: NonNegativeInt


class HostNic(WireModel):
    """A network interface; speed in Mb/s when the driver says."""

    name: str
    speed_mbps: Int | None = None
    mtu: Int | None = None
    state: str | None = None


class HostBlockDevice(WireModel):
    """A whole block device or a partition, and what uses it (never a target if anything does)."""

    name: str
    path: str
    parent: str | None = None
    size_bytes: NonNegativeInt | None = None
    rotational: bool | None = None
    model: str | None = None
    scheduler: str | None = None
    in_use: str | None = None


class TargetPathState(WireModel):
    """What the worker found at one target directory the server asked about (see WorkerIdentity).

    Reported only for a path inside an allowed root, as given and once symlinks are resolved:
    nothing is ever said of a path outside them, so a target cannot probe the host's file system.
    """

    path: str
    exists: bool
    is_directory: bool = Field(description="a directory (once symlinks are resolved)")
    writable: bool = Field(description="the worker's user can create files in it")


class HostFacts(WireModel):
    """What a worker tells about its host at every heartbeat."""

    hostname: str | None = None
    os: str | None = None
    kernel: str | None = None
    arch: str | None = None
    cpu_model: str | None = None
    cpu_count: NonNegativeInt | None = None
    memory_bytes: NonNegativeInt | None = None
    mounts: list[HostMount] = Field(default_factory=list)
    nics: list[HostNic] = Field(default_factory=list)
    block_devices: list[HostBlockDevice] = Field(default_factory=list)
    # The directories and block devices the worker was started with (--allow): nothing else is touched.
    allowed_roots: list[str] = Field(default_factory=list)
    # Free space of each allowed directory and of each mount point inside one: a target's free
    # space is that of the longest of these paths containing it.
    path_space: list[PathSpace] = Field(default_factory=list)
    # The state of each target directory the server last asked about that lies inside an allowed
    # root (absent: this worker does not check them, or has not been asked yet).
    target_paths: list[TargetPathState] | None = None
    # The NFS client's RPC slot table: its starting size, and the most it grows to (newer kernels).
    sunrpc_tcp_slot_table_entries: Int | None = None
    sunrpc_tcp_max_slot_table_entries: Int | None = None
    # Server clock minus host clock, and half the round trip it was measured with (once measured).
    clock_offset_ms: float | None = None
    clock_uncertainty_ms: float | None = None


class Heartbeat(WireRequest):
    """A worker's periodic sign of life with the facts of its host (POST /worker/heartbeat)."""

    fio_version: str | None = Field(default=None, max_length=64)
    facts: HostFacts | None = None
