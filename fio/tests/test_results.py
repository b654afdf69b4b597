"""parse_fio_output on real fio 3.33 output produced in a scratch directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from fio_testkit import RunFio, requires_fio, tiny_job_args

from storbench_fio.errors import ParseError
from storbench_fio.results import parse_fio_output, parse_fio_stream

pytestmark = requires_fio


def test_json_read_job(run_fio: RunFio, tmp_path: Path) -> None:
    out = run_fio("--output-format=json", *tiny_job_args(tmp_path))
    report = parse_fio_output(out)
    assert report.source_format == "json"
    assert report.fio_version == "fio-3.33"
    assert report.timestamp is not None
    [job] = report.jobs
    assert job.name == "t"
    assert job.job_options["rw"] == "randread"
    assert set(job.directions) == {"read"}  # write/trim did nothing, so they are omitted
    read = job.directions["read"]
    assert read.total_ios is not None
    assert read.total_ios > 0
    assert read.io_bytes == read.total_ios * 4096
    # Consistency: bandwidth is IOPS times the block size.
    assert read.bw_bytes == pytest.approx(read.iops * 4096, rel=0.02)
    assert read.clat_ns is not None
    assert read.clat_ns.percentiles["99.9"] >= read.clat_ns.percentiles["50"]
    assert read.clat_ns.histogram is None
    assert read.slat_ns is None  # psync has no submission stage
    assert job.cpu is not None
    assert job.iodepth_distribution is not None
    assert job.iodepth_distribution["1"] == pytest.approx(100.0)
    assert job.latency_distribution is not None


def test_json_plus_histogram_and_leading_warnings(run_fio: RunFio, tmp_path: Path) -> None:
    out = run_fio("--output-format=json+", *tiny_job_args(tmp_path, rw="randrw"))
    report = parse_fio_output("fio: some warning before the document\n" + out)
    assert report.source_format == "json+"
    [job] = report.jobs
    assert set(job.directions) == {"read", "write"}
    for result in job.directions.values():
        assert result.clat_ns is not None
        assert result.clat_ns.histogram
        assert sum(result.clat_ns.histogram.values()) == result.clat_ns.samples


def test_damaged_json_raises_parse_error_with_position(run_fio: RunFio, tmp_path: Path) -> None:
    out = run_fio("--output-format=json", *tiny_job_args(tmp_path))
    with pytest.raises(ParseError, match=r"line \d+"):
        parse_fio_output(out[: len(out) // 2])


def test_status_interval_stream(run_fio: RunFio, tmp_path: Path) -> None:
    out = run_fio(
        "--output-format=json", "--status-interval=1", *tiny_job_args(tmp_path, runtime="2")
    )
    reports = parse_fio_stream(out)
    assert len(reports) >= 2
    final = parse_fio_output(out)
    assert final == reports[-1]
    first, last = (r.jobs[0].directions["read"].total_ios or 0 for r in (reports[0], final))
    assert last >= first


def test_normal_text_output_matches_json(run_fio: RunFio, tmp_path: Path) -> None:
    text = run_fio("--output-format=normal", *tiny_job_args(tmp_path, rw="randrw"))
    report = parse_fio_output(text)
    assert report.source_format == "text"
    [job] = report.jobs
    assert set(job.directions) == {"read", "write"}
    for result in job.directions.values():
        assert result.total_ios is not None
        assert result.iops == pytest.approx(result.total_ios * 1000 / result.runtime_ms)
        # Text rounds to three significant figures.
        assert result.bw_bytes == pytest.approx(result.iops * 4096, rel=0.02)
        assert result.clat_ns is not None
        assert result.clat_ns.percentiles
        assert result.clat_ns.histogram is None
    assert job.cpu is not None


def test_group_reporting_text(run_fio: RunFio, tmp_path: Path) -> None:
    text = run_fio(*tiny_job_args(tmp_path, numjobs="2"), "--group_reporting")
    [job] = parse_fio_output(text).jobs
    assert job.directions["read"].total_ios


def test_garbage_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="no fio result"):
        parse_fio_output("hello world\n")
    with pytest.raises(ParseError):
        parse_fio_output("")


def test_text_status_interval_keeps_last_report(run_fio: RunFio, tmp_path: Path) -> None:
    text = run_fio("--status-interval=1", *tiny_job_args(tmp_path, runtime="2"))
    assert text.count("(groupid=0") >= 2
    [job] = parse_fio_output(text).jobs
    assert job.directions["read"].runtime_ms >= 1900


def test_text_several_groups(run_fio: RunFio, tmp_path: Path) -> None:
    first = tiny_job_args(tmp_path, name="one")
    second = tiny_job_args(tmp_path, name="two", rw="randwrite")
    text = run_fio(*first, *second, "--stonewall")
    report = parse_fio_output(text)
    assert [(j.name, j.groupid) for j in report.jobs] == [("one", 0), ("two", 1)]
    assert set(report.jobs[1].directions) == {"write"}
