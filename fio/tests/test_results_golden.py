"""parse_fio_output on hand-written outputs of older fio versions and other platforms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storbench_fio.results import parse_fio_output

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> str:
    return (GOLDEN / name).read_bytes().decode()


def test_fio2_json_microseconds_and_kib() -> None:
    report = parse_fio_output(golden("fio-2.2.10.json"))
    assert report.fio_version == "fio-2.2.10"
    assert report.source_format == "json"
    [job] = report.jobs
    assert set(job.directions) == {"read"}
    read = job.directions["read"]
    assert read.io_bytes == 1 << 30  # 1048576 KiB
    assert read.bw_bytes == 80505 * 1024  # derived from bw (KiB/s), no bw_bytes before 3.2
    assert read.total_ios == 262144
    assert read.clat_ns is not None
    assert read.clat_ns.min_ns == 166_000
    assert read.clat_ns.mean_ns == pytest.approx(1_584_280)
    assert read.clat_ns.percentiles["99.99"] == 9_792_000
    assert "0" not in read.clat_ns.percentiles  # "0.00": 0 padding dropped
    assert len(read.clat_ns.percentiles) == 17
    assert read.slat_ns is not None
    assert read.slat_ns.percentiles == {}
    assert job.cpu is not None
    assert job.cpu.usr_pct == pytest.approx(4.42)
    assert job.latency_distribution is not None
    assert job.latency_distribution.ms["2"] == pytest.approx(52.53)


def test_fio2_json_plus_bins_are_bucket_indexes() -> None:
    report = parse_fio_output(golden("fio-2.14-jsonplus.json"))
    assert report.source_format == "json+"
    write = report.jobs[0].directions["write"]
    assert write.io_bytes == 48 * 1024
    assert write.clat_ns is not None
    # Index 100 is 100 us exactly; index 200 is the bucket centred on 290 us.
    assert write.clat_ns.histogram == {100_000: 5, 290_000: 7}


def test_fio31_json_without_bw_bytes(tmp_path: Path) -> None:
    doc = json.loads(golden("fio-2.2.10.json").split("\n", 1)[1])
    doc["fio version"] = "fio-3.1"
    read = doc["jobs"][0]["read"]
    read["io_bytes"] = 1 << 30
    read["io_kbytes"] = 1 << 20
    for kind in ("slat", "clat", "lat"):
        stats = read.pop(kind)
        read[f"{kind}_ns"] = {k: v * 1000 if k != "percentile" else v for k, v in stats.items()}
    result = parse_fio_output(json.dumps(doc)).jobs[0].directions["read"]
    assert result.io_bytes == 1 << 30
    assert result.bw_bytes == 80505 * 1024
    assert result.clat_ns is not None
    assert result.clat_ns.min_ns == 166_000


def test_fio2_text() -> None:
    report = parse_fio_output(golden("fio-2.2.10.txt"))
    assert report.source_format == "text"
    assert report.fio_version == "fio-2.2.10"
    [job] = report.jobs
    assert job.job_options == {"rw": "randread", "ioengine": "libaio", "iodepth": "32"}
    read = job.directions["read"]
    assert read.io_bytes == 1 << 30  # "1024.0MB" means MiB in fio 2.x
    assert read.bw_bytes == 80505 * 1024  # "KB/s" means KiB/s in fio 2.x
    assert read.runtime_ms == 13025
    assert read.total_ios == 262144
    assert read.iops == pytest.approx(20126, rel=1e-3)
    assert read.clat_ns is not None
    assert read.clat_ns.percentiles["1"] == 266_000
    assert read.clat_ns.percentiles["99.99"] == 9_792_000
    assert read.clat_ns.histogram is None  # text output has no histogram
    assert read.clat_ns.samples is None
    assert read.slat_ns is not None
    assert read.slat_ns.mean_ns == pytest.approx(4310)
    assert job.cpu is not None
    assert job.cpu.ctx == 209283
    assert job.iodepth_distribution is not None
    assert job.iodepth_distribution["32"] == 100.0
    assert job.latency_distribution is not None
    assert job.latency_distribution.us["250"] == pytest.approx(0.78)


def test_fio3_pasted_text_glued_progress_and_lost_indentation() -> None:
    report = parse_fio_output(golden("fio-3.x-pasted.txt"))
    assert report.fio_version == "fio-3.16"
    assert [j.name for j in report.jobs] == ["seq", "rnd"]
    seq, rnd = report.jobs
    read = seq.directions["read"]
    assert read.bw_bytes == pytest.approx(59.6 * 2**20)
    assert read.io_bytes == 1793 * 2**20
    assert read.runtime_ms == 30061
    assert read.total_ios == 459008
    assert read.iops == pytest.approx(15270, rel=1e-3)
    assert read.slat_ns is not None
    assert read.slat_ns.max_ns == pytest.approx(4_274_800)  # "4274.8k" nsec
    assert read.clat_ns is not None
    assert read.clat_ns.percentiles["99.9"] == 11_076_000
    assert read.lat_ns is not None
    assert read.lat_ns.percentiles == {}
    assert set(rnd.directions) == {"write"}
    write = rnd.directions["write"]
    assert write.bw_bytes == 2212 * 1024
    assert write.total_ios == 16595
    assert write.clat_ns is not None
    assert write.clat_ns.max_ns == pytest.approx(31_200_000)  # "31.2k" usec
    assert write.clat_ns.percentiles["50"] == 1_713_000


def test_windows_text_crlf() -> None:
    report = parse_fio_output(golden("fio-3.27-windows.txt"))
    [job] = report.jobs
    assert job.name == "nas-randread"
    read = job.directions["read"]
    assert read.total_ios == 834048
    assert read.iops == pytest.approx(13900, rel=1e-3)
    assert read.clat_ns is not None
    assert read.clat_ns.mean_ns == pytest.approx(18_420_000)
    assert read.clat_ns.percentiles["50"] == 18_000_000
    assert job.latency_distribution is not None
    assert job.latency_distribution.ms["100"] == pytest.approx(0.27)


# Real fio 3.33 output (a libaio randread job stopped with SIGSTOP for 1.5 s and 2.5 s while its
# I/Os were in flight, in a scratch directory): a few I/Os in the 1-2 s bucket ("2000") and a few
# in the open bucket of 2 s and more (">=2000").
@pytest.mark.parametrize("name", ["fio-3.33-stalled.txt", "fio-3.33-stalled.json"])
def test_fio333_keeps_the_open_latency_bucket_apart(name: str) -> None:
    report = parse_fio_output(golden(name))
    assert report.fio_version == "fio-3.33"
    [job] = report.jobs
    read = job.directions["read"]
    assert read.clat_ns is not None
    assert read.clat_ns.max_ns > 2e9  # one I/O did take more than 2 s
    table = job.latency_distribution
    assert table is not None
    assert table.ms["2000"] == pytest.approx(0.01)
    assert table.ms[">=2000"] == pytest.approx(0.01)
    *_, up_to, open_ended = table.buckets()
    assert (up_to.unit, up_to.bound, up_to.at_least) == ("ms", 2000, False)
    assert (open_ended.unit, open_ended.bound, open_ended.at_least) == ("ms", 2000, True)
    assert open_ended.bound_ns == 2_000_000_000
    assert job.iodepth_distribution is not None
    assert ">=64" in job.iodepth_distribution
    assert "64" not in job.iodepth_distribution


def test_text_buckets_with_the_same_bound_keep_their_own_shares() -> None:
    text = golden("fio-3.33-stalled.txt").replace(
        "2000=0.01%, >=2000=0.01%", "2000=0.02%, >=2000=0.05%"
    )
    [job] = parse_fio_output(text).jobs
    assert job.latency_distribution is not None
    assert job.latency_distribution.ms["2000"] == pytest.approx(0.02)
    assert job.latency_distribution.ms[">=2000"] == pytest.approx(0.05)
    shares = {(b.bound, b.at_least): b.percent for b in job.latency_distribution.buckets()}
    assert shares[(2000, False)] == pytest.approx(0.02)
    assert shares[(2000, True)] == pytest.approx(0.05)
    # Every bucket fio printed is there, in order of latency.
    bounds = [b.bound_ns for b in job.latency_distribution.buckets()]
    assert bounds == sorted(bounds)
    assert len(bounds) == len(job.latency_distribution.us) + len(job.latency_distribution.ms)


def test_fio3_json_keeps_the_spread_of_iops_and_bandwidth_over_the_run() -> None:
    report = parse_fio_output(golden("fio-3.33-stalled.json"))
    read = next(d for j in report.jobs for d in j.directions.values() if d.iops_spread)
    assert read.iops_spread is not None
    assert read.bw_spread is not None
    assert read.iops_spread.min == 8
    assert read.iops_spread.max == 56935
    assert read.iops_spread.stddev == pytest.approx(20226.804111)
    assert read.iops_spread.samples == 9
    assert read.bw_spread.max == 227743 * 1024  # KiB/s in fio's output, bytes/s here


def test_fio2_json_has_no_spread() -> None:
    report = parse_fio_output(golden("fio-2.2.10.json"))
    assert report.jobs[0].directions["read"].iops_spread is None
