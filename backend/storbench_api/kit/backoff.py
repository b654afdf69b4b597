"""Exponential backoff per key (an account) across every client address, shared through Redis.

The per-(address, account) window in kit.rate_limit lets each new address guess afresh: 99 guesses on one
account from 10 addresses took 11 s. Here failures are counted per account wherever they come from:
after FREE_FAILURES, each attempt must wait 2^(n - FREE_FAILURES) s after the previous one (n the
failures so far), bounded by MAX_DELAY_S, and the count is forgotten FORGET_AFTER_S after the last
failure or at a success. An attacker cannot turn this into a lockout of the real user: the delay is
bounded, and an address that has signed in to the account before is not delayed at all (it stays
under the per-address window), so the user's usual machine gets in while strangers are slowed.
"""

import hashlib
import threading
import time
from typing import Protocol

import redis

from storbench_api.kit.redis_or_memory import Outage, delete_prefix, limiter_client

FREE_FAILURES = 5
FIRST_DELAY_S = 1.0
MAX_DELAY_S = 900.0  # one guess per 15 minutes at worst: about 100 a day per account
FORGET_AFTER_S = 24 * 3600.0
KNOWN_FOR_S = 30 * 24 * 3600.0
KNOWN_PER_KEY = 32  # addresses remembered per account (the newest ones)


def delay_after(failures: int) -> float:
    """Seconds between attempts once `failures` attempts have failed."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY_S, FIRST_DELAY_S * 2.0 ** (failures - FREE_FAILURES))


class Backoff(Protocol):
    """Failures per key with a growing delay, and the addresses a key has succeeded from."""

    def attempt(self, key: str) -> float:
        """Reserve an attempt now: 0, or the seconds to wait first."""
        ...

    def failed(self, key: str) -> None:
        """Count a failed attempt."""
        ...

    def succeeded(self, key: str, address: str) -> None:
        """Forget the failures and remember the address."""
        ...

    def known(self, key: str, address: str) -> bool:
        """Whether the key has succeeded from this address lately."""
        ...

    def reset(self) -> None:
        """Forget everything (tests)."""
        ...


class MemoryBackoff:
    """The backoff in this process's memory (the embedded mode, and a Redis outage)."""

    def __init__(self) -> None:
        self._state: dict[str, tuple[int, float]] = {}  # key: failures, last attempt (monotonic)
        self._known: dict[str, dict[str, float]] = {}
        self._lock = threading.Lock()

    def attempt(self, key: str) -> float:
        """Reserve an attempt now: 0, or the seconds to wait first."""
        now = time.monotonic()
        with self._lock:
            failures, last = self._state.get(key, (0, now - FORGET_AFTER_S))
            if now - last >= FORGET_AFTER_S:
                failures = 0
            wait = last + delay_after(failures) - now
            if failures >= FREE_FAILURES and wait > 0:
                return wait
            self._state[key] = (failures, now)
            if len(self._state) > 100_000:  # bound memory under a flood of distinct keys
                self._state = {k: v for k, v in self._state.items() if now - v[1] < FORGET_AFTER_S}
            return 0.0

    def failed(self, key: str) -> None:
        """Count a failed attempt."""
        now = time.monotonic()
        with self._lock:
            failures, _ = self._state.get(key, (0, now))
            self._state[key] = (failures + 1, now)

    def succeeded(self, key: str, address: str) -> None:
        """Forget the failures and remember the address."""
        with self._lock:
            self._state.pop(key, None)
            known = self._known.setdefault(key, {})
            known[address] = time.monotonic()
            if len(known) > KNOWN_PER_KEY:
                del known[min(known, key=known.__getitem__)]

    def known(self, key: str, address: str) -> bool:
        """Whether the key has succeeded from this address lately."""
        with self._lock:
            since = self._known.get(key, {}).get(address)
        return since is not None and time.monotonic() - since < KNOWN_FOR_S

    def reset(self) -> None:
        """Forget everything (tests)."""
        with self._lock:
            self._state.clear()
            self._known.clear()


# KEYS[1]: the key's hash {failures, last (ms)}. ARGV: free failures, max delay ms, forget ms,
# first delay ms.
# Atomic, so a burst from many addresses cannot all pass one free slot. Returns 0, or ms to wait.
_ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
if failures >= tonumber(ARGV[1]) then
  local delay = math.min(tonumber(ARGV[2]), tonumber(ARGV[4]) * 2 ^ (failures - tonumber(ARGV[1])))
  if now < last + delay then return math.max(1, last + delay - now) end
end
redis.call('HSET', KEYS[1], 'last', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
"""
_FAILED = """
local t = redis.call('TIME')
redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0
"""


class RedisBackoff:
    """The backoff kept in Redis, shared by every API process; in memory while Redis is away."""

    def __init__(self, redis_url: str, name: str = "sign-in") -> None:
        self.prefix = f"storbench:backoff:{name}:"
        self._client = limiter_client(redis_url)
        self._attempt = self._client.register_script(_ATTEMPT)
        self._failed = self._client.register_script(_FAILED)
        self._local = MemoryBackoff()
        self._outage = Outage("backoff")

    def _key(self, kind: str, text: str) -> str:
        # Hashed: no e-mail address or client address is written to Redis.
        return self.prefix + kind + ":" + hashlib.sha256(text.encode()).hexdigest()[:32]

    def attempt(self, key: str) -> float:
        """Reserve an attempt now: 0, or the seconds to wait first."""
        if self._outage.up():
            try:
                args = [FREE_FAILURES, int(MAX_DELAY_S * 1000), int(FORGET_AFTER_S * 1000)]
                args.append(int(FIRST_DELAY_S * 1000))
                return int(self._attempt(keys=[self._key("f", key)], args=args)) / 1000
            except redis.RedisError as exc:
                self._outage.down(exc)
        return self._local.attempt(key)

    def failed(self, key: str) -> None:
        """Count a failed attempt."""
        self._local.failed(key)
        if self._outage.up():
            try:
                self._failed(keys=[self._key("f", key)], args=[int(FORGET_AFTER_S * 1000)])
            except redis.RedisError as exc:
                self._outage.down(exc)

    def succeeded(self, key: str, address: str) -> None:
        """Forget the failures and remember the address."""
        self._local.succeeded(key, address)
        if self._outage.up():
            known = self._key("k", key)
            try:
                with self._client.pipeline() as pipe:
                    pipe.delete(self._key("f", key))
                    pipe.zadd(known, {self._key("a", address): time.time()})
                    pipe.zremrangebyrank(known, 0, -KNOWN_PER_KEY - 1)
                    pipe.expire(known, int(KNOWN_FOR_S))
                    pipe.execute()
            except redis.RedisError as exc:
                self._outage.down(exc)

    def known(self, key: str, address: str) -> bool:
        """Whether the key has succeeded from this address lately."""
        if self._outage.up():
            try:
                since = self._client.zscore(self._key("k", key), self._key("a", address))
                return since is not None and time.time() - float(since) < KNOWN_FOR_S
            except redis.RedisError as exc:
                self._outage.down(exc)
        return self._local.known(key, address)

    def reset(self) -> None:
        """Forget everything (tests)."""
        self._local.reset()
        delete_prefix(self._client, self.prefix)
