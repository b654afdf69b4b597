"""At most so many attempts per key in a sliding window, shared by every API process.

In Redis the window is a sorted set updated atomically by a Lua script on the server's clock; see
kit.redis_or_memory for when Redis is used and what happens while it is away.
"""

import hashlib
import secrets
import threading
import time
from collections import deque
from typing import Protocol

import redis

from storbench_api.kit.redis_or_memory import Outage, delete_prefix, limiter_client


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
        self._client = limiter_client(redis_url)
        self._script = self._client.register_script(_HIT_SCRIPT)
        # Kept up to date too, so a fallback starts from this process's recent attempts.
        self._local = SlidingWindow(limit, window_s)
        self._outage = Outage("attempt limiter")

    def _key(self, key: str) -> str:
        # Hashed: no e-mail address or client address is written to Redis.
        return self.prefix + hashlib.sha256(key.encode()).hexdigest()[:32]

    def hit(self, key: str) -> float:
        """Record an attempt; returns 0, or the seconds to wait when over the limit."""
        local_wait = self._local.hit(key)
        if not self._outage.up():
            return local_wait
        try:
            wait_ms = self._script(
                keys=[self._key(key)], args=[self.limit, int(self.window_s * 1000), secrets.token_hex(8)]
            )
        except redis.RedisError as exc:
            self._outage.down(exc)
            return local_wait
        return int(wait_ms) / 1000

    def reset(self) -> None:
        """Forget every attempt (tests)."""
        self._local.reset()
        delete_prefix(self._client, self.prefix)
