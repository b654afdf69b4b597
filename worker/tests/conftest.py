"""What the worker's tests share: the server's identity answer and a client that records its requests."""

from collections.abc import Callable

import httpx

from storbench_worker.api_client import ApiClient

IDENTITY = {
    "host_id": 4,
    "name": "nas-client-01",
    "queue": "host.4",
    "broker_url": "redis://u:p@broker:6379/0",
    "heartbeat_interval_s": 10.0,
    "server_time": "2026-01-02T03:04:05+00:00",
}


def recording_client(
    answer: Callable[[httpx.Request], httpx.Response],
) -> tuple[ApiClient, list[httpx.Request]]:
    """An ApiClient whose requests `answer` answers, and the requests it sent, in order."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answer(request)

    return ApiClient("http://server", "sbh_token", transport=httpx.MockTransport(handler)), seen
