"""Outputs kept on local disk until the server acknowledges them, across restarts."""

import logging
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import tenacity
from pydantic import ValidationError

from storbench_protocol.results import ResultUpload
from storbench_worker.api_client import ApiClient, ServerRefused

log = logging.getLogger(__name__)

# Retries of a refused or failed upload: exponential backoff with jitter, 15-30 s after the first
# failure, doubling, at most 30 min between tries.
RETRY_FIRST_S = 15.0
RETRY_LONGEST_S = 1800.0


class UploadSchedule:
    """When each assignment's refused or failed upload is tried again (tenacity's backoff, per assignment)."""

    def __init__(self) -> None:
        self._retrying = tenacity.Retrying(
            wait=tenacity.wait_exponential_jitter(
                multiplier=RETRY_FIRST_S, max=RETRY_LONGEST_S, jitter=RETRY_FIRST_S
            )
        )
        self._tries: dict[int, tenacity.RetryCallState] = {}
        self._next_try: dict[int, float] = {}

    def failed(self, assignment_id: int) -> None:
        """One more failure: the next try waits longer."""
        tries = self._tries.get(assignment_id)
        if tries is None:
            tries = self._tries[assignment_id] = tenacity.RetryCallState(self._retrying, None, (), {})
        else:
            tries.attempt_number += 1
        self._next_try[assignment_id] = time.monotonic() + self._retrying.wait(tries)

    def succeeded(self, assignment_id: int) -> None:
        """Delivered: forget its failures."""
        self._tries.pop(assignment_id, None)
        self._next_try.pop(assignment_id, None)

    def is_due(self, assignment_id: int, now: float) -> bool:
        """Whether its backoff has passed (an upload that never failed always is)."""
        return self._next_try.get(assignment_id, 0.0) <= now


class Spool:
    """One file per assignment's fio output, removed once the server has stored it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.schedule = UploadSchedule()

    def _path(self, assignment_id: int) -> Path:
        return self.folder / f"{assignment_id}.json"

    def put(
        self,
        assignment_id: int,
        output: str,
        stopped_early: str | None = None,
        worker_cpu_percent: float | None = None,
    ) -> None:
        """Write atomically, so a crash leaves either the whole output or none."""
        upload = ResultUpload(
            fio_output=output, stopped_early=stopped_early, worker_cpu_percent=worker_cpu_percent
        )
        final = self._path(assignment_id)
        partial = final.with_suffix(".tmp")
        with partial.open("w") as handle:
            handle.write(upload.model_dump_json())
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(final)

    def pending(self) -> list[int]:
        """Assignments whose output has not been acknowledged yet."""
        return sorted(int(p.stem) for p in self.folder.glob("*.json") if p.stem.isdigit())

    def upload(self, api: ApiClient, assignment_id: int, retry_for_s: float) -> bool:
        """Upload one spooled output; True once the server has stored it (then the file goes).

        A refusal keeps the file: 401/403 (a rotated or revoked credential), 413, 429 and the like
        are fixed by someone and retried later with backoff. Only an output the server cannot read
        (422) or an assignment it no longer has (404) is set aside in rejected/, never deleted.
        """
        path = self._path(assignment_id)
        try:
            spooled = ResultUpload.model_validate_json(path.read_text())
        except FileNotFoundError:
            return True  # another thread delivered it
        except (OSError, ValidationError) as exc:
            log.warning("assignment %s: spooled output unreadable (%s); set aside", assignment_id, exc)
            self._set_aside(path)
            return False
        try:
            stored = api.upload(assignment_id, spooled, retry_for_s)
        except ServerRefused as exc:
            if exc.status_code in (404, 422):
                log.warning(
                    "assignment %s: server cannot take the output (%s); set aside", assignment_id, exc
                )
                self._set_aside(path)
                if exc.status_code == 422:
                    api.fail(assignment_id, f"the server could not read fio's output: {exc.message}")
                return False
            self.schedule.failed(assignment_id)
            log.warning("assignment %s: upload refused (%s); kept, retried later", assignment_id, exc)
            return False
        log.info("assignment %s: server stored %d result(s)", assignment_id, stored)
        path.unlink(missing_ok=True)
        self.schedule.succeeded(assignment_id)
        return True

    def _set_aside(self, path: Path) -> None:
        rejected = self.folder / "rejected"
        rejected.mkdir(exist_ok=True)
        path.replace(rejected / path.name)

    def upload_due(self, api: ApiClient, retry_for_s: float = 10.0) -> None:
        """Upload what is waiting and due (backoff passed): the spool sender calls this every beat."""
        now = time.monotonic()
        self._upload_each([a for a in self.pending() if self.schedule.is_due(a, now)], api, retry_for_s)

    def upload_pending(self, api: ApiClient, retry_for_s: float) -> None:
        """Upload whatever a previous run of the worker left behind."""
        self._upload_each(self.pending(), api, retry_for_s)

    def _upload_each(self, assignment_ids: list[int], api: ApiClient, retry_for_s: float) -> None:
        for assignment_id in assignment_ids:
            try:
                self.upload(api, assignment_id, retry_for_s)
            except Exception as exc:
                self.schedule.failed(assignment_id)
                log.warning("assignment %s: upload still failing (%s); kept for later", assignment_id, exc)


class SpoolSender(threading.Thread):
    """Sends what waits in the spool whenever its backoff has passed, until the process ends."""

    def __init__(self, spool: Spool, api: ApiClient, interval_s: float) -> None:
        super().__init__(name="storbench-spool", daemon=True)
        self._spool = spool
        self._api = api
        self._interval_s = interval_s

    def run(self) -> None:
        while True:
            time.sleep(self._interval_s)
            try:
                self._spool.upload_due(self._api)
            except Exception:
                log.exception("sending spooled outputs failed; trying again later")


_SHARED_MARK = "shared"


class ScratchRecord:
    """Scratch directories this host created or shares, remembered on disk until let go of.

    A worker killed mid-run cannot clean up; on the next start it removes what it recorded, and
    only that: on a shared mount, other hosts' directories look alike but are theirs. A directory
    shared by all hosts of a run is removed only when the server says no other host still uses it.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def claim(self, assignment_id: int, workdir: Path, shared: bool = False) -> None:
        """Record a directory before creating it (or joining it, when the run's hosts share it)."""
        lines = [str(workdir)] + ([_SHARED_MARK] if shared else [])
        (self.folder / str(assignment_id)).write_text("\n".join(lines) + "\n")

    def release(self, assignment_id: int, workdir: Path, remove: bool = True) -> None:
        """Remove the directory (unless other hosts still use it), then forget it."""
        if remove:
            shutil.rmtree(workdir, ignore_errors=True)
        (self.folder / str(assignment_id)).unlink(missing_ok=True)

    def remove_leftovers(self, may_remove_shared: Callable[[int], bool]) -> list[Path]:
        """Stop fio processes a killed worker left running, then let go of their directories.

        may_remove_shared(assignment_id) asks the server about a shared directory; while it cannot
        be asked, the record is kept for the next start.
        """
        removed = []
        for record in self.folder.iterdir():
            lines = record.read_text().split()
            if not lines or not record.name.isdigit():
                record.unlink(missing_ok=True)
                continue
            workdir = Path(lines[0])
            if not workdir.name.startswith("storbench-run"):
                record.unlink(missing_ok=True)
                continue
            kill_fio_using(workdir)
            remove = True
            if _SHARED_MARK in lines[1:]:
                try:
                    remove = may_remove_shared(int(record.name))
                except Exception as exc:
                    log.warning("kept shared scratch %s: cannot ask the server yet (%s)", workdir, exc)
                    continue
            if remove:
                shutil.rmtree(workdir, ignore_errors=True)
                removed.append(workdir)
            record.unlink(missing_ok=True)
        return removed


def kill_fio_using(workdir: Path) -> int:
    """SIGKILL every fio process working in this directory (its current directory); returns how many.

    Normally the fio guard already stopped them when the worker died; this catches what it could
    not (the worker killed in the instant between starting fio and starting its guard).
    """
    killed = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if name == "fio" and (cwd == str(workdir) or cwd.startswith(f"{workdir}/")):
            try:
                os.kill(int(entry.name), signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed
