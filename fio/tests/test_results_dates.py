"""When fio reported: JSON outputs' timestamp, text outputs' date line."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta
from pathlib import Path

from fio_testkit import requires_fio, tiny_job_args

from storbench_fio.results import parse_fio_output

GOLDEN = Path(__file__).parent / "golden"


def test_text_outputs_keep_the_date_of_their_first_job_header() -> None:
    old = parse_fio_output((GOLDEN / "fio-2.2.10.txt").read_text())
    assert old.local_time == datetime(2016, 7, 7, 10, 0, 0)
    windows = parse_fio_output((GOLDEN / "fio-3.27-windows.txt").read_text())
    assert windows.local_time == datetime(2022, 3, 7, 10, 15, 2)
    # A header glued to the last progress line of a terminal paste still gives its date.
    pasted = parse_fio_output((GOLDEN / "fio-3.x-pasted.txt").read_text())
    assert pasted.local_time == datetime(2020, 3, 3, 12, 0, 0)


def test_json_outputs_keep_their_timestamp_not_a_local_time() -> None:
    report = parse_fio_output((GOLDEN / "fio-2.2.10.json").read_text())
    assert report.timestamp == 1467884400
    assert report.local_time is None


def test_a_header_without_a_date_leaves_none() -> None:
    text = (GOLDEN / "fio-2.2.10.txt").read_text().replace(": Thu Jul  7 10:00:00 2016", "")
    assert parse_fio_output(text).local_time is None


@requires_fio
def test_real_fio_text_output_is_dated_now(tmp_path: Path) -> None:
    argv = ["fio", *tiny_job_args(tmp_path, runtime="1")]
    output = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    report = parse_fio_output(output)
    assert report.source_format == "text"
    assert report.local_time is not None
    assert abs(report.local_time - datetime.now()) < timedelta(minutes=5)
