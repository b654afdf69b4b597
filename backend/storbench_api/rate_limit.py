"""A limiter for sign-in, invitation and enrollment attempts, shared by every API process.

With Redis as the broker the attempts are counted in Redis (a sliding window in a sorted set,
updated atomically by a Lua script on the server's clock), so several API processes draw on one
budget. The embedded mode is a single process and counts in memory. When Redis fails, each process
falls back to its own in-memory count for a few seconds and says so in its log: an outage neither
locks everybody out nor lets sign-in fail.
"""

import hashlib
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

import redis
from fastapi import Request

from storbench_api.backoff import account_backoff
from storbench_api.errors import DomainError
from storbench_api.ops.metrics import count_refusal
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

SIGN_IN_ATTEMPTS = 10
WINDOW_S = 60.0
# After Redis failed, how long to count in-process before trying Redis again.
OUTAGE_RETRY_S = 5.0


class TooManyAttempts(DomainError):
    """Too many attempts from one client for one account in a short time."""

    status_code = 429
    code = "rate_limited"


class Window(Protocol):
    """At most `limit` events per key in any `window_s` seconds."""

    def hit(self, key: str) -> float:
        """Record an attempt; returns 0, or the seconds to wait when over the limit."""
        ...

    def reset(self) -> None:
        """Forget every attempt (tests)."""
        ...


class SlidingWindow:
    """At most `limit` events per key in any `window_s` seconds, in this process's memory."""

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


# KEYS[1]: the key's sorted set of attempts (score: server time in ms).
# ARGV: limit, window in ms, a unique member for this attempt. Returns 0, or the ms to wait.
_HIT_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
  return math.max(1, oldest + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""


class RedisSlidingWindow:
    """The same window kept in Redis, shared by every process using that Redis database."""

    def __init__(self, limit: int, window_s: float, redis_url: str, name: str = "sign-in") -> None:
        self.limit = limit
        self.window_s = window_s
        self.prefix = f"storbench:rate:{name}:"
        self._client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self._script = self._client.register_script(_HIT_SCRIPT)
        # Kept up to date too, so a fallback starts from this process's recent attempts.
        self._local = SlidingWindow(limit, window_s)
        self._down_until = 0.0

    def _key(self, key: str) -> str:
        # Hashed: no e-mail address or client address is written to Redis.
        return self.prefix + hashlib.sha256(key.encode()).hexdigest()[:32]

    def hit(self, key: str) -> float:
        """Record an attempt; returns 0, or the seconds to wait when over the limit."""
        local_wait = self._local.hit(key)
        now = time.monotonic()
        if now < self._down_until:
            return local_wait
        try:
            wait_ms = self._script(
                keys=[self._key(key)], args=[self.limit, int(self.window_s * 1000), secrets.token_hex(8)]
            )
        except redis.RedisError as exc:
            self._down_until = now + OUTAGE_RETRY_S
            log.warning(
                "attempt limiter cannot reach Redis (%s); counting in this process only for %.0f s",
                exc,
                OUTAGE_RETRY_S,
            )
            return local_wait
        return int(wait_ms) / 1000

    def reset(self) -> None:
        """Forget every attempt (tests)."""
        self._local.reset()
        try:
            keys = list(self._client.scan_iter(match=self.prefix + "*", count=1000))
            if keys:
                self._client.delete(*keys)
        except redis.RedisError as exc:
            log.warning("could not reset the attempt limiter in Redis: %s", exc)


class SharedWhenRedis:
    """A RedisSlidingWindow when Redis is the broker, else a SlidingWindow; chosen at first use."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._window: Window | None = None
        self._lock = threading.Lock()

    def _get(self) -> Window:
        with self._lock:
            if self._window is None:
                url = get_settings().effective_broker_url
                self._window = (
                    RedisSlidingWindow(self.limit, self.window_s, url)
                    if url.startswith(("redis://", "rediss://"))
                    else SlidingWindow(self.limit, self.window_s)
                )
            return self._window

    def hit(self, key: str) -> float:
        """Record an attempt; returns 0, or the seconds to wait when over the limit."""
        return self._get().hit(key)

    def reset(self) -> None:
        """Forget every attempt (tests)."""
        self._get().reset()


sign_in_window = SharedWhenRedis(SIGN_IN_ATTEMPTS, WINDOW_S)


def client_address(request: Request) -> str:
    """The peer address (a proxy in front should be trusted explicitly, not by header)."""
    return request.client.host if request.client else "unknown"


def _refuse(wait: float, limiter: str) -> None:
    if wait > 0:
        count_refusal(limiter)
        seconds = int(wait) + 1
        raise TooManyAttempts(
            f"too many attempts; try again in {seconds} s", headers={"Retry-After": str(seconds)}
        )


def limit_sign_in(request: Request, account: str, purpose: str = "sign-in") -> None:
    """Refuse with 429 after too many attempts for one account from one address, for one purpose."""
    key = f"{client_address(request)}|{account.strip().lower()}"
    _refuse(sign_in_window.hit(key if purpose == "sign-in" else f"{purpose}|{key}"), purpose)


@contextmanager
def password_attempt(
    request: Request, account: str, wrong: tuple[type[Exception], ...], purpose: str = "sign-in"
) -> Iterator[None]:
    """Guard one password check on an account: per address and purpose, then per account with backoff.

    Refused attempts never reach the password hash. An exception of a `wrong` type leaving the block
    counts as a failed guess; leaving it normally is a success that clears the account's failures
    and lets this address past the account's backoff from now on (see storbench_api.backoff).
    The per-address window is kept per purpose, so a signed-in session mistyping its current password
    does not use up the sign-ins of its address; the account's backoff counts every failure.
    """
    limit_sign_in(request, account, purpose)
    key = account.strip().lower()
    address = client_address(request)
    backoff = account_backoff.get()
    if not backoff.known(key, address):
        _refuse(backoff.attempt(key), "account-backoff")
    try:
        yield
    except wrong:
        backoff.failed(key)
        raise
    backoff.succeeded(key, address)
