"""The protocol's models accept what each side sends and refuse what neither should."""

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from storbench_protocol.assignments import (
    AssignmentState,
    BarrierState,
    RestartReport,
    StartReport,
    WorkerAssignment,
)
from storbench_protocol.common import MAX_ID, RunStatus
from storbench_protocol.facts import Heartbeat, HostFacts
from storbench_protocol.progress import ProgressReport, WorkerProgressSample
from storbench_protocol.results import ResultUpload


def test_a_progress_sample_survives_the_wire() -> None:
    sample = WorkerProgressSample(
        elapsed_s=3.0,
        eta_s=7.0,
        percent=30.0,
        timestamp_ms=1_700_000_000_000,
        directions={"read": {"iops": 1000.0, "bw_bytes": 4_096_000.0, "lat_mean_ns": 250_000.0}},
    )
    received = ProgressReport.model_validate_json(ProgressReport(samples=[sample]).model_dump_json())
    assert received.samples == [sample]


@pytest.mark.parametrize(
    "directions",
    [
        {"read": {"iops": -1.0, "bw_bytes": 0.0, "lat_mean_ns": 0.0}},
        {"append": {"iops": 1.0, "bw_bytes": 0.0, "lat_mean_ns": 0.0}},
        {"read": {"iops": 1.0}},
    ],
)
def test_a_sample_with_impossible_figures_is_refused(directions: object) -> None:
    with pytest.raises(ValidationError):
        WorkerProgressSample.model_validate({"elapsed_s": 1.0, "directions": directions})


def test_a_partial_fact_report_keeps_only_what_was_reported() -> None:
    beat = Heartbeat.model_validate({"fio_version": "fio-3.33", "facts": {"cpu_count": 2}})
    assert beat.facts is not None
    assert beat.facts.model_dump(mode="json", exclude_unset=True) == {"cpu_count": 2}


def test_facts_a_worker_collects_are_read_back_whole() -> None:
    facts = {
        "hostname": "nas-client-01",
        "memory_bytes": 8 << 30,
        "mounts": [{"source": "srv:/x", "mountpoint": "/mnt/nas", "fstype": "nfs4", "options": "rw"}],
        "nics": [{"name": "eth0", "speed_mbps": None, "mtu": 1500, "state": "up"}],
        "block_devices": [{"name": "vdb", "path": "/dev/vdb", "in_use": None}],
        "allowed_roots": ["/mnt/nas"],
        "clock_offset_ms": -0.4,
    }
    assert HostFacts.model_validate(facts).model_dump(mode="json", exclude_unset=True) == facts


def test_an_assignment_carries_normalised_jobs_and_no_nested_options() -> None:
    base = {
        "id": 3,
        "run_id": 1,
        "status": "queued",
        "target": {"path": "/srv", "kind": "directory", "destructive": False, "confirmed_destructive": False},
        "scratch_name": "storbench-run1-a3-x",
    }
    jobs = [{"name": "r", "rw": "randread", "bs": 4096, "time_based": True, "percentile_list": [99.0]}]
    assignment = WorkerAssignment.model_validate({**base, "jobs": jobs})
    assert assignment.status is RunStatus.queued and assignment.jobs == jobs
    assert assignment.host_count == 1 and assignment.lays_out
    with pytest.raises(ValidationError):
        WorkerAssignment.model_validate({**base, "jobs": [{"name": "r", "rw": {"nested": "x"}}]})
    nfs = {"path": "/srv", "kind": "nfs", "destructive": False, "confirmed_destructive": False}
    with pytest.raises(ValidationError):
        WorkerAssignment.model_validate({**base, "jobs": jobs, "target": nfs})


def test_statuses_say_when_fio_must_stop() -> None:
    assert [s for s in RunStatus if s.is_terminal] == ["completed", "failed", "cancelled"]
    assert [s for s in RunStatus if s.stops_fio] == ["failed", "cancelled"]


def test_the_barrier_answer_reads_server_times() -> None:
    state = BarrierState.model_validate(
        {"id": 1, "status": "queued", "start_at": None, "server_time": "2026-01-02T03:04:05.5+00:00"}
    )
    assert state.server_time == datetime(2026, 1, 2, 3, 4, 5, 500000, tzinfo=UTC)


def test_ids_stay_in_the_databases_range() -> None:
    assert RestartReport(spooled=[1, MAX_ID]).spooled == [1, MAX_ID]
    for bad in (0, MAX_ID + 1):
        with pytest.raises(ValidationError):
            RestartReport.model_validate({"spooled": [bad]})


def test_a_spooled_upload_written_before_this_package_still_reads() -> None:
    spooled = '{"fio_output": "{\\"jobs\\": []}", "stopped_early": null, "worker_cpu_percent": 0.4}'
    upload = ResultUpload.model_validate_json(spooled)
    assert upload.fio_output == '{"jobs": []}' and upload.worker_cpu_percent == 0.4
    with pytest.raises(ValidationError):
        ResultUpload(fio_output="")


@pytest.mark.parametrize(
    "facts", [{"clock_uncertainty_ms": False}, {"cpu_count": "2"}, {"memory_bytes": 1.5}, {"hostname": 7}]
)
def test_a_value_of_another_type_than_the_schema_states_is_refused_not_coerced(facts: object) -> None:
    with pytest.raises(ValidationError):
        Heartbeat.model_validate({"facts": facts})


def test_times_and_statuses_arrive_as_json_strings() -> None:
    report = StartReport.model_validate({"fio_started_at": "2026-01-02T03:04:05+00:00", "clock_offset_ms": 2})
    assert report.fio_started_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert report.clock_offset_ms == 2.0
    with pytest.raises(ValidationError):
        StartReport.model_validate({"fio_started_at": "2026-01-02T03:04:05"})  # whose clock?
    assert AssignmentState.model_validate({"id": 1, "status": "cancelled"}).status is RunStatus.cancelled


def test_integers_are_json_schemas_integers() -> None:
    assert RestartReport.model_validate({"spooled": [6.0, 7]}).spooled == [6, 7]
    for not_an_integer in (6.5, "6", True):
        with pytest.raises(ValidationError):
            RestartReport.model_validate({"spooled": [not_an_integer]})
