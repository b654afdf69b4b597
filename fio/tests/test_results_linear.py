"""Parsing work grows linearly with the output, whatever its shape, hostile ones included.

The work is counted, not timed: the characters of the texts handed to the JSON decoder (what
it can scan, and what a failure counts lines in) plus those counted to give line numbers. Both
are scanned in C, where the quadratic costs were: a failed decode counted the lines of the
whole output before it, and each document's line number was counted from the top. Four times
the input must cost about four times the work, not sixteen. The text parser's costs
are in regular expressions, which cannot be counted: its hostile shapes are parsed at a size a
quadratic expression could not get through.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from storbench_fio import results, results_json, results_text
from storbench_fio.errors import ParseError
from storbench_fio.results import FioReport, parse_fio_output, parse_fio_stream

GOLDEN = Path(__file__).parent / "golden"
# A fio 2.2 JSON document, as fio printed it (the golden file starts with a warning line).
DOCUMENT = (GOLDEN / "fio-2.2.10.json").read_text().split("\n", 1)[1]
TEXT = (GOLDEN / "fio-2.2.10.txt").read_text()
# Its job alone, without the setup line and the group summary.
JOB = TEXT[TEXT.index("randread: (groupid") : TEXT.index("Run status group")]


def work(parse: Callable[[str], object], text: str) -> int:
    """Characters decoded or counted for line numbers while parsing text."""
    counted = 0
    raw_decode = json.JSONDecoder.raw_decode
    line_col = results._line_col

    def counting_raw_decode(self: json.JSONDecoder, s: str, idx: int = 0) -> tuple[Any, int]:
        nonlocal counted
        counted += len(s)  # a failure counts the lines of s up to it
        return raw_decode(self, s, idx)

    def counting_line_col(text: str, pos: int) -> tuple[int, int]:
        nonlocal counted
        counted += pos
        return line_col(text, pos)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json.JSONDecoder, "raw_decode", counting_raw_decode)
        patch.setattr(results, "_line_col", counting_line_col)
        try:
            outcome = parse(text)
        except ParseError:
            outcome = None
    assert outcome is None or isinstance(outcome, FioReport | list)
    return counted


def stream(n: int) -> str:
    """A --status-interval stream of n documents."""
    return DOCUMENT * n


def cut_stream(n: int) -> str:
    """n documents each cut short at a line end, then one whole document."""
    cut = DOCUMENT[: DOCUMENT.index("\n", len(DOCUMENT) // 2) + 1]
    return cut * n + DOCUMENT


def brace_lines(n: int) -> str:
    """Lines starting with '{' that start no JSON document, mentioning "jobs"."""
    lines = ['{"jobs" : [1, 2,', '{"read" : }', "{ not json", '{"x" : 1', "{", "plain text"]
    return "\n".join(lines * n) + "\n"


def open_objects(n: int) -> str:
    """Objects at line starts, each inside the previous one, none ever closed."""
    return ('{"jobs" : [\n' + "  1,\n" * 40) * n


def flat_objects(n: int) -> str:
    """Objects at line starts inside one damaged document, as json.dumps(indent=0) writes."""
    jobs = json.loads(DOCUMENT)["jobs"] * n
    return json.dumps({"fio version": "fio-2.2.10", "jobs": jobs}, indent=0)[:-40]


def empty_objects(n: int) -> str:
    """Line-start JSON objects that are not fio documents."""
    return "{}\n" * (50 * n)


SHAPES = [stream, cut_stream, brace_lines, open_objects, flat_objects, empty_objects]


@pytest.mark.parametrize("parse", [parse_fio_output, parse_fio_stream])
@pytest.mark.parametrize("shape", SHAPES)
def test_work_grows_linearly(shape: Callable[[int], str], parse: Callable[[str], object]) -> None:
    small, large = work(parse, shape(100)), work(parse, shape(400))
    assert small > 0
    assert large <= 5 * small, f"{shape.__name__}: 4x the input took {large / small:.1f}x the work"


def test_stream_reports_every_document_once() -> None:
    reports = parse_fio_stream(stream(200))
    assert len(reports) == 200
    assert work(parse_fio_stream, stream(200)) <= 2 * len(stream(200))


def test_cut_stream_recovers_the_whole_document_at_its_end() -> None:
    report = parse_fio_output(cut_stream(200))
    assert report == parse_fio_output(DOCUMENT)


def test_too_many_brace_lines_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results, "MAX_DOCUMENT_STARTS", 1000)
    parse_fio_output("{x\n" * 1000 + JOB)
    with pytest.raises(ParseError, match=r"more than 1000 lines start with '\{'"):
        parse_fio_output("{x\n" * 1001 + JOB)


def test_nesting_deeper_than_json_decodes_is_refused() -> None:
    text = ('{"jobs" : [\n' + "  1,\n" * 10) * 2000
    with pytest.raises(ParseError, match="nested too deeply"):
        parse_fio_output(text)


def test_a_document_after_one_too_deep_is_still_found() -> None:
    deep = '{"jobs" : ' + "[" * 5000 + "\n"
    assert parse_fio_output(deep + DOCUMENT) == parse_fio_output(DOCUMENT)


MIB = 1 << 20
HEADER = "j: (groupid=0, jobs=1): err= 0\n  read: IOPS=1, BW=1MiB/s (1MB/s)(1MiB/1msec)\n"
# Lines that took one of the text parser's expressions quadratic (or worse) time.
LONG_LINES = {
    "progress without eta": "Jobs: [eta " * (MIB // 11),
    "progress without bracket": "Jobs: " * (MIB // 6) + "[eta 00m:01s",
    "distribution without percent": "lat (usec): " + "=" * MIB,
    "distribution of digits": "lat (usec): 4=1%, " + "1" * MIB,
    "depths of digits": "IO depths : " + "1" * MIB,
    "percentiles of digits": "clat percentiles (usec):\n| 1.00th=[ 10], " + "9" * MIB,
    "header of colons": "j" + ": " * MIB + "(groupid=",
    "setup of colons": "j" + ": " * MIB + "(g=",
    "direction of parentheses": "read: IOPS=1, BW=1MiB/s " + "(" * MIB,
}


@pytest.mark.parametrize("line", LONG_LINES.values(), ids=list(LONG_LINES))
def test_very_long_text_lines_parse(line: str) -> None:
    report = parse_fio_output(HEADER + line + "\n")
    assert [job.name for job in report.jobs] == ["j"]
    assert report.jobs[0].directions["read"].runtime_ms == 1


def test_many_jobs_of_text_parse() -> None:
    text = "".join(JOB.replace("randread:", f"job{i}:") for i in range(2000))
    report = parse_fio_output(text)
    assert [job.name for job in report.jobs] == [f"job{i}" for i in range(2000)]


def test_too_many_result_lines_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results_text, "MAX_RESULT_LINES", 1000)
    parse_fio_output(JOB + "lat\n" * (1000 - JOB.count("\n")))
    with pytest.raises(ParseError, match="more than 1000 lines look like fio results"):
        parse_fio_output(JOB + "lat\n" * 1000)


def json_jobs(n: int) -> str:
    return json.dumps({"jobs": json.loads(DOCUMENT)["jobs"] * n})


def text_jobs(n: int) -> str:
    return JOB * n


@pytest.mark.parametrize(("module", "jobs"), [(results_json, json_jobs), (results_text, text_jobs)])
def test_too_many_jobs_are_refused(
    module: ModuleType, jobs: Callable[[int], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "MAX_JOBS", 3)
    assert len(parse_fio_output(jobs(3)).jobs) == 3
    with pytest.raises(ParseError, match="more than 3 jobs"):
        parse_fio_output(jobs(4))


def test_many_junk_lines_around_a_result_parse() -> None:
    junk = "x\n" * MIB
    report = parse_fio_output(junk + TEXT + junk)
    assert report == parse_fio_output(TEXT)


def test_long_version_string_parses() -> None:
    doc = json.loads(DOCUMENT)
    doc["fio version"] = "fio-" + "2" * MIB
    report = parse_fio_output(json.dumps(doc))
    assert report.jobs == parse_fio_output(DOCUMENT).jobs


def test_fio2_histogram_bin_past_any_latency_is_refused() -> None:
    text = (GOLDEN / "fio-2.14-jsonplus.json").read_text()
    doc = json.loads(text)
    doc["jobs"][0]["write"]["clat"]["bins"][str(1 << 44)] = 1  # 1 << 2**38 would be 32 GiB
    with pytest.raises(ParseError, match="bad histogram bin"):
        parse_fio_output(json.dumps(doc))
