"""The one CSV writer of the API's exports and the CLI: formula text neutralised, numbers kept."""

import csv
import io

import pytest

from storbench_protocol.csv_export import csv_text

HOSTILE = ['=HYPERLINK("https://evil.example","x")', "+1", "-cmd", "@SUM(A1)", "\tx", "\rx"]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_a_spreadsheet_would_run_is_made_text(text: str) -> None:
    written = csv_text(["label"], [[text]])
    # Quoted, with a leading ' that spreadsheets hide and that stops the formula.
    assert written == "label\n" + "\"'" + text.replace('"', '""') + '"\n'
    (row,) = csv.DictReader(io.StringIO(written))
    assert row["label"] == "'" + text


def test_numbers_stay_numbers_and_read_back_exactly() -> None:
    values = [-12.5, -3, 0.1 + 0.2, 1e-300, 10_000]
    written = csv_text(["a", "b", "c", "d", "e"], [values])
    assert written.splitlines()[1] == "-12.5,-3,0.30000000000000004,1e-300,10000"
    (row,) = csv.reader(io.StringIO(written.splitlines()[1]))
    assert [float(v) for v in row] == values


def test_empty_booleans_lists_and_plain_text() -> None:
    written = csv_text(["n", "b", "ids", "t", "c"], [[None, True, [1, 2], "disk A", "a,b"]])
    assert written.splitlines()[1] == ',true,1;2,disk A,"a,b"'
