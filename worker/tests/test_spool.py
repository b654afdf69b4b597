"""Outputs survive until acknowledged."""

import time
from pathlib import Path

import httpx

from storbench_worker.api_client import ApiClient
from storbench_worker.spool import RETRY_LONGEST_S, ScratchRecord, Spool


def test_spooled_outputs_are_pending_until_uploaded(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(7, '{"jobs": []}', None)
    spool.put(3, '{"jobs": []}', "cancelled")
    assert spool.pending() == [3, 7]
    assert not list((tmp_path / "spool").glob("*.tmp"))
    reopened = Spool(tmp_path / "spool")
    assert reopened.pending() == [3, 7]


def test_a_killed_workers_own_scratch_is_removed_on_the_next_start(tmp_path: Path) -> None:
    record = ScratchRecord(tmp_path / "record")
    own = tmp_path / "mount" / "storbench-run4-a9"
    own.mkdir(parents=True)
    (own / "job.0.0").write_bytes(b"x" * 10)
    record.claim(9, own)
    asked: list[int] = []
    removed = ScratchRecord(tmp_path / "record").remove_leftovers(lambda a: asked.append(a) or True)
    assert removed == [own] and not own.exists()
    assert asked == [], "a host's own files need nobody's permission"


def test_shared_scratch_stays_while_other_hosts_still_use_it(tmp_path: Path) -> None:
    record = ScratchRecord(tmp_path / "record")
    shared = tmp_path / "mount" / "storbench-run4-shared"
    shared.mkdir(parents=True)
    record.claim(10, shared, shared=True)
    assert ScratchRecord(tmp_path / "record").remove_leftovers(lambda a: False) == []
    assert shared.exists(), "another host is still measuring on these files"
    assert not list((tmp_path / "record").iterdir()), "let go of: the last host removes them"


def test_shared_scratch_is_kept_on_record_while_the_server_cannot_be_asked(tmp_path: Path) -> None:
    record = ScratchRecord(tmp_path / "record")
    shared = tmp_path / "mount" / "storbench-run5-shared"
    shared.mkdir(parents=True)
    record.claim(11, shared, shared=True)

    def unreachable(_: int) -> bool:
        raise ConnectionError("server down")

    assert record.remove_leftovers(unreachable) == []
    assert shared.exists()
    assert record.remove_leftovers(lambda a: a == 11) == [shared]
    assert not shared.exists()


def _api(status: int, calls: list[str]) -> ApiClient:
    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path.rsplit("/", 1)[-1])
        if request.url.path.endswith("/failure"):
            return httpx.Response(200, json={"id": 7, "status": "failed"})
        if status != 200:
            return httpx.Response(status, json={"code": "x", "message": f"refused with {status}"})
        return httpx.Response(200, json={"results": 1})

    return ApiClient("http://server", "sbh_token", transport=httpx.MockTransport(handler))


def test_a_refused_upload_stays_and_waits_for_its_backoff(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(7, '{"jobs": []}', None, 0.4)
    calls: list[str] = []
    spool.upload_due(_api(413, calls))
    assert spool.pending() == [7] and calls == ["result"]
    spool.upload_due(_api(200, calls))
    assert calls == ["result"], "not tried again before its backoff"
    assert spool.schedule.is_due(7, time.monotonic() + RETRY_LONGEST_S)
    assert spool.upload(_api(200, calls), 7, retry_for_s=5)
    assert spool.pending() == [] and spool.schedule.is_due(7, time.monotonic())


def test_an_output_the_server_cannot_read_is_set_aside_and_the_run_told(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(7, "not fio output", None)
    calls: list[str] = []
    assert not spool.upload(_api(422, calls), 7, retry_for_s=5)
    assert spool.pending() == [] and (tmp_path / "spool" / "rejected" / "7.json").exists()
    assert calls == ["result", "failure"]
