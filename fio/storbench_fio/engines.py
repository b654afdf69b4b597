"""fio's I/O engines: which storbench runs, which keep I/Os in flight, which leave the host."""

from __future__ import annotations

from typing import Literal, get_args

# The engines storbench runs (the job model's type and the safety rules' allow-list).
IoEngine = Literal[
    "libaio",
    "io_uring",
    "psync",
    "sync",
    "pvsync",
    "pvsync2",
    "vsync",
    "posixaio",
    "mmap",
    "windowsaio",
    "null",
]
SUPPORTED_ENGINES: frozenset[str] = frozenset(get_args(IoEngine))

# fio's default engine on Linux when a job names none.
DEFAULT_ENGINE: IoEngine = "psync"

# Engines that keep iodepth I/Os in flight per job (libaio only with direct=1: buffered
# libaio submits synchronously). Imported results may name engines storbench does not run.
ASYNC_ENGINES = frozenset(
    {"libaio", "io_uring", "windowsaio", "posixaio", "solarisaio", "rdma", "spdk", "nvme"}
)

# Engines that send I/O to other hosts: refused with that reason.
NETWORK_ENGINES = frozenset(
    {
        "net",
        "netsplice",
        "rdma",
        "http",
        "nbd",
        "libiscsi",
        "rbd",
        "rados",
        "gfapi",
        "gfapi_async",
        "libhdfs",
        "nfs",
        "dfs",
        "librpma_apm_client",
        "librpma_apm_server",
        "librpma_gpspm_client",
        "librpma_gpspm_server",
        "ime_aio",
        "ime_psync",
        "ime_psyncv",
    }
)

# Engines that drive a device node themselves (SCSI generic, NVMe passthrough, MTD, DAX, zoned
# block devices): the device rule applies. xnvme is a local NVMe engine, not a network one.
DEVICE_ENGINES = frozenset(
    {"sg", "mtd", "io_uring_cmd", "xnvme", "libzbc", "dev-dax", "pmemblk", "spdk"}
)


def keeps_queue(engine: str, *, direct: bool) -> bool:
    """Whether iodepth counts on this engine: asynchronous, and libaio only with direct=1."""
    return engine in ASYNC_ENGINES and (direct or engine != "libaio")
