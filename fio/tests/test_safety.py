"""Safety: every refused category, and everything reported at once."""

from __future__ import annotations

import pytest

from storbench_fio.errors import FioJobError
from storbench_fio.job import validate_job_dict
from storbench_fio.options import canonical_option_name
from storbench_fio.safety import (
    SafetyLimits,
    SafetyTarget,
    check_fio_text,
    check_job_safety,
    check_jobs_safety,
)

SCRATCH = SafetyTarget(kind="directory", path="/mnt/scratch", free_bytes=100 << 30)
DEVICE = SafetyTarget(kind="block_device", path="/dev/sdb")
LIMITS = SafetyLimits()
BASE = {"name": "j", "rw": "randread", "bs": "4k", "size": "64m", "runtime": "10"}


def reasons(
    extra: dict[str, str | None], target: SafetyTarget = SCRATCH, limits: SafetyLimits = LIMITS
) -> dict[str, str]:
    return {e.option: e.reason for e in check_job_safety({**BASE, **extra}, target, limits)}


def test_plain_job_is_safe() -> None:
    assert reasons({}) == {}
    job = validate_job_dict({**BASE, "directory": "sub", "filename": "data.bin"})
    assert check_job_safety(job, SCRATCH, LIMITS) == []


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("exec_prerun", "rm -rf /", "program"),
        ("exec_postrun", "reboot", "program"),
        ("trigger", "/bin/sh", "program"),
        ("trigger-file", "/tmp/t", "program"),
        ("trigger-timeout", "10", "program"),
        ("trigger-remote-cmd", "x", "program"),
        ("ioengine", "exec", "program"),
        ("ioengine", "external:/tmp/evil.so", "loads code"),
        ("ioengine", "net", "network"),
        ("ioengine", "rdma", "network"),
        ("ioengine", "http", "network"),
        ("ioengine", "nbd", "network"),
        ("ioengine", "libiscsi", "network"),
        ("include", "other.fio", "outside"),
        ("read_iolog", "/var/log/x", "outside"),
        ("write_iolog", "/etc/x", "outside"),
        ("replay_redirect", "/dev/sda", "outside"),
        ("write_bw_log", "/etc/cron.d/x", "plain name"),
        ("write_lat_log", "../x", "plain name"),
        ("ioengine", "xnvme", "device"),
        ("ioengine", "sg", "device"),
        ("filename_format", "/tmp/$jobname", "plain names"),
        ("verify_state_load", "1", "outside"),
        ("verify_state_save", "1", "outside"),
        ("buffer_pattern", "/etc/shadow", "inline"),
        ("size", "${SIZE}", "expansion"),
        ("size", "$mb_memory", "expansion"),
        ("ioscheduler", "none", "host"),
        ("cgroup", "x", "host"),
        ("uid", "0", "host"),
        ("gid", "0", "host"),
        ("prioclass", "1", "host"),
        ("nice", "-20", "host"),
        ("lockmem", "1g", "host"),
        ("mem", "mmaphuge:/hugetlbfs/file", "outside"),
        ("iomem", "mmapshared:/dev/shm/x", "outside"),
        ("allow_mounted_write", "1", "mounted"),
        ("fill_fs", "1", "fills"),
    ],
)
def test_refused_option(option: str, value: str, words: str) -> None:
    found = reasons({option: value})
    # An alias is refused under the name the model uses for it (iomem as mem).
    name = canonical_option_name(option)
    assert name in found
    assert words in found[name]
    assert "(safety rule: " in found[name]


def test_harmless_values_of_guarded_options() -> None:
    assert reasons({"nice": "5", "prioclass": "2", "buffer_pattern": "0xdeadbeef"}) == {}
    assert reasons({"write_bw_log": None, "log_avg_msec": "1000"}) == {}
    assert reasons({"verify_state_save": "0"}) == {}
    assert reasons({"write_iops_log": "x", "log_avg_msec": "1000"}) == {}


def test_standard_options_fio_knows_are_safe() -> None:
    harmless = {
        "exitall": None,
        "thinktime": "10ms",
        "wait_for": "other",
        "flow": "1",
        "continue_on_error": "all",
        "ignore_error": "EIO",
        "io_submit_mode": "offload",
        "rate_process": "poisson",
        "random_generator": "lfsr",
        "dedupe_percentage": "30",
        "verify_backlog": "1024",
        "numa_cpu_nodes": "0",
        "sqthread_poll_cpu": "1",
        "latency_target": "10ms",
        "prio": "3",
        "prioclass": "3",
        "lockfile": "exclusive",
    }
    assert reasons(harmless) == {}


def test_xnvme_is_a_local_device_engine() -> None:
    assert reasons({"ioengine": "xnvme", "size": None}, DEVICE) == {}


def test_logs_need_averaging() -> None:
    assert "log_avg_msec" in reasons({"write_lat_log": None})
    assert "log_avg_msec" in reasons({"log_avg_msec": "10"})


@pytest.mark.parametrize("rw", ["trim", "randtrim", "trimwrite"])
def test_trims_only_on_destructive_device(rw: str) -> None:
    # On a directory a trim punches holes in the run's own files only.
    assert reasons({"rw": rw}) == {}
    assert "rw" in reasons({"rw": rw, "size": None}, DEVICE)
    ok = DEVICE.model_copy(update={"destructive": True, "confirmed_destructive": True})
    assert reasons({"rw": rw}, ok) == {}


def test_device_writes_need_confirmation_and_never_mounted() -> None:
    assert "rw" in reasons({"rw": "randwrite"}, DEVICE)
    unconfirmed = DEVICE.model_copy(update={"destructive": True})
    assert "rw" in reasons({"rw": "write"}, unconfirmed)
    confirmed = unconfirmed.model_copy(update={"confirmed_destructive": True})
    assert reasons({"rw": "write"}, confirmed) == {}
    mounted = confirmed.model_copy(update={"mounted": True})
    assert "mounted" in reasons({"rw": "write"}, mounted)["rw"]
    assert reasons({"rw": "read"}, DEVICE.model_copy(update={"mounted": True})) == {}


@pytest.mark.parametrize("rw", ["readwrite", "randreadwrite", "RandReadWrite:8", "randtrimwrite"])
def test_every_spelling_of_a_write_pattern_is_refused_on_a_mounted_device(rw: str) -> None:
    mounted = DEVICE.model_copy(
        update={"destructive": True, "confirmed_destructive": True, "mounted": True}
    )
    assert "rw" in reasons({"rw": rw}, mounted)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("filename", "../../etc/passwd", ".."),
        ("filename", "/etc/passwd", "absolute"),
        ("filename", " /etc/passwd", "blanks"),
        ("filename", "\t/etc/passwd", "blanks"),
        ("directory", "/etc ", "blanks"),
        ("filename", "ok:/dev/sda", "':'"),
        ("filename", "/mnt/scratch/x", "absolute"),
        ("directory", "/", "absolute"),
        ("directory", "sub/../../x", ".."),
        ("directory", "/mnt/scratch:/home", "absolute"),
        ("filename", "a\\b", "A-Z"),
        ("filename", "$jobnum", "A-Z"),
        ("filename", "C:\\data", "absolute"),
        ("filename", "x\u00a0", "blanks"),
        ("directory", "a//b", "A-Z"),
    ],
)
def test_paths_are_plain_names_inside_the_run_directory(
    option: str, value: str, words: str
) -> None:
    assert words in reasons({option: value})[option]


def test_relative_names_inside_the_run_directory_are_fine() -> None:
    assert reasons({"filename": "data/file-1.bin", "directory": "sub"}) == {}


def test_a_job_name_starting_with_global_is_refused() -> None:
    with pytest.raises(FioJobError) as info:
        validate_job_dict({**BASE, "name": "global-x"})
    assert "global" in info.value.errors[0].reason


def test_device_target_only_its_own_device() -> None:
    assert "filename" in reasons({"filename": "/dev/sda", "size": None}, DEVICE)
    assert "filename" in reasons({"filename": " /dev/sdb", "size": None}, DEVICE)
    assert reasons({"filename": "/dev/sdb", "size": None}, DEVICE) == {}
    assert "directory" in reasons({"directory": "x", "size": None}, DEVICE)


def test_a_block_device_runs_on_one_host_only() -> None:
    several = DEVICE.model_copy(update={"host_count": 3})
    assert "one host" in reasons({"size": None}, several)["host_ids"]


def test_limits() -> None:
    found = reasons({"numjobs": "129", "iodepth": "2048", "runtime": "2h", "nrfiles": "20000"})
    assert set(found) == {"numjobs", "iodepth", "runtime", "nrfiles"}
    assert "runtime" in reasons({"runtime": "3500", "ramp_time": "200"})
    no_runtime = {k: v for k, v in BASE.items() if k != "runtime"}
    assert "runtime" in {e.option for e in check_job_safety(no_runtime, SCRATCH, LIMITS)}


def test_total_size_against_free_space() -> None:
    small = SCRATCH.model_copy(update={"free_bytes": 1 << 30})
    jobs = [
        {**BASE, "name": "a", "size": "512m", "numjobs": "2"},
        {**BASE, "name": "b", "filesize": "100m", "nrfiles": "2"},
    ]
    # 2 x 512 MiB + 200 MiB > 90% of 1 GiB
    assert {e.option for e in check_jobs_safety(jobs, small, LIMITS)} == {"size"}
    shared = [{**BASE, "size": "512m", "numjobs": "4", "filename": "one"}]
    assert check_jobs_safety(shared, small, LIMITS) == []
    # Only the target's free space bounds a run by default; a deployment may set its own ceiling.
    assert check_jobs_safety([{**BASE, "size": "70g"}], SCRATCH, LIMITS) == []
    assert {e.option for e in check_jobs_safety([{**BASE, "size": "95g"}], SCRATCH, LIMITS)} == {
        "size"
    }
    capped = SafetyLimits(max_total_size_bytes=64 << 30)
    [error] = check_jobs_safety([{**BASE, "size": "70g"}], SCRATCH, capped)
    assert "at most 64 GiB on this service" in error.reason


@pytest.mark.parametrize(
    "extra",
    [
        {"offset": "900m"},
        {"offset_increment": "300m", "numjobs": "4"},
        {"offset": "100%"},
    ],
)
def test_offsets_count_against_free_space(extra: dict[str, str]) -> None:
    small = SCRATCH.model_copy(update={"free_bytes": 1 << 30})
    assert check_jobs_safety([{**BASE, "size": "512m"}], small, LIMITS) == []
    refused = check_jobs_safety([{**BASE, "size": "512m", **extra}], small, LIMITS)
    assert [e.option for e in refused] == ["size"]
    assert "GiB" in refused[0].reason or "MiB" in refused[0].reason


def test_fio_buffers_must_fit_the_memory_budget() -> None:
    greedy = {**BASE, "bs": "1m", "iodepth": "1024", "numjobs": "64"}  # 64 GiB of buffers
    found = check_jobs_safety([greedy], SCRATCH, LIMITS)
    assert [e.option for e in found] == ["iodepth"]
    assert "64" in found[0].reason
    host = SCRATCH.model_copy(update={"host_memory_bytes": 4 << 30})
    medium = {
        **BASE,
        "bs": "1m",
        "iodepth": "128",
        "numjobs": "16",
    }  # 2 GiB + overhead > 50% of 4 GiB
    assert check_jobs_safety([medium], SCRATCH, LIMITS) == []
    assert "host's 4 GiB" in check_jobs_safety([medium], host, LIMITS)[0].reason
    # Jobs separated by stonewall run one after another: only the larger counts.
    one_then_other: list[dict[str, str | None]] = [
        {**BASE, "name": "a", "bs": "1m", "iodepth": "1024", "numjobs": "4"},
        {**BASE, "name": "b", "bs": "1m", "iodepth": "1024", "numjobs": "4", "stonewall": None},
    ]
    assert check_jobs_safety(one_then_other, SCRATCH, LIMITS) == []
    at_once = [{**job, "stonewall": "0"} for job in one_then_other]
    assert [e.option for e in check_jobs_safety(at_once, SCRATCH, LIMITS)] == ["iodepth"]


def test_check_fio_text_reports_everything_once() -> None:
    text = (
        "fio --ioengine=libaio --exec_prerun=/bin/sh --name=a --rw=randread --bs=4k "
        "--size=1g --runtime=10 --name=b --rw=randtrim --size=1g --runtime=10 --iodepth=0 "
        "--filename=/etc/passwd"
    )
    with pytest.raises(FioJobError) as info:
        check_fio_text(text, SCRATCH, LIMITS)
    found = {(e.job, e.option) for e in info.value.errors}
    assert found == {(None, "exec_prerun"), ("b", "iodepth"), ("b", "filename")}


def test_check_fio_text_returns_jobs_when_safe() -> None:
    jobs = check_fio_text("[a]\nrw=write\nbs=1m\nsize=1g\nruntime=5\n", SCRATCH, LIMITS)
    assert [j.name for j in jobs] == ["a"]


def test_threads_cost_less_memory_than_job_processes() -> None:
    # 128 jobs of 1 MiB blocks: as threads of one fio process they fit a 2 GiB host's half,
    # as 128 processes (each with its own ~8 MiB) they do not.
    host = SCRATCH.model_copy(update={"host_memory_bytes": 2 << 30})
    jobs = {**BASE, "bs": "1m", "iodepth": "1", "numjobs": "128", "size": "1m"}
    assert check_jobs_safety([{**jobs, "thread": None}], host, LIMITS) == []
    [error] = check_jobs_safety([jobs], host, LIMITS)
    assert "host's 2 GiB" in error.reason


def test_a_region_larger_than_the_device_is_refused_with_its_size() -> None:
    small = DEVICE.model_copy(update={"device_bytes": 40 << 30})
    [error] = check_jobs_safety([{**BASE, "size": "100G"}], small, LIMITS)
    assert error.option == "size"
    assert "needs 100 GiB of the device" in error.reason
    assert "/dev/sdb holds 40 GiB" in error.reason
    assert check_jobs_safety([{**BASE, "size": "40G"}], small, LIMITS) == []
    assert check_jobs_safety([{**BASE, "size": "50%"}], small, LIMITS) == []
    unknown = DEVICE  # the device's size is not known yet: checked again on the host
    assert check_jobs_safety([{**BASE, "size": "100G"}], unknown, LIMITS) == []
