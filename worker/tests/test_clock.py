"""The worker's estimate of the server's clock, from quick exchanges with GET /worker/clock."""

import json
from datetime import UTC, datetime, timedelta

import httpx

from tests.conftest import recording_client

AHEAD = timedelta(seconds=5)


def test_the_offset_is_measured_on_the_clock_endpoint_several_times() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        now = datetime.now(UTC) + AHEAD
        return httpx.Response(200, content=json.dumps({"server_time": now.isoformat()}))

    api, seen = recording_client(answer)
    api.measure_clock(samples=4)
    assert [r.url.path for r in seen] == ["/api/v1/worker/clock"] * 4
    assert abs(api.clock.offset_s - AHEAD.total_seconds()) < 1.0
    assert api.clock.uncertainty_s is not None


def test_a_server_without_the_clock_endpoint_leaves_the_estimate_unmeasured() -> None:
    api, _ = recording_client(lambda request: httpx.Response(404, json={"message": "Not Found"}))
    api.measure_clock(samples=2)
    assert api.clock.offset_s == 0.0 and api.clock.uncertainty_s is None
