"""A small in-process limiter for sign-in and enrollment attempts.

Per process: with several API processes an attacker gets that many times the budget, which still
turns password guessing from millions of tries a day into thousands.
"""

import threading
import time
from collections import deque

from fastapi import Request

from storbench_api.errors import DomainError

SIGN_IN_ATTEMPTS = 10
WINDOW_S = 60.0


class TooManyAttempts(DomainError):
    """Too many attempts from one client for one account in a short time."""

    status_code = 429
    code = "rate_limited"


class SlidingWindow:
    """At most `limit` events per key in any `window_s` seconds."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> float:
        """Record an attempt; returns 0, or the seconds to wait when over the limit."""
        now = time.monotonic()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and now - events[0] > self.window_s:
                events.popleft()
            if len(events) >= self.limit:
                return self.window_s - (now - events[0])
            events.append(now)
            if len(self._events) > 100_000:  # bound memory under a flood of distinct keys
                self._events = {k: v for k, v in self._events.items() if v and now - v[-1] <= self.window_s}
            return 0.0

    def reset(self) -> None:
        """Forget every attempt (tests)."""
        with self._lock:
            self._events.clear()


sign_in_window = SlidingWindow(SIGN_IN_ATTEMPTS, WINDOW_S)


def client_address(request: Request) -> str:
    """The peer address (a proxy in front should be trusted explicitly, not by header)."""
    return request.client.host if request.client else "unknown"


def limit_sign_in(request: Request, account: str) -> None:
    """Refuse with 429 after too many attempts for one account from one address."""
    wait = sign_in_window.hit(f"{client_address(request)}|{account.strip().lower()}")
    if wait > 0:
        seconds = int(wait) + 1
        raise TooManyAttempts(
            f"too many attempts; try again in {seconds} s", headers={"Retry-After": str(seconds)}
        )
