"""Which broker errors mean the login was refused, and what renewing it changes."""

from collections.abc import Iterator

import pytest
import redis
from kombu import Connection

from storbench_worker import broker_login
from storbench_worker.broker import celery_settings


@pytest.fixture(autouse=True)
def no_renewal_left_behind() -> Iterator[None]:
    yield
    broker_login.renew_login_with(None)


def test_a_refused_login_is_told_from_an_unreachable_broker() -> None:
    refused = redis.exceptions.AuthenticationError("invalid username-password pair or user is disabled.")
    assert broker_login.login_refused(refused)
    assert broker_login.login_refused(redis.exceptions.ResponseError("WRONGPASS invalid username-password"))
    assert not broker_login.login_refused(redis.exceptions.ConnectionError("Connection refused"))
    assert not broker_login.login_refused(ConnectionRefusedError(111, "Connection refused"))


def test_a_renewed_login_is_what_the_next_connection_uses() -> None:
    conn = Connection("redis://storbench-host-4:old@broker:6379/0")
    broker_login.renew_login_with(lambda: "redis://storbench-host-4:new%2Fpass@broker2:6380/0")
    assert broker_login.renew_login(conn)
    assert (conn.userid, conn.password, conn.hostname, conn.port) == (
        "storbench-host-4",
        "new/pass",
        "broker2",
        6380,
    )


def test_a_server_that_cannot_renew_leaves_the_login_as_it_was() -> None:
    conn = Connection("redis://storbench-host-4:old@broker:6379/0")

    def unreachable() -> str:
        raise OSError("connection refused")

    broker_login.renew_login_with(unreachable)
    assert not broker_login.renew_login(conn)
    assert conn.password == "old"


def test_the_worker_consumes_with_the_consumer_that_renews_its_login() -> None:
    settings = celery_settings("redis://u:p@127.0.0.1:6379/0", "host.4")
    assert settings["worker_consumer"] == "storbench_worker.broker_login:LoginRenewingConsumer"
