"""The worker's calls: a failing server is retried, a refusal is not, uploads arrive compressed."""

import gzip
import json

import httpx
import pytest

from storbench_protocol.common import RunStatus
from storbench_protocol.results import ResultUpload
from storbench_worker.api_client import ServerRefused
from tests.conftest import IDENTITY, recording_client


def test_a_failing_server_is_asked_again_until_it_answers() -> None:
    answers = iter([httpx.Response(503, json={"message": "busy"}), httpx.Response(200, json=IDENTITY)])
    api, seen = recording_client(lambda _: next(answers))
    identity = api.whoami(retry_for_s=30)
    assert identity.queue == "host.4" and len(seen) == 2
    assert seen[0].headers["Authorization"] == "Bearer sbh_token"


def test_a_refusal_is_not_retried_and_says_why() -> None:
    refusal = httpx.Response(401, json={"code": "unauthorized", "message": "revoked"})
    api, seen = recording_client(lambda _: refusal)
    with pytest.raises(ServerRefused) as refused:
        api.whoami(retry_for_s=30)
    assert refused.value.status_code == 401 and refused.value.message == "revoked"
    assert len(seen) == 1


def test_an_unreachable_server_is_given_up_on_after_the_time_allowed() -> None:
    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    api, seen = recording_client(unreachable)
    with pytest.raises(httpx.ConnectError):
        api.whoami(retry_for_s=0.3)
    assert len(seen) >= 1


def test_an_upload_is_gzipped_and_its_acknowledgement_read() -> None:
    def store(request: httpx.Request) -> httpx.Response:
        assert request.headers["Content-Encoding"] == "gzip"
        body = json.loads(gzip.decompress(request.content))
        sent = {"fio_output": '{"jobs": []}', "stopped_early": "cancelled", "worker_cpu_percent": None}
        assert body == sent
        return httpx.Response(200, json={"results": 2})

    api, _ = recording_client(store)
    upload = ResultUpload(fio_output='{"jobs": []}', stopped_early="cancelled", worker_cpu_percent=None)
    assert api.upload(9, upload, retry_for_s=5) == 2


def test_progress_sends_only_what_was_measured_and_reads_whether_to_stop() -> None:
    def state(request: httpx.Request) -> httpx.Response:
        assert json.loads(request.content) == {"samples": []}
        return httpx.Response(200, json={"id": 9, "status": "cancelled"})

    api, _ = recording_client(state)
    status = api.progress(9, [])
    assert status is RunStatus.cancelled and status.stops_fio


def test_an_answer_that_is_not_the_protocol_is_an_error_not_a_guess() -> None:
    api, _ = recording_client(lambda _: httpx.Response(200, json={"host_id": "four"}))
    with pytest.raises(ValueError, match="host_id"):
        api.whoami(retry_for_s=1)
