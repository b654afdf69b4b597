"""Getting the host's broker login back when the broker refuses it.

A Redis restarted without persistence forgets every host's ACL user. The server recreates a host's
user whenever its worker asks who it is (under the host's row lock, so a credential revoked or
rotated meanwhile gets no login back), and at each heartbeat. Left to Celery, the consumer retried
the refused login with a growing pause (up to 30 s) and consumed nothing until a heartbeat happened
to come before a retry (two minutes in prod-check). Here the consumer asks the server at once, on
the first refusal, and retries within a few seconds.

The message being worked on when the broker went away is not lost or run twice: it was the last
copy (the restarted broker has none) and its assignment's result goes through the API, not Redis;
a broker that kept it redelivers it, and a redelivered assignment that already ran is skipped.
"""

import logging
from collections.abc import Callable

import redis
from celery import Task
from celery.signals import task_postrun
from celery.worker.consumer import Consumer
from celery.worker.state import maybe_shutdown
from kombu.connection import Connection
from kombu.utils.url import parse_url

log = logging.getLogger(__name__)

# Between two tries to reach the broker: from 1 s, one more each time, never more than 5 s (a
# refused login is repaired before the next try, so the pause no longer needs to wait for it).
RETRY_FIRST_S = 1.0
RETRY_STEP_S = 1.0
RETRY_LONGEST_S = 5.0

# Asks the server for this host's broker URL (recreating its broker user there); set by the
# command line before the worker starts. Celery creates the consumer itself, so it is found here.
_renew_login: Callable[[], str] | None = None


def renew_login_with(ask_server: Callable[[], str] | None) -> None:
    """How the consumer gets its broker login back: ask_server returns the broker URL to use."""
    global _renew_login
    _renew_login = ask_server


def login_refused(exc: BaseException) -> bool:
    """Whether the broker refused this host's user or password (not merely unreachable)."""
    if isinstance(exc, redis.exceptions.AuthenticationError):
        return True
    text = str(exc)
    return "WRONGPASS" in text or "invalid username-password pair" in text


def renew_login(conn: Connection) -> bool:
    """Ask the server for the login again; True when it answered (conn then uses what it said)."""
    if _renew_login is None:
        return False
    try:
        url = _renew_login()
    except Exception as exc:  # the server is unreachable or refuses this host: the next try asks again
        log.warning("the broker refused this host's login and the server could not renew it: %s", exc)
        return False
    login = parse_url(url)  # a dict: transport, hostname, port, userid, password, virtual_host
    for field in ("userid", "password", "hostname", "port"):
        if login.get(field) is not None:
            setattr(conn, field, login[field])
    log.info("the broker refused this host's login: the server renewed it; reconnecting")
    return True


@task_postrun.connect  # type: ignore[untyped-decorator]
def _login_before_the_ack(sender: Task | None = None, **_: object) -> None:
    """After a task, before its message is acknowledged: make sure the broker takes this login.

    A broker restarted while fio ran has forgotten the host's user: the acknowledgement would be
    refused ("Couldn't ack"), which Celery only logs, and the consumer then waited for ever on its
    dead connection. One PING on a fresh connection tells; a refused login is renewed first.
    """
    url = sender.app.conf.broker_url if sender is not None else None
    if not isinstance(url, str) or not url.startswith(("redis://", "rediss://")):
        return
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5) as client:
            client.ping()
    except redis.RedisError as exc:
        if login_refused(exc) and _renew_login is not None:
            try:
                _renew_login()
                log.info("the broker refused this host's login after a task: the server renewed it")
            except Exception as renew_exc:
                log.warning("the server could not renew this host's broker login: %s", renew_exc)


class LoginRenewingConsumer(Consumer):  # type: ignore[misc]
    """Celery's consumer, which asks the server for its broker login when the broker refuses it."""

    def ensure_connected(self, conn: Connection) -> Connection:
        """Connect, retrying without end; a refused login is renewed before the next try."""

        attempts = 0

        def on_error(exc: Exception, interval: float) -> None:
            nonlocal attempts
            attempts += 1
            log.error(
                "cannot connect to the broker %s: %s; trying again in %.0f s (attempt %d)",
                conn.as_uri(),
                exc,
                interval,
                attempts,
            )
            if login_refused(exc):
                renew_login(conn)

        connected: Connection = conn.ensure_connection(  # type: ignore[no-untyped-call]
            on_error,
            self.app.conf.broker_connection_max_retries,
            callback=maybe_shutdown,
            interval_start=RETRY_FIRST_S,
            interval_step=RETRY_STEP_S,
            interval_max=RETRY_LONGEST_S,
        )
        self.first_connection_attempt = False
        self.broker_connection_retry_attempt = 0
        return connected
