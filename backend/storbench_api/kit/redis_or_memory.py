"""Counters kept in Redis when Redis is the broker, in this process's memory otherwise.

The attempt limiters (kit.rate_limit, kit.backoff) share one mechanism: with Redis as the broker
every API process counts in Redis, so several processes draw on one budget; the embedded mode is a
single process and counts in memory. When Redis fails, a process counts in its own memory for
OUTAGE_RETRY_S seconds and says so once in its log: an outage neither locks everybody out nor lets
sign-in fail.
"""

import logging
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

import redis

from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

# After Redis failed, how long to count in-process before trying Redis again.
OUTAGE_RETRY_S = 5.0

T = TypeVar("T")


def redis_broker_url() -> str | None:
    """The broker's URL when it is Redis, else None (the embedded mode)."""
    url = get_settings().effective_broker_url
    return url if url.startswith(("redis://", "rediss://")) else None


def limiter_client(url: str) -> redis.Redis:
    """A connection that gives up quickly: a limiter waits half a second for Redis, not longer."""
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)


def delete_prefix(client: redis.Redis, prefix: str) -> None:
    """Delete every key under a prefix (tests reset the limiters this way); logs a failure."""
    try:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        if keys:
            client.delete(*keys)
    except redis.RedisError as exc:
        log.warning("could not delete the keys under %s in Redis: %s", prefix, exc)


class Outage:
    """Whether Redis is to be asked now: not for OUTAGE_RETRY_S after it last failed."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._down_until = 0.0

    def up(self) -> bool:
        """Whether to ask Redis now."""
        return time.monotonic() >= self._down_until

    def down(self, exc: redis.RedisError) -> None:
        """Redis failed: count in this process for a while, and say so once."""
        retry_s = OUTAGE_RETRY_S
        self._down_until = time.monotonic() + retry_s
        log.warning(
            "%s cannot reach Redis (%s); counting in this process only for %.0f s", self.what, exc, retry_s
        )


class RedisOrMemory(Generic[T]):
    """A T kept in Redis when Redis is the broker, else one kept in memory; chosen at first use."""

    def __init__(self, in_redis: Callable[[str], T], in_memory: Callable[[], T]) -> None:
        self._in_redis = in_redis
        self._in_memory = in_memory
        self._chosen: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        """This process's instance."""
        with self._lock:
            if self._chosen is None:
                url = redis_broker_url()
                self._chosen = self._in_redis(url) if url else self._in_memory()
            return self._chosen
