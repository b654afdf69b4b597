"""Each host's budget in the shared Redis: a host that keeps more there is cut off.

Redis runs with maxmemory and noeviction, so once it is full it refuses every write. A host's
worker may push any number of values (each up to proto-max-bulk-len) into its own queue's keys,
so one host could fill it and stop every other team's runs from being enqueued: as its ACL user,
one host wrote 46.9 MiB into a 48 MiB Redis, after which nobody could write (test_broker_budget.py).

So the API measures what each host holds, with MEMORY USAGE on the keys its ACL user reaches (it
can write no other, so no SCAN is needed): every sweep pass, and at once when an enqueue is refused
for memory. A host past STORBENCH_HOST_BROKER_BUDGET_BYTES is cut off: revoked with the reason, its broker
user deleted (Redis drops its connections), its unfinished work failed and its keys deleted, so the
memory is everyone's again and the refused enqueue can be sent.
"""

import logging
from collections.abc import Sequence

import redis
from sqlalchemy.orm import Session

from storbench_api.broker import host_queue
from storbench_api.db import get_sessionmaker
from storbench_api.hosts import broker_access, repository, service
from storbench_api.runs import lifecycle
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)


def _mib(size: int) -> str:
    return f"{size / 1024**2:.1f} MiB"


def broker_usage(host_ids: Sequence[int]) -> dict[int, int]:
    """Bytes each host's keys take in Redis (MEMORY USAGE with every element counted)."""
    keys = {host_id: broker_access.queue_keys(host_queue(host_id)) for host_id in host_ids}
    with broker_access.admin().pipeline(transaction=False) as pipe:
        for host_keys in keys.values():
            for key in host_keys:
                pipe.memory_usage(key, samples=0)
        sizes = iter(pipe.execute())
    return {host_id: sum(next(sizes) or 0 for _ in host_keys) for host_id, host_keys in keys.items()}


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether a broker error (however kombu wrapped it) is Redis refusing a write for memory."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, redis.exceptions.OutOfMemoryError) or "OOM command not allowed" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def budget_pass() -> list[int]:
    """One sweeper pass in its own session: cut off the hosts over budget; returns their ids."""
    try:
        with get_sessionmaker()() as db:
            return cut_off_hosts_over_budget(db)
    except redis.RedisError as exc:  # Redis is away: the sweep says so; nothing to measure now
        log.warning("could not measure the hosts' broker budgets: %s", exc)
        return []


def cut_off_hosts_over_budget(db: Session) -> list[int]:
    """Measure every host that may hold broker keys; cut off those over budget (committing each).

    Returns the ids of the hosts cut off.
    """
    if not broker_access.isolation_enabled():
        return []
    budget = get_settings().host_broker_budget_bytes
    usage = broker_usage(repository.hosts_with_broker_access(db))
    over = [host_id for host_id, used in usage.items() if used > budget]
    return [host_id for host_id in over if _cut_off(db, host_id, usage[host_id], budget)]


def _cut_off(db: Session, host_id: int, used: int, budget: int) -> bool:
    host = repository.lock_host(db, host_id)
    if host is None or host.revoked_at is not None:  # revoked meanwhile, or another process won
        return False
    reason = (
        f"host '{host.name}' was cut off: it kept {_mib(used)} in the message broker, more than its "
        f"budget of {_mib(budget)} (STORBENCH_HOST_BROKER_BUDGET_BYTES); a team owner replaces it to enroll "
        "it again"
    )
    service.cut_off_host(db, host, reason)
    lifecycle.fail_host_assignments(db, host.id, reason)
    try:
        broker_access.remove_broker_user(host.id)
        broker_access.delete_queue_keys(host.id)
    finally:
        db.commit()  # revoked even if Redis failed just now: the next pass deletes what is left
    log.warning("%s", reason)
    return True
