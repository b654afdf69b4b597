"""A sweep that stops itself: once a host's latency stays above the sweep's bound, the run ends.

Read on the per-second samples as they land, so a slow device is not driven through the rest of
the points for hours. The bound is on the mean latency of each second (`lat_mean_ns`), or on fio's
p99 completion latency of the running point since it started (`clat_p99_ns`, from fio's status
reports: the point's own p99 so far, not one second's). One slow second (a flush, a neighbour's
burst) is not the device's latency: the bound must be crossed for STOP_AFTER_SECONDS samples in a
row. The run is cancelled with the reason; the points measured before are whole results
(runs.repetitions.keep_whole_groups).
"""

from sqlalchemy.orm import Session

from storbench_api.models import Assignment
from storbench_api.runs import lifecycle, repository

STOP_AFTER_SECONDS = 3

_WORDS = {"lat_mean_ns": "mean", "clat_p99_ns": "p99 (of the point so far)"}


def check(db: Session, assignment: Assignment) -> None:
    """End the assignment's run when its sweep's bound has been crossed long enough."""
    run = assignment.run
    stop = (run.sweep or {}).get("stop")
    if not stop or run.status.is_terminal:
        return
    bound = float(stop["above_ns"])
    figure = str(stop.get("figure") or "lat_mean_ns")
    samples = repository.latest_samples(db, assignment.id, STOP_AFTER_SECONDS)
    if len(samples) < STOP_AFTER_SECONDS:
        return
    over: list[tuple[str, float]] = []
    for sample in samples:
        if sample.phase is not None:
            return  # a preconditioning fill is not a point
        known = [
            (name, float(value))
            for name, d in sample.directions.items()
            if (value := getattr(d, figure, None)) is not None
        ]
        worst = max(known, key=lambda item: item[1], default=("", 0.0))
        if worst[1] <= bound:
            return
        over.append(worst)
    direction, latency = over[0]
    lifecycle.stop_early(
        run,
        f"stopped early by the sweep's bound: {_WORDS.get(figure, figure)} {direction} latency on host "
        f"'{assignment.host.name}' was {latency / 1e6:.3g} ms, above {bound / 1e6:.3g} ms, for "
        f"{STOP_AFTER_SECONDS} s; the points measured before are kept",
    )
