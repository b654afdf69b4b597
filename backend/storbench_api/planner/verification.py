"""A candidate's verification plan: the published recipes for its class and the demanded shapes.

Each protocol has the guide written for it (METHODOLOGY.md §2): cloud disks the block-storage
guide, NFS and SMB the NAS guide, the cloud file system its own. A demand picks the recipe that
measures its figure for its direction; the demand's own shape (rw, block size) runs with that
recipe's options, so the plan confirms both the published figure and the workload's.
"""

from collections.abc import Sequence
from typing import Any

from storbench_api.models.storage_class import Protocol
from storbench_api.planner.solve import Demand
from storbench_api.storage_classes.schemas import Metric, Workload
from storbench_fio.presets import PRESETS, Preset
from storbench_fio.units import format_size

# The Linux recipes of the guide for each protocol (Windows variants need a Windows host).
_FAMILY: dict[Protocol, tuple[str, ...]] = {
    Protocol.block: ("clouddisk-",),
    Protocol.nfs: ("nas-linux-", "nfs-latency"),
    Protocol.smb: ("nas-linux-",),
    Protocol.cfs: ("cloudfs-",),
}
_READS = {Workload.random_read, Workload.sequential_read}
_RANDOM = {Workload.random_read, Workload.random_write}


def _family(protocol: Protocol) -> list[Preset]:
    prefixes = _FAMILY[protocol]
    return [p for p in PRESETS if p.platform == "linux" and p.id.startswith(prefixes)]


def _job_rw(preset: Preset) -> str:
    return str(preset.jobs[0].rw)


def _reads(rw: str) -> bool:
    return rw in ("read", "randread")


def _random(rw: str) -> bool:
    return rw.startswith("rand")


def _best_recipe(family: Sequence[Preset], measures: str, workload: Workload) -> Preset | None:
    """The family's recipe measuring this figure: same rw, else same direction."""
    matching = [p for p in family if p.measures == measures and len(p.jobs) == 1]
    reads = workload in _READS
    same_direction = [p for p in matching if _reads(_job_rw(p)) == reads]
    exact = [p for p in same_direction if _random(_job_rw(p)) == (workload in _RANDOM)]
    found = exact or same_direction
    return found[0] if found else None


def recipes_for(protocol: Protocol, demands: Sequence[Demand]) -> list[Preset]:
    """The published recipes that check these demands on a class of this protocol, in order."""
    family = _family(protocol)
    chosen: list[Preset] = []
    for demand in demands:
        measures = "iops" if demand.metric == Metric.iops else "throughput"
        wanted = [_best_recipe(family, measures, demand.workload)]
        if demand.latency_ms is not None:
            wanted.append(_best_recipe(family, "latency", demand.workload))
        chosen.extend(p for p in wanted if p is not None and p not in chosen)
    return chosen


def _rw_of(workload: Workload) -> str:
    return {
        Workload.random_read: "randread",
        Workload.random_write: "randwrite",
        Workload.sequential_read: "read",
        Workload.sequential_write: "write",
    }[workload]


def verification_jobs(recipes: Sequence[Preset], demands: Sequence[Demand]) -> list[dict[str, Any]]:
    """The recipes' jobs, then one job per demand in its own shape with its recipe's options."""
    jobs: list[dict[str, Any]] = []
    for preset in recipes:
        jobs.extend(job.model_dump(mode="json", exclude_none=True) for job in preset.jobs)
    for index, demand in enumerate(demands, start=1):
        measures = "iops" if demand.metric == Metric.iops else "throughput"
        base = next((p for p in recipes if p.measures == measures), recipes[0] if recipes else None)
        options = base.jobs[0].model_dump(mode="json", exclude_none=True) if base else {}
        rw = _rw_of(demand.workload)
        name = f"demand-{index}-{rw}-{format_size(demand.bs_bytes)}"
        options.update({"name": name, "rw": rw, "bs": demand.bs_bytes})
        options.setdefault("direct", True)
        options.setdefault("size", "1G")
        jobs.append(options)
    return jobs
