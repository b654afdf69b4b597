"""The heartbeat: a beat that gets no answer gives up after one period, so the host's next beat is on time."""

import logging
import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

from storbench_worker import heartbeat as heartbeat_module
from storbench_worker.api_client import ApiClient
from storbench_worker.heartbeat import MIN_BEAT_TIMEOUT_S, Heartbeat
from tests.conftest import IDENTITY, recording_client


def _recording_api() -> tuple[ApiClient, list[httpx.Request]]:
    return recording_client(lambda _: httpx.Response(200, json=IDENTITY))


def test_a_beat_waits_for_its_answer_no_longer_than_its_period() -> None:
    api, seen = _recording_api()
    Heartbeat(api, interval_s=20.0, fio_binary="fio").beat()
    api.whoami()
    beat, other = seen
    assert beat.url.path.endswith("/heartbeat")
    assert beat.extensions["timeout"]["read"] == 20.0
    # Every other call keeps the client's own patience.
    assert other.extensions["timeout"]["read"] == 30.0


def test_a_short_period_still_leaves_a_loaded_server_time_to_answer() -> None:
    api, seen = _recording_api()
    Heartbeat(api, interval_s=2.0, fio_binary="fio").beat()
    assert seen[0].extensions["timeout"]["read"] == MIN_BEAT_TIMEOUT_S


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A loopback server that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_a_beat_the_server_never_answers_is_given_up_and_logged(
    silent_server: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(heartbeat_module, "MIN_BEAT_TIMEOUT_S", 0.2)
    api = ApiClient(silent_server, "sbh_token")  # the client's own timeout: 30 s
    beat = threading.Thread(target=Heartbeat(api, interval_s=0.5, fio_binary="fio").beat, daemon=True)
    with caplog.at_level(logging.WARNING, logger="storbench_worker.heartbeat"):
        beat.start()
        beat.join(timeout=15)
    assert not beat.is_alive(), "the beat still waited for an answer after many periods"
    assert "heartbeat failed" in caplog.text and "timed out" in caplog.text
