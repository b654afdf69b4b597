"""Per-second progress from the real fio's --status-interval stream."""

import json
import subprocess
from pathlib import Path

import pytest

from storbench_worker.progress import ProgressReporter, StatusStream


def _fed(text: str, chunk: int = 4096) -> StatusStream:
    """A stream fed the text in pipe-sized pieces, as fio's output arrives."""
    stream = StatusStream()
    data = text.encode()
    for start in range(0, len(data), chunk):
        stream.feed(data[start : start + chunk])
    return stream


@pytest.fixture(scope="module")
def status_stream(tmp_path_factory: pytest.TempPathFactory) -> str:
    work = tmp_path_factory.mktemp("fio")
    argv = [
        "fio",
        "--output-format=json+",
        "--status-interval=1",
        f"--directory={work}",
        "--name=r",
        "--rw=randread",
        "--bs=4k",
        "--size=8m",
        "--runtime=3",
        "--time_based",
        "--ioengine=psync",
    ]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def test_each_second_becomes_a_sample_with_rates_and_progress(status_stream: str, tmp_path: Path) -> None:
    samples = ProgressReporter(_fed(status_stream)).collect()
    assert len(samples) >= 3
    for sample in samples:
        read = sample.directions["read"]
        assert read.iops > 0
        # fio counts issued I/Os but completed bytes, and on a busy machine one report may be read
        # between the two updates: a few percent apart, never a unit (x1024) apart.
        assert read.bw_bytes == pytest.approx(read.iops * 4096, rel=0.05)
        assert read.lat_mean_ns > 0
    percents = [s.percent for s in samples]
    assert percents == sorted(percents) and percents[-1] == 100.0


def test_a_document_cut_in_half_waits_for_its_end(status_stream: str, tmp_path: Path) -> None:
    half = len(status_stream) // 2
    stream = _fed(status_stream[:half])
    first = stream.new_documents()
    stream.feed(status_stream[half:].encode())
    rest = stream.new_documents()
    whole = _fed(status_stream, chunk=1 << 30)
    assert len(first) + len(rest) == len(whole.new_documents()) >= 3


def test_the_last_report_is_the_final_result(status_stream: str) -> None:
    stream = _fed("fio: some warning\n" + status_stream)
    final = stream.last_text
    assert final is not None and final.lstrip().startswith("{")
    assert '"clat_ns"' in final
    assert json.loads(final)["timestamp_ms"] == max(d["timestamp_ms"] for d in stream.new_documents())
    assert "some warning" in stream.other_tail
    nothing = _fed("not json at all")
    nothing.finish()
    assert nothing.last_text is None and "not json" in nothing.other_tail


def test_sample_times_are_moved_to_the_servers_clock(status_stream: str, tmp_path: Path) -> None:
    on_host = ProgressReporter(_fed(status_stream)).collect()
    on_server = ProgressReporter(_fed(status_stream), clock_offset_s=lambda: -2.5).collect()
    assert [(s.timestamp_ms or 0) - 2500 for s in on_server] == [
        (s.timestamp_ms or 0) - 5000 for s in on_host
    ]


def test_the_worker_looks_just_after_fios_next_report_never_on_a_blind_cadence(
    status_stream: str, tmp_path: Path
) -> None:
    stream = StatusStream()
    reporter = ProgressReporter(stream)
    # Before fio's first report: look often.
    assert reporter.seconds_to_next_report(now=0.0, longest_s=1.0) == pytest.approx(0.2)
    stream.feed(status_stream.encode())
    reporter.collect()
    final = stream.last_text
    assert final is not None
    last = json.loads(final)["timestamp_ms"] / 1000
    # 300 ms after a report, the next one is due 700 ms later: look 50 ms after it.
    assert reporter.seconds_to_next_report(now=last + 0.3, longest_s=1.0) == pytest.approx(0.75)
    # A report that is late: look again soon rather than a whole second later.
    assert reporter.seconds_to_next_report(now=last + 1.2, longest_s=1.0) == pytest.approx(0.2)
    # Cancel is checked at least every longest_s.
    assert reporter.seconds_to_next_report(now=last + 0.3, longest_s=0.5) == pytest.approx(0.5)


def test_the_sliver_between_the_last_second_and_the_final_report_is_not_a_sample(tmp_path: Path) -> None:
    def report(runtime_ms: int, ios: int) -> str:
        read = {"total_ios": ios, "io_bytes": ios * 4096, "runtime": runtime_ms, "lat_ns": {"mean": 1000.0}}
        document = {"timestamp_ms": 1_000_000 + runtime_ms, "jobs": [{"read": read, "elapsed": 1}]}
        return json.dumps(document, indent=2) + "\n"  # as fio writes it: the last brace opens a line

    # Two whole seconds, then the final report 40 ms later: 32 I/Os that were in flight drained in it.
    samples = ProgressReporter(
        _fed(report(1000, 50_000) + report(2000, 100_000) + report(2040, 102_032))
    ).collect()
    assert [round(s.directions["read"].iops) for s in samples] == [50_000, 50_000]


def test_stonewalled_groups_one_after_the_other_give_a_sample_every_second(tmp_path: Path) -> None:
    # A sweep's points (or repetitions): the second group starts once the first has run its 2 s.
    def job(group: int, runtime_ms: int, ios: int) -> dict[str, object]:
        read = {"total_ios": ios, "io_bytes": ios * 4096, "runtime": runtime_ms, "lat_ns": {"mean": 1000.0}}
        return {"groupid": group, "read": read, "elapsed": 1}

    def report(at_ms: int, *jobs: dict[str, object]) -> str:
        return json.dumps({"timestamp_ms": 1_000_000 + at_ms, "jobs": list(jobs)}, indent=2) + "\n"

    stream = _fed(
        report(1000, job(0, 1000, 1000), job(1, 0, 0))
        + report(2000, job(0, 2000, 2000), job(1, 0, 0))
        + report(3000, job(0, 2000, 2000), job(1, 1000, 4000))
        + report(4000, job(0, 2000, 2000), job(1, 2000, 8000))
    )
    samples = ProgressReporter(stream).collect()
    assert [round(s.directions["read"].iops) for s in samples] == [1000, 1000, 4000, 4000]


@pytest.mark.parametrize(
    ("options", "planned"),
    [
        ({"runtime": "60", "ramp_time": "5"}, 65.0),
        ({"timeout": "1m", "ramp_time": "5s"}, 65.0),  # fio's alias and units, as fio reads them
        ({"runtime": "60", "startdelay": "1-5"}, None),  # a range: no single planned length
        ({"size": "1g"}, None),  # not time-based: fio's own ETA or nothing
    ],
)
def test_while_fio_cannot_tell_the_eta_comes_from_the_jobs_planned_length(
    options: dict[str, str], planned: float | None
) -> None:
    def report(elapsed_s: int) -> str:
        ios = 1000 * elapsed_s
        read = {"total_ios": ios, "io_bytes": ios * 4096, "runtime": ios, "lat_ns": {"mean": 1000.0}}
        job = {"read": read, "elapsed": elapsed_s, "eta": 2**31 - 1, "job options": options}
        document = {"timestamp_ms": 1_000_000 + 1000 * elapsed_s, "jobs": [job]}
        return json.dumps(document, indent=2) + "\n"  # as fio writes it

    samples = ProgressReporter(_fed(report(9) + report(10) + report(11))).collect()
    assert [s.elapsed_s for s in samples] == [9.0, 10.0, 11.0]
    assert [None if s.eta_s is None else s.elapsed_s + s.eta_s for s in samples] == [planned] * 3


def test_the_seconds_of_a_preconditioning_fill_say_so_and_the_measured_ones_do_not(tmp_path: Path) -> None:
    from storbench_fio.precondition import PRECONDITION_DESCRIPTION

    # The real fio: a rate-limited fill (2 s) as group 0, then the measured random reads (2 s).
    argv = [
        "fio",
        "--output-format=json",
        "--status-interval=1",
        f"--directory={tmp_path}",
        "--name=r",
        f"--description={PRECONDITION_DESCRIPTION}",
        "--rw=write",
        "--bs=128k",
        "--size=8m",
        "--rate=4m",
        "--runtime=10",
        "--ioengine=psync",
        "--name=r",
        "--stonewall",
        "--rw=randread",
        "--bs=4k",
        "--size=8m",
        "--runtime=2",
        "--time_based",
        "--ioengine=psync",
    ]
    output = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    samples = ProgressReporter(_fed(output)).collect()
    phases = [s.phase for s in samples]
    assert phases[0] == "preconditioning" and phases[-1] is None, phases
    # Once measuring, it never goes back to filling.
    assert phases == sorted(phases, key=lambda p: p is None)
    assert all("write" in s.directions for s in samples if s.phase == "preconditioning")


def test_each_sample_carries_the_running_points_p99_so_far(status_stream: str) -> None:
    samples = ProgressReporter(_fed(status_stream)).collect()
    p99s = [s.directions["read"].clat_p99_ns for s in samples]
    assert p99s and all(p is not None and p > 0 for p in p99s), p99s
