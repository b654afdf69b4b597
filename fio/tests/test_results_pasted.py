"""Outputs as users paste them: JSON indented as a code block or quoted in an email, and fio 2.x
terminal text whose io figure is rounded (io_bytes then comes from the I/Os fio issued)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storbench_fio.results import parse_fio_output, parse_fio_stream

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    "prefix",
    ["    ", "\t", "> ", ">> ", "  > "],
    ids=["code block", "tab", "quote", "2 quotes", "x"],
)
def test_an_indented_or_quoted_json_output_is_read(prefix: str) -> None:
    text = (GOLDEN / "fio-3.33-stalled.json").read_text()
    pasted = "Here is what fio printed:\n\n" + "\n".join(
        prefix + line for line in text.splitlines()
    )
    assert parse_fio_output(pasted) == parse_fio_output(text)
    assert parse_fio_stream(pasted) == parse_fio_stream(text)


FIO_2 = (GOLDEN / "fio-2.2.10.txt").read_text()


def test_fio_2_text_io_bytes_are_issued_ios_times_the_block_size() -> None:
    # fio printed io=1024.0MB; 262000 reads of 4 KiB are 1,073,152,000 bytes.
    text = FIO_2.replace("total=r=262144/", "total=r=262000/")
    [job] = parse_fio_output(text).jobs
    assert job.directions["read"].io_bytes == 262000 * 4096
    assert job.directions["read"].total_ios == 262000


def test_the_printed_figure_stays_when_the_block_size_varies() -> None:
    text = FIO_2.replace("total=r=262144/", "total=r=262000/").replace(
        "bs=4K-4K/4K-4K/4K-4K", "bs=4K-64K/4K-64K/4K-64K"
    )
    [job] = parse_fio_output(text).jobs
    assert job.directions["read"].io_bytes == 1024 << 20


def test_fio_3_pasted_text_io_bytes_are_exact() -> None:
    report = parse_fio_output((GOLDEN / "fio-3.x-pasted.txt").read_text())
    for job in report.jobs:
        for direction in job.directions.values():
            assert direction.total_ios is not None
            assert direction.io_bytes == direction.total_ios * 4096
