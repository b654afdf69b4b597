"""Each host's own broker identity: a Redis ACL user that reaches only that host's queue.

Whenever Redis is the broker, a host's worker connects as `storbench-host-<id>` with a password
derived from the service secret and the host's current credential (so rotating the credential
rotates it, and nothing new is stored). The user may touch only the keys kombu's Redis transport
uses for the host's queue, with the worker's own unacked keys (the worker names them after its
queue), and no pub/sub channel at all: no other queue, no KEYS or SCAN, no FLUSH*, no CONFIG, no
Celery remote control. The embedded mode's single-machine broker needs none of this.

The keys, as kombu 5 writes them for a queue Q with priority_steps=[0] (checked against a real
Redis 7 by tests/hosts/test_broker_access.py): the list Q, the binding sets _kombu.binding.Q and
_kombu.binding_permanent.Q, and unacked.Q, unacked_index.Q, unacked_mutex.Q. On those keys the user
may run only the commands a worker sends (_WORKER_COMMANDS).
"""

import logging
from functools import lru_cache
from urllib.parse import quote, urlsplit, urlunsplit

import redis

from storbench_api.broker import host_queue
from storbench_api.models import Host
from storbench_api.security import keyed_name
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

# Only what a Celery worker sends through kombu 5's Redis transport and redis-py, on its own keys
# (read from their sources; a real worker runs with exactly this list in the integration tests):
# consuming and restoring (BRPOP, RPOP, LPUSH, RPUSH, LLEN, EXISTS, DEL, PEXPIRE), the queue's
# bindings (SADD, SMEMBERS, SREM), the unacked bookkeeping (ZADD, ZRANGE, ZREM, HSET, HGET, HDEL in
# WATCH/MULTI/EXEC transactions) and its mutex (redis-py's lock: SET NX PX, released by EVALSHA
# after SCRIPT LOAD; Redis 7 checks each command a script runs against the caller's ACL, keys
# included). Anything else (reading the keyspace, the server, pub/sub, other data types that could
# hold more) is refused. What is left to write is bounded by Redis itself (proto-max-bulk-len per
# value, maxmemory with noeviction in total) and per host by hosts.broker_budget.
_WORKER_COMMANDS = (
    "auth",
    "select",
    "ping",
    "brpop",
    "rpop",
    "lpush",
    "rpush",
    "llen",
    "exists",
    "del",
    "pexpire",
    "sadd",
    "smembers",
    "srem",
    "zadd",
    "zrange",
    "zrem",
    "hset",
    "hget",
    "hdel",
    "watch",
    "unwatch",
    "multi",
    "exec",
    "discard",
    "set",
    "get",
    "evalsha",
    "script|load",
)


def isolation_enabled() -> bool:
    """Whether hosts get their own broker users (Redis is the broker)."""
    return get_settings().effective_broker_url.startswith(("redis://", "rediss://"))


def broker_username(host_id: int) -> str:
    """The Redis user a host's worker connects as (users are server-wide: the database is in the name)."""
    database = urlsplit(get_settings().effective_broker_url).path.strip("/") or "0"
    return f"storbench-d{database}-host-{host_id}"


def broker_password(host: Host) -> str:
    """The host's broker password: changes with its credential, known only to the service."""
    return keyed_name(get_settings().secret_key, f"broker-password:{host.id}:{host.credential_hash}", 48)


def queue_keys(queue: str) -> list[str]:
    """Every key kombu's Redis transport uses for one queue and its own unacked bookkeeping."""
    return [
        queue,
        f"_kombu.binding.{queue}",
        f"_kombu.binding_permanent.{queue}",
        f"unacked.{queue}",
        f"unacked_index.{queue}",
        f"unacked_mutex.{queue}",
    ]


def acl_rules(queue: str, password: str) -> list[str]:
    """ACL SETUSER rules for a worker that may use only this queue."""
    keys = [f"~{_escape_glob(key)}" for key in queue_keys(queue)]
    allowed = [f"+{command}" for command in _WORKER_COMMANDS]
    return ["reset", "on", f">{password}", *keys, "resetchannels", "-@all", *allowed]


def _escape_glob(key: str) -> str:
    """A key as an ACL pattern matching only itself."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in key)


@lru_cache
def admin() -> redis.Redis:
    """The API's own Redis connection (its own user), which manages the hosts' users."""
    return redis.Redis.from_url(
        get_settings().effective_broker_url, socket_timeout=5, socket_connect_timeout=5
    )


def _command(*args: str) -> object:
    """One command on the API's own connection (ACL and CLIENT have no typed helpers we use)."""
    return admin().execute_command(*args)  # type: ignore[no-untyped-call]


def ensure_broker_user(host: Host) -> None:
    """Create or refresh the host's broker user (after a Redis restart without persistence too)."""
    if not isolation_enabled() or host.revoked_at is not None:
        return
    _command(
        "ACL", "SETUSER", broker_username(host.id), *acl_rules(host_queue(host.id), broker_password(host))
    )


def remove_broker_user(host_id: int) -> None:
    """Delete the host's broker user; Redis disconnects its open connections at once."""
    if isolation_enabled():
        _command("ACL", "DELUSER", broker_username(host_id))


def delete_queue_keys(host_id: int) -> None:
    """Delete everything the host's queue holds (a host cut off for what it wrote)."""
    if isolation_enabled():
        admin().delete(*queue_keys(host_queue(host_id)))


def worker_broker_url(host: Host) -> str:
    """The broker URL this host's worker uses: the workers' address, with the host's own user."""
    settings = get_settings()
    url = settings.worker_broker_url or settings.effective_broker_url
    if url.startswith("filesystem://"):
        return f"filesystem://{settings.broker_folder.resolve()}"  # the embedded broker's folder
    if not isolation_enabled():
        return url
    parts = urlsplit(url)
    netloc = parts.hostname or "127.0.0.1"
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port is not None:
        netloc = f"{netloc}:{parts.port}"
    credentials = f"{quote(broker_username(host.id), safe='')}:{quote(broker_password(host), safe='')}"
    return urlunsplit((parts.scheme, f"{credentials}@{netloc}", parts.path, parts.query, parts.fragment))
