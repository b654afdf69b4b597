"""Each finding is triggered by the result that has the problem, and a clean result has none."""

from dataclasses import replace
from typing import Any

import pytest

from storbench_api.advisor.advice import advise
from storbench_api.advisor.evidence import Evidence, MeasuredDirection
from storbench_api.advisor.findings import Severity
from storbench_api.storage_classes.expected import Provisioned, expected_figures
from storbench_api.storage_classes.schemas import Expectation, Metric, SpecIn
from storbench_protocol.facts import HostFacts, HostMount, HostNic

GIB = 1024**3
CLEAN_OPTIONS = {
    "rw": "randread",
    "bs": "4k",
    "iodepth": "32",
    "numjobs": "1",
    "direct": "1",
    "ioengine": "libaio",
    "size": "64G",
    "runtime": "60",
    "time_based": "1",
    "ramp_time": "5",
}
FACTS = HostFacts(
    os="Linux-6.1.0-amd64-x86_64-with-glibc2.36",
    memory_bytes=8 * GIB,
    mounts=[
        HostMount(source="/dev/vdb1", mountpoint="/srv", fstype="ext4", options="rw"),
        HostMount(
            source="nas:/export", mountpoint="/mnt/nas", fstype="nfs4", options="rw,vers=4.1,nconnect=4"
        ),
    ],
    nics=[HostNic(name="eth0", speed_mbps=10_000, state="up")],
    sunrpc_tcp_slot_table_entries=128,
)


def _read(
    iops: float = 20_000, bs: int = 4096, lat_ms: float = 1.6, runtime_ms: int = 60_000
) -> MeasuredDirection:
    return MeasuredDirection(
        direction="read",
        iops=iops,
        bw_bytes=iops * bs,
        runtime_ms=runtime_ms,
        lat_mean_ns=lat_ms * 1e6,
        total_ios=int(iops * runtime_ms / 1000),
        short_ios=0,
        dropped_ios=0,
    )


def clean(**changes: Any) -> Evidence:
    evidence = Evidence(
        options=dict(CLEAN_OPTIONS),
        directions=[_read()],
        facts=FACTS,
        target_path="/srv/scratch",
        target_kind="directory",
    )
    return replace(evidence, **changes)


def with_options(**options: str) -> Evidence:
    merged = {**CLEAN_OPTIONS, **options}
    return clean(options={k: v for k, v in merged.items() if v != "-"})


def codes(evidence: Evidence) -> set[str]:
    return {f.code for f in advise(evidence)}


def ssd_disk_figures(capacity: float) -> list[Any]:
    spec = SpecIn(
        expectations=[
            Expectation(metric=Metric.iops, formula="min(1200 + 30 * C, 20000)"),
            Expectation(metric=Metric.throughput, formula="min(80 + 0.5 * C, 300)"),
        ]
    )
    return expected_figures(spec, Provisioned(capacity_gib=capacity))[0]


def test_a_clean_result_has_no_findings() -> None:
    assert advise(clean()) == []


@pytest.mark.parametrize(
    ("evidence", "code"),
    [
        (with_options(direct="0", ioengine="psync", iodepth="1", numjobs="32"), "direct_off"),
        (with_options(direct="-"), "direct_off"),  # fio's default is buffered
        (with_options(direct="0"), "libaio_without_direct"),
        (
            with_options(size="1G", direct="0", ioengine="psync", iodepth="1", numjobs="32"),
            "cached_read_file",
        ),
        (clean(directions=[_read(runtime_ms=12_000)]), "short_run"),
        (with_options(bs="1M", ramp_time="-"), "no_ramp_time"),
        (with_options(bs="32k", iodepth="1"), "queue_depth_one_for_iops"),
        (clean(min_hosts=2), "too_few_hosts"),
        (clean(error=5), "fio_error"),
        (clean(directions=[replace(_read(), short_ios=12)]), "short_ios"),
        (clean(directions=[replace(_read(), bw_bytes=20_000 * 8192)]), "bandwidth_mismatch"),
        (clean(directions=[_read(lat_ms=0.2)]), "littles_law"),
    ],
)
def test_each_problem_is_found_with_a_fix(evidence: Evidence, code: str) -> None:
    found = {f.code: f for f in advise(evidence)}
    assert code in found, found
    assert found[code].message and found[code].fix


def test_a_cached_read_file_is_a_warning_when_buffered_and_a_note_with_direct_io() -> None:
    buffered = {
        f.code: f
        for f in advise(with_options(size="1G", direct="0", ioengine="psync", iodepth="1", numjobs="32"))
    }
    assert buffered["cached_read_file"].severity == Severity.warning
    direct = {f.code: f for f in advise(with_options(size="1G"))}
    assert direct["cached_read_file"].severity == Severity.info
    assert "16 GiB" in direct["cached_read_file"].fix  # twice the host's 8 GiB
    # A raw device has no page-cache-sized file.
    assert "cached_read_file" not in codes(replace(with_options(size="1G"), target_kind="block_device"))


def test_throughput_at_the_link_speed_is_client_bound_and_says_how_many_hosts_to_add() -> None:
    one_gbit = FACTS.model_copy(update={"nics": [HostNic(name="eth0", speed_mbps=1000, state="up")]})
    measured = MeasuredDirection(
        "read", iops=118, bw_bytes=118 * 2**20, runtime_ms=60_000, lat_mean_ns=270e6, total_ios=7080
    )
    evidence = clean(
        options={**CLEAN_OPTIONS, "bs": "1M"},
        directions=[measured],
        facts=one_gbit,
        figures=ssd_disk_figures(800),  # 300 MB/s
    )
    finding = {f.code: f for f in advise(evidence)}["client_bound"]
    assert "99% of the client's 1 Gb/s link" in finding.message
    assert finding.fix.startswith("add 2 hosts")  # 300 MB/s needs 3 hosts at 112.5 MB/s usable each
    assert "client_bound" not in codes(clean(options={**CLEAN_OPTIONS, "bs": "1M"}, directions=[measured]))


def test_nfs_findings_need_an_nfs_target() -> None:
    few_slots = FACTS.model_copy(update={"sunrpc_tcp_slot_table_entries": 2})
    on_nfs = clean(facts=few_slots, target_path="/mnt/nas/bench")
    assert "nfs_slot_table" in codes(on_nfs)
    assert "nfs_slot_table" not in codes(clean(facts=few_slots))  # local ext4
    # A kernel that grows the table to 65,536 slots is not capped by its starting size of 2.
    growing = few_slots.model_copy(update={"sunrpc_tcp_max_slot_table_entries": 65536})
    assert "nfs_slot_table" not in codes(clean(facts=growing, target_path="/mnt/nas/bench"))
    windows = FACTS.model_copy(update={"os": "Windows-10-10.0.19045-SP0"})
    assert "windows_nfs_single_job" in codes(clean(facts=windows, target_path="/mnt/nas/x"))
    assert "windows_nfs_single_job" not in codes(
        replace(
            with_options(numjobs="2", iodepth="16"),
            facts=windows,
            target_path="/mnt/nas/x",
            directions=[_read(lat_ms=0.8)],
        )
    )


def test_reads_above_the_spec_suspect_a_cache_and_reads_within_it_do_not() -> None:
    figures = ssd_disk_figures(800)  # 20,000 IOPS
    assert "above_spec" in codes(clean(directions=[_read(iops=60_000, lat_ms=32 / 60)], figures=figures))
    assert "above_spec" not in codes(
        clean(directions=[_read(iops=20_126, lat_ms=32 / 20.126)], figures=figures)
    )


def test_findings_come_most_serious_first() -> None:
    findings = advise(
        clean(error=5, options={**CLEAN_OPTIONS, "direct": "0"}, directions=[_read(lat_ms=0.2)])
    )
    severities = [f.severity for f in findings]
    assert severities[0] == Severity.critical
    assert severities == sorted(severities, key=[Severity.critical, Severity.warning, Severity.info].index)


def test_a_result_without_job_options_is_not_judged_by_fio_defaults() -> None:
    findings = advise(clean(options={}, error=5))
    assert [f.code for f in findings] == ["fio_error", "options_unknown"]
