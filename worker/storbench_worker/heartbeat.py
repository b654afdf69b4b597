"""A daemon thread that tells the server this host is alive."""

import logging
import os
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path

from storbench_worker.api_client import ApiClient
from storbench_worker.facts import collect_facts
from storbench_worker.fio_runner import fio_version

log = logging.getLogger(__name__)

# However short the period, a beat may wait this long for its answer (a loaded server is slow).
MIN_BEAT_TIMEOUT_S = 5.0


class Heartbeat(threading.Thread):
    """Sends a heartbeat with host facts every interval_s until stopped."""

    def __init__(
        self,
        api: ApiClient,
        interval_s: float,
        fio_binary: str,
        allowed_roots: Sequence[Path] = (),
    ) -> None:
        super().__init__(name="storbench-heartbeat", daemon=True)
        self._api = api
        self._interval_s = interval_s
        self._fio_binary = fio_binary
        self._allowed_roots = tuple(allowed_roots)
        self._stop_event = threading.Event()
        # The fio binary last asked for its version (path, inode, mtime), and its answer.
        self._fio_identity: tuple[str, int, int] | None = None
        self._fio_version_seen: str | None = None
        # The target directories the server last asked about (None: not asked yet).
        self._target_paths: tuple[str, ...] | None = None

    def _fio_version(self) -> str | None:
        """fio's version, asked again only when the binary changed: a beat must not fork fio mid-run."""
        path = shutil.which(self._fio_binary)
        try:
            stat = os.stat(path) if path else None
        except OSError:
            stat = None
        identity = (path, stat.st_ino, stat.st_mtime_ns) if path and stat else None
        if identity is None or identity != self._fio_identity:
            self._fio_identity = identity
            self._fio_version_seen = fio_version(self._fio_binary)
        return self._fio_version_seen

    def beat(self) -> None:
        """One heartbeat; failures are logged and retried at the next interval.

        When the answer asks about target directories this beat did not report, one more beat
        reports them at once: a target created a moment ago is checked within a period, not two.
        """
        reported = self._target_paths or ()
        if self._beat_once() and self._target_paths != reported:
            self._beat_once()

    def _beat_once(self) -> bool:
        try:
            facts = collect_facts(self._allowed_roots, self._target_paths)
            if self._api.clock.uncertainty_s is not None:
                facts.clock_offset_ms = round(self._api.clock.offset_s * 1000, 3)
                facts.clock_uncertainty_ms = round(self._api.clock.uncertainty_s * 1000, 3)
            # A beat stuck on a dead connection or a stalled server must not silence this host
            # beyond its next beat: it gives up after one period and the next beat tries afresh.
            answer = self._api.heartbeat(
                self._fio_version(), facts, timeout_s=max(MIN_BEAT_TIMEOUT_S, self._interval_s)
            )
            # The server may change the period (it judges liveness by it): follow it, within reason.
            if 1 <= answer.heartbeat_interval_s <= 300:
                self._interval_s = answer.heartbeat_interval_s
            self._target_paths = tuple(answer.target_paths)
        except Exception as exc:
            log.warning("heartbeat failed: %s", exc)
            return False
        return True

    def run(self) -> None:
        while not self._stop_event.wait(self._interval_s):
            self.beat()

    def stop(self) -> None:
        """End the loop."""
        self._stop_event.set()
