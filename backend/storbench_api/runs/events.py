"""Server-Sent Events: a run's status and per-second progress, pushed to the browser as they land."""

import asyncio
import json
from collections.abc import AsyncIterator

from storbench_api.db import get_sessionmaker
from storbench_api.runs import repository, service

POLL_S = 0.5
KEEPALIVE_S = 15.0
MAX_STREAM_S = 6 * 3600.0


def _snapshot(team_id: int, run_id: int, after_id: int) -> tuple[str, list[dict[str, object]], bool]:
    """Status, new samples (with host names) and whether the run has ended, from a short session."""
    with get_sessionmaker()() as db:
        run = repository.get_run(db, team_id, run_id)
        if run is None:
            return "gone", [], True
        progress = service.run_progress(db, run, after_id)
        samples = [
            {"host_name": host.host_name, **sample.model_dump(mode="json")}
            for host in progress.hosts
            for sample in host.samples
        ]
        samples.sort(key=lambda s: int(str(s["id"])))
        return run.status.value, samples, run.status.is_terminal


def _event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


async def run_events(team_id: int, run_id: int) -> AsyncIterator[str]:
    """status and progress events until the run ends (then one last status event)."""
    last_status, last_id = "", 0
    waited = idle = 0.0
    while waited < MAX_STREAM_S:
        status, samples, ended = await asyncio.to_thread(_snapshot, team_id, run_id, last_id)
        for sample in samples:
            last_id = int(str(sample["id"]))
            yield _event("progress", sample)
        if status != last_status:
            last_status = status
            yield _event("status", {"run_id": run_id, "status": status})
            idle = 0.0
        if ended:
            return
        if samples:
            idle = 0.0
        elif idle >= KEEPALIVE_S:
            yield ": keep-alive\n\n"
            idle = 0.0
        await asyncio.sleep(POLL_S)
        waited += POLL_S
        idle += POLL_S
