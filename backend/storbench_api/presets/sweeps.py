"""Sweeps storage engineers run to see a storage system's shape: queue depth, jobs and block size.

Each is a job as the published recipes write it (libaio, direct=1, time_based) with a sweep over one
option, and a per-point runtime long enough for a stable figure yet short enough that the sweep
fits in minutes: 30 s measured after a 5 s ramp (the managed NFS guide's ramp_time). The QD sweep is
the practitioner's 1, 2, 4 … 256 at 4 KiB (a derived recipe: they measured it with another tool).
"""

from typing import Any

from pydantic import BaseModel, Field

from storbench_api.runs.schemas import SweepAxis
from storbench_api.runs.sweep import axis_values

_RUNTIME_S, _RAMP_S = 30, 5
_PER_POINT = {
    "ioengine": "libaio",
    "direct": True,
    "time_based": True,
    "runtime": _RUNTIME_S,
    "ramp_time": _RAMP_S,
}


class SweepPresetOut(BaseModel):
    """A common sweep: its job, the option it sweeps, and how long each point runs."""

    id: str
    name: str
    description: str
    jobs: list[dict[str, Any]]
    sweep: list[SweepAxis]
    repetitions: int
    point_seconds: int = Field(description="ramp and runtime of one point")
    points: int
    precondition: bool = Field(
        default=False,
        description="fill the working set first (sequential, twice its size): writes on flash "
        "measure the device's transient until every block has been written",
    )


class SweepPresetList(BaseModel):
    """Every sweep preset."""

    items: list[SweepPresetOut]
    total: int


def _preset(
    id_: str,
    name: str,
    description: str,
    job: dict[str, Any],
    axis: dict[str, Any],
    *,
    precondition: bool = False,
) -> SweepPresetOut:
    swept = SweepAxis.model_validate(axis)
    return SweepPresetOut(
        id=id_,
        name=name,
        description=description,
        jobs=[{**_PER_POINT, **job}],
        sweep=[swept],
        repetitions=1,
        point_seconds=_RUNTIME_S + _RAMP_S,
        points=len(axis_values(swept)),
        precondition=precondition,
    )


def _queue_depth(direction: str, description: str) -> SweepPresetOut:
    """4 KiB random I/O in one direction at QD 1, 2, 4 … 256."""
    rw = f"rand{direction}"
    return _preset(
        f"qd-{rw}-4k",
        f"Queue depth 1→256, 4 KiB random {direction}",
        description,
        {"name": f"{rw}-4k", "rw": rw, "bs": "4k", "size": "1G"},
        {"option": "iodepth", "from": 1, "to": 256, "factor": 2},
        precondition=direction == "write",
    )


def _block_size(direction: str) -> SweepPresetOut:
    """Sequential I/O in one direction at QD 32, blocks from 4 KiB to 1 MiB."""
    return _preset(
        f"bs-{direction}-4k-1m",
        f"Block size 4 KiB→1 MiB, sequential {direction} at QD 32",
        f"Where bandwidth saturates as blocks grow: 4 KiB to 1 MiB sequential {direction}s.",
        {"name": f"{direction}-bs", "rw": direction, "size": "1G", "iodepth": 32},
        {"option": "bs", "from": 4096, "to": 1048576, "factor": 2},
        precondition=direction == "write",
    )


SWEEP_PRESETS = [
    _queue_depth(
        "read",
        "Where random reads saturate: IOPS and latency at QD 1, 2, 4 … 256; the knee is the last QD "
        "before the extra queue only waits.",
    ),
    _queue_depth(
        "write",
        "The practitioner's sweep: a SATA disk stays flat from QD 1 while latency doubles; a RAID0 "
        "climbs to a plateau at QD 4.",
    ),
    _preset(
        "numjobs-randread-4k",
        "Jobs 1→64, 4 KiB random read at QD 1",
        "Concurrency by processes, as file services are measured (many jobs, QD 1): where more "
        "clients stop adding IOPS.",
        {
            "name": "randread-jobs",
            "rw": "randread",
            "bs": "4k",
            "size": "100M",
            "iodepth": 1,
            "group_reporting": True,
        },
        {"option": "numjobs", "from": 1, "to": 64, "factor": 2},
    ),
    _block_size("read"),
    _block_size("write"),
]
