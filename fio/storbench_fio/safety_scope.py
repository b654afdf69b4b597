"""What the safety rules check jobs against: the target, and the deployment's ceilings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["SafetyLimits", "SafetyTarget", "memory_budget_bytes"]


class SafetyTarget(BaseModel):
    """Where the jobs will run and what the owner allowed there."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["directory", "block_device"]
    path: str = Field(min_length=1)
    destructive: bool = False
    confirmed_destructive: bool = False
    free_bytes: int | None = Field(default=None, ge=0)
    # A block device's size (None: not known yet, checked on the host).
    device_bytes: int | None = Field(default=None, ge=0)
    mounted: bool = False
    # The memory of the run's smallest host (None: not known yet; only the service cap applies).
    host_memory_bytes: int | None = Field(default=None, ge=0)
    # How many hosts run the jobs at once.
    host_count: int = Field(default=1, ge=1)


class SafetyLimits(BaseModel):
    """Per-deployment ceilings on what one run may ask for.

    The defaults allow every recipe vendors publish (128 jobs, iodepth 128, the block-storage
    guide's 1000 s): what a run may write is bounded by the target's free space, and what fio may
    hold in memory by the host's.
    """

    model_config = ConfigDict(frozen=True)

    max_numjobs: int = Field(default=128, ge=1)
    max_iodepth: int = Field(default=1024, ge=1)
    max_runtime_s: int = Field(default=3600, ge=1)
    max_nrfiles: int = Field(default=10000, ge=1)
    # A deployment's own ceiling on the files one run lays out (None: the target's free space).
    max_total_size_bytes: int | None = Field(default=None, ge=1)
    free_space_margin: float = Field(default=0.1, ge=0, lt=1)
    min_log_avg_msec: int = Field(default=100, ge=0)
    # fio's buffers (block size x iodepth x numjobs) may take at most this, and at most this share
    # of the host's memory: the rest is the host's, and its page cache's.
    max_io_memory_bytes: int = Field(default=8 << 30, ge=1)
    host_memory_share: float = Field(default=0.5, gt=0, le=1)


def memory_budget_bytes(target: SafetyTarget, limits: SafetyLimits) -> int:
    """The most memory fio's buffers may take on the target's host."""
    budget = limits.max_io_memory_bytes
    if target.host_memory_bytes:
        budget = min(budget, int(target.host_memory_bytes * limits.host_memory_share))
    return budget
