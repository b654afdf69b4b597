"""FioJob and validate_job_dict: fio's value grammar and error reporting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storbench_fio.errors import FioJobError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.options import canonical_option_name


def errors_by_option(d: dict[str, object]) -> dict[str, str]:
    with pytest.raises(FioJobError) as info:
        validate_job_dict(d)
    return {e.option: e.reason for e in info.value.errors}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4k", 4096),
        ("4K", 4096),
        ("4kb", 4096),
        ("4KB", 4096),
        ("4ki", 4096),
        # fio 3.33 reads the IEC spelling as powers of 1000 under the default kb_base=1024.
        ("4KiB", 4000),
        ("1m", 1 << 20),
        ("1M", 1 << 20),
        ("1g", 1 << 30),
        ("1G", 1 << 30),
        ("0x1000", 4096),
        ("4096", 4096),
        ("512b", 512),
        (8192, 8192),
    ],
)
def test_bs_accepts_fio_units(text: object, expected: int) -> None:
    assert validate_job_dict({"name": "a", "rw": "read", "bs": text}).bs == expected


def test_kb_base_1000_swaps_prefixes() -> None:
    job = validate_job_dict({"name": "a", "rw": "read", "kb_base": "1000", "bs": "4k"})
    assert job.bs == 4000
    job = validate_job_dict({"name": "a", "rw": "read", "kb_base": "1000", "bs": "4KiB"})
    assert job.bs == 4096


def test_normalises_common_forms() -> None:
    job = validate_job_dict(
        {
            "name": "nas-1",
            "readwrite": "readwrite",
            "blocksize": "1m",
            "size": "10%",
            "runtime": "1m",
            "ramp_time": "5s",
            "time_based": None,
            "direct": "1",
            "group_reporting": "",
            "sync": "dsync",
            "fallocate": "1",
            "percentile_list": "50:90:99.9",
            "bssplit": "4k/10:64k/50:32k/40",
            "ioengine": "LIBAIO",
        }
    )
    assert job.rw == "rw"
    assert job.bs == 1 << 20
    assert job.size == "10%"
    assert job.runtime == 60
    assert job.ramp_time == 5
    assert job.time_based is True
    assert job.direct is True
    assert job.group_reporting is True
    assert job.sync == "dsync"
    assert job.fallocate == "posix"
    assert job.percentile_list == [50.0, 90.0, 99.9]
    assert job.ioengine == "libaio"


def test_sync_accepts_bool_and_strings() -> None:
    assert validate_job_dict({"name": "a", "rw": "write", "sync": "1"}).sync is True
    assert validate_job_dict({"name": "a", "rw": "write", "sync": "none"}).sync is False
    assert validate_job_dict({"name": "a", "rw": "write", "sync": "sync"}).sync == "sync"


def test_reports_every_offending_option_at_once() -> None:
    errors = errors_by_option(
        {
            "name": "../bad",
            "rw": "sideways",
            "bs": "-4k",
            "iodepth": 0,
            "size": "1.5m",
            "runtime": "5x",
            "bogus_option": "1",
            "bsrange": "1k-x",
            "bssplit": "4k/60:8k/60",
            "percentile_list": "0:50",
            "direct": "maybe",
        }
    )
    assert set(errors) == {
        "name",
        "rw",
        "bs",
        "iodepth",
        "size",
        "runtime",
        "bogus_option",
        "bsrange",
        "bssplit",
        "percentile_list",
        "direct",
    }
    assert errors["bogus_option"] == "option not known to fio 3.33, which this host runs"
    assert "fractional" in errors["size"]
    assert "negative" in errors["bs"]
    assert "120" in errors["bssplit"]


def test_missing_name_is_refused_and_missing_rw_reads_as_fio_default() -> None:
    errors = errors_by_option({"bs": "4k"})
    assert errors == {"name": "required option is missing"}
    with pytest.raises(FioJobError) as info:
        validate_job_dict({"bs": "4k"})
    assert info.value.errors[0].value == ""  # the option's value, never the whole job
    assert validate_job_dict({"name": "a"}).rw == "read"


def test_refuses_absurd_and_zero_values() -> None:
    errors = errors_by_option(
        {"name": "a", "rw": "read", "numjobs": 100000, "size": "0", "bs": "4g", "runtime": "90d"}
    )
    assert set(errors) == {"numjobs", "size", "bs", "runtime"}


def test_percent_only_where_fio_allows_it() -> None:
    assert validate_job_dict({"name": "a", "rw": "read", "offset": "20%"}).offset == "20%"
    assert "bs" in errors_by_option({"name": "a", "rw": "read", "bs": "10%"})
    assert "size" in errors_by_option({"name": "a", "rw": "read", "size": "150%"})


def test_value_cannot_smuggle_newlines() -> None:
    assert "filename" in errors_by_option({"name": "a", "rw": "read", "filename": "x\nexec"})


def test_model_rejects_options_fio_does_not_know() -> None:
    with pytest.raises(ValueError, match=r"not known to fio 3\.33"):
        FioJob.model_validate({"name": "a", "rw": "read", "nope": "1"})


def test_model_keeps_other_fio_options_as_fio_text() -> None:
    job = validate_job_dict({"name": "a", "thinktime": 1000, "exitall": None, "nr_files": "2"})
    assert job.fio_options() == {
        "name": "a",
        "rw": "read",
        "nrfiles": 2,
        "thinktime": "1000",
        "exitall": "1",
    }


def test_every_model_field_is_fios_name_or_spelling() -> None:
    assert [f for f in FioJob.model_fields if canonical_option_name(f) != f] == []


@given(st.integers(min_value=1, max_value=1 << 28), st.sampled_from(["", "k", "m", "g"]))
def test_size_units_scale_by_1024(number: int, unit: str) -> None:
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[unit]
    job = validate_job_dict({"name": "a", "rw": "read", "size": f"{number}{unit}"})
    assert job.size == number * scale
