"""What a scrape reads as it happens: runs by state, hosts' queues and heartbeats, deliveries, Redis.

Read from the database and Redis at each scrape, never counted in a process: every API process
answers the same, and one that restarts loses nothing (Redis's memory alone is read at most every
few seconds: redis_memory). Redis's figures are left out (and storbench_broker_up says 0) when the
broker is not Redis or does not answer within a second.
"""

import logging
import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import redis
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.orm import Session

from storbench_api.broker import host_queue
from storbench_api.db import utcnow
from storbench_api.ops import repository
from storbench_api.ops.repository import LiveHost

log = logging.getLogger(__name__)

_REDIS_TIMEOUT_S = 1.0
_HOST_LABELS = ["host_id", "host", "team"]

# INFO memory is read at most this often by one API process: Prometheus scrapes every 15 s or so,
# but a scrape loop (or several Prometheus servers) must not turn into a loop on Redis.
REDIS_MEMORY_MAX_AGE_S = 5.0
_clock = time.monotonic


class RedisMemory(NamedTuple):
    """What Redis uses and may use (maxmemory; 0: no limit), in bytes."""

    used: int
    limit: int


_memory_readings: dict[str, tuple[float, RedisMemory]] = {}


def redis_memory(client: redis.Redis, broker_url: str) -> RedisMemory:
    """Redis's used memory and maxmemory (INFO memory), read afresh at most every few seconds."""
    now = _clock()
    last = _memory_readings.get(broker_url)
    if last is not None and now - last[0] < REDIS_MEMORY_MAX_AGE_S:
        return last[1]
    info = client.info("memory")
    reading = RedisMemory(used=int(info["used_memory"]), limit=int(info.get("maxmemory", 0)))
    _memory_readings[broker_url] = (now, reading)
    return reading


def _host_labels(host: LiveHost) -> list[str]:
    return [str(host.id), host.name, host.team]


class StateGauges(Collector):
    """Gauges computed from the database (db) and the broker (broker_url) when collected."""

    def __init__(self, db: Session, broker_url: str) -> None:
        self.db = db
        self.broker_url = broker_url

    def collect(self) -> Iterator[Metric]:
        """Every gauge, read now."""
        runs = GaugeMetricFamily("storbench_runs", "Runs in each state", labels=["state"])
        for status, count in repository.runs_by_status(self.db).items():
            runs.add_metric([status.value], count)
        yield runs
        hosts = repository.live_hosts(self.db)
        yield self._heartbeat_ages(hosts)
        yield GaugeMetricFamily(
            "storbench_webhook_deliveries_pending",
            "Webhook deliveries waiting to go out (first attempts and retries)",
            value=repository.pending_deliveries(self.db),
        )
        yield from self._broker(hosts)

    def _heartbeat_ages(self, hosts: Sequence[LiveHost]) -> GaugeMetricFamily:
        ages = GaugeMetricFamily(
            "storbench_host_heartbeat_age_seconds",
            "Seconds since each host's worker was last heard from (hosts never heard from: absent)",
            labels=_HOST_LABELS,
        )
        now = utcnow()
        for host in hosts:
            if host.last_seen_at is not None:
                ages.add_metric(_host_labels(host), max(0.0, (now - host.last_seen_at).total_seconds()))
        return ages

    def _broker(self, hosts: Sequence[LiveHost]) -> Iterator[Metric]:
        up = GaugeMetricFamily("storbench_broker_up", "1 when the Redis broker answered this scrape")
        if not self.broker_url.startswith(("redis://", "rediss://")):
            up.add_metric([], 0)
            yield up
            return
        client = redis.Redis.from_url(
            self.broker_url, socket_connect_timeout=_REDIS_TIMEOUT_S, socket_timeout=_REDIS_TIMEOUT_S
        )
        try:
            pipe = client.pipeline(transaction=False)
            for host in hosts:
                pipe.llen(host_queue(host.id))
            depths = pipe.execute()
            memory = redis_memory(client, self.broker_url)
        except redis.RedisError as exc:
            log.warning("metrics: the broker did not answer (%s)", exc)
            up.add_metric([], 0)
            yield up
            return
        finally:
            client.close()
        up.add_metric([], 1)
        yield up
        queues = GaugeMetricFamily(
            "storbench_host_queue_depth",
            "Assignments waiting in each host's broker queue (not yet taken by its worker)",
            labels=_HOST_LABELS,
        )
        for host, depth in zip(hosts, depths, strict=True):
            queues.add_metric(_host_labels(host), int(depth))
        yield queues
        yield GaugeMetricFamily("storbench_redis_used_memory_bytes", "Memory Redis uses", value=memory.used)
        yield GaugeMetricFamily(
            "storbench_redis_maxmemory_bytes",
            "Redis's memory limit (0: none; writes fail once used memory reaches it)",
            value=memory.limit,
        )
