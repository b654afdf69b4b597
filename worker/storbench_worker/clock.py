"""How far this host's clock is from the server's, measured NTP-style on ordinary API calls."""

import threading
import time
from datetime import datetime


class ClockOffset:
    """Keeps the estimate from the exchange with the shortest round trip (the least uncertain)."""

    def __init__(self, max_age_s: float = 300.0) -> None:
        self._lock = threading.Lock()
        self._best: tuple[float, float, float] | None = None  # (rtt_s, offset_s, measured_monotonic)
        self._max_age_s = max_age_s

    def observe(self, sent: float, received: float, server_time: str | datetime) -> None:
        """One exchange: local wall times around the request and the server's time in the answer."""
        server = datetime.fromisoformat(server_time) if isinstance(server_time, str) else server_time
        rtt = max(received - sent, 0.0)
        offset = server.timestamp() - (sent + received) / 2
        now = time.monotonic()
        with self._lock:
            stale = self._best is None or now - self._best[2] > self._max_age_s
            if stale or rtt <= self._best[0]:  # type: ignore[index]
                self._best = (rtt, offset, now)

    @property
    def offset_s(self) -> float:
        """Server clock minus this host's clock, in seconds (0 until measured)."""
        with self._lock:
            return self._best[1] if self._best else 0.0

    @property
    def uncertainty_s(self) -> float | None:
        """Half the round trip of the exchange behind the estimate."""
        with self._lock:
            return self._best[0] / 2 if self._best else None

    def server_now(self) -> float:
        """The server's clock now, as epoch seconds."""
        return time.time() + self.offset_s
