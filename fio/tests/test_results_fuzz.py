"""Property tests: damaged real outputs parse or raise ParseError, nothing else."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fio_testkit import FIO, requires_fio, tiny_job_args
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from storbench_fio import results, results_text
from storbench_fio.errors import ParseError
from storbench_fio.results import FioReport, parse_fio_output, parse_fio_stream

GOLDEN = Path(__file__).parent / "golden"
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@functools.cache
def real_outputs() -> tuple[str, ...]:
    """json, json+, normal text and a status-interval stream from the real fio, once."""
    outputs: list[str] = []
    if FIO is None:
        return ()
    with tempfile.TemporaryDirectory() as scratch:
        base = tiny_job_args(Path(scratch), rw="randrw", size="4m")
        for extra in (
            ["--output-format=json"],
            ["--output-format=json+"],
            ["--output-format=normal"],
            ["--output-format=json", "--status-interval=1", "--runtime=2"],
        ):
            proc = subprocess.run(
                [FIO, *base, *extra], capture_output=True, text=True, timeout=30, check=True
            )
            outputs.append(proc.stdout)
    return tuple(outputs)


def samples() -> list[str]:
    golden = [p.read_bytes().decode() for p in sorted(GOLDEN.iterdir())]
    return [*real_outputs(), *golden]


def parses_or_refuses(text: str) -> None:
    for parse in (parse_fio_output, parse_fio_stream):
        try:
            result: Any = parse(text)
        except ParseError:
            continue
        reports = result if isinstance(result, list) else [result]
        assert all(isinstance(r, FioReport) for r in reports)


@st.composite
def text_mutation(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(samples()))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start, min(len(text), start + 200)))
        kind = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "duplicate"]))
        junk = draw(
            st.text(alphabet=st.characters(codec="utf-8"), max_size=20)
            | st.sampled_from(
                ["{", "}", '"', ",", "nan", "-1", "1e999", "[", "]", "k", "%", "th=[", "\n", "\r"]
            )
        )
        if kind == "delete":
            text = text[:start] + text[end:]
        elif kind == "insert":
            text = text[:start] + junk + text[start:]
        elif kind == "replace":
            text = text[:start] + junk + text[end:]
        elif kind == "truncate":
            text = text[:start]
        else:
            text = text[:end] + text[start:end] + text[end:]
    return text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def json_mutation(draw: st.DrawFn) -> str:
    sources = [s for s in samples() if '"jobs"' in s]
    text = draw(st.sampled_from(sources))
    doc, _ = json.JSONDecoder().raw_decode(text, text.index("{"))
    paths = [p for p in _paths(doc) if p]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        try:
            for step in path[:-1]:
                parent = parent[step]
            if draw(st.booleans()):
                parent[path[-1]] = draw(json_values)
            elif isinstance(parent, dict):
                del parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    return json.dumps(doc, allow_nan=True)


@requires_fio
@FUZZ
@given(text_mutation())
def test_mutated_outputs_parse_or_raise_parse_error(text: str) -> None:
    parses_or_refuses(text)


@requires_fio
@FUZZ
@given(json_mutation())
def test_mutated_json_documents_parse_or_raise_parse_error(text: str) -> None:
    parses_or_refuses(text)


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text_parses_or_raises_parse_error(text: str) -> None:
    parses_or_refuses(text)


# A job whose next lines may continue its percentile list.
PERCENTILE_HEADER = (
    "j: (groupid=0, jobs=1): err= 0\nread: IOPS=1, BW=1MiB/s (1MB/s)(1MiB/1msec)\n"
    "clat (usec): min=1, max=2, avg=1, stdev=1\nclat percentiles (usec):\n"
)
# Hostile shapes: what made the parser quadratic, in small doses, mixed with real output.
HOSTILE = [
    "{",
    '{"jobs" : [',
    '{"jobs" : [\n',
    "[" * 40,
    "}",
    "]",
    ",",
    '"',
    "\n",
    "\r",
    "\u2028",
    "Jobs: [eta ",
    "Jobs: 1 (f=1): [r(1)][eta 00m:01s]",
    "lat (usec): ",
    "IO depths : ",
    "clat percentiles (usec):\n",
    "| ",
    "th=[",
    "1" * 30,
    "=",
    "%",
    ": ",
    "j: (groupid=0, jobs=1): err= 0\n",
    "(g=",
    PERCENTILE_HEADER,
    "| 1.00th=[ 10], 5.00th=[ 20]\n",
    "x\n",
]


@st.composite
def hostile_output(draw: st.DrawFn) -> str:
    pieces = st.sampled_from(HOSTILE) | st.sampled_from(samples()) | st.text(max_size=5)
    return "".join(draw(st.lists(pieces, max_size=30)))


@FUZZ
@given(hostile_output())
def test_hostile_outputs_parse_or_raise_parse_error(text: str) -> None:
    parses_or_refuses(text)


# The JSON documents found must be those found by decoding each line-start '{' against the
# whole text, as the parser once did (quadratic, but plainly right): slices of the text must
# change nothing. The one difference allowed is that the parser stops reading again objects
# still open inside damaged documents once that has cost the length of the text.
_LINE_START_BRACE = re.compile(r"^\{", re.MULTILINE)


def whole_text_scan(text: str) -> tuple[list[tuple[int, dict[str, Any]]], str | None, bool]:
    """The documents, why the first '{' failed, and whether the parser would have stopped."""
    decoder = json.JSONDecoder()
    found: list[tuple[int, dict[str, Any]]] = []
    first_error: str | None = None
    damaged_until, rereads = -1, len(text)
    first = _LINE_START_BRACE.search(text)
    pos = 0
    while (match := _LINE_START_BRACE.search(text, pos)) is not None:
        start = match.start()
        try:
            doc, pos = decoder.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            if first is not None and start == first.start():
                first_error = f"{exc.msg} (line {exc.lineno}, char {exc.colno})"
            if start < damaged_until:
                rereads -= damaged_until - start
            else:
                damaged_until = exc.pos
            pos = start + 1
            continue
        if isinstance(doc, dict) and ("jobs" in doc or "client_stats" in doc):
            found.append((start, doc))
    return found, first_error, rereads <= 0


JSON_PIECES = ["{", '{"a":', '{"jobs": [', '{"jobs": 1}', "{}", "[1, 2", "}", "]", "plain", "\n{"]


@st.composite
def json_outputs(draw: st.DrawFn) -> str:
    documents = [s[s.index("{") :] for s in samples() if '"jobs"' in s]
    pieces: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["whole", "cut", "mutated", "piece", "piece"]))
        if kind == "piece":
            pieces.append(draw(st.sampled_from(JSON_PIECES)))
            continue
        doc, _ = json.JSONDecoder().raw_decode(draw(st.sampled_from(documents)))
        text = json.dumps(doc, indent=draw(st.sampled_from([None, 0, 2])))
        at = draw(st.integers(0, len(text)))
        if kind == "cut":
            text = text[:at]
        elif kind == "mutated":
            text = (
                text[:at]
                + draw(st.sampled_from(JSON_PIECES))
                + text[at + draw(st.integers(0, 3)) :]
            )
        pieces.append(text)
    return draw(st.sampled_from(["\n", "", "\r\n"])).join(pieces)


@FUZZ
@given(json_outputs())
def test_documents_are_those_of_the_whole_text_scan(text: str) -> None:
    try:
        expected, first_error, stopped = whole_text_scan(text)
    except RecursionError:
        assume(False)
    assume(not stopped)
    documents = results._Documents(text)
    assert list(documents) == expected
    if first_error is None:
        assert documents.first_error is None
    else:
        assert str(documents.first_error).endswith(first_error)


def read_every_line(text: str) -> FioReport:
    """The text parser feeding every line to its reader, progress removed the old way."""
    reader = results_text._Reader()
    text = re.sub(
        r"Jobs:[^\n]*?\[eta[^\]\n]*\]", "\n", text.replace("\r\n", "\n").replace("\r", "\n")
    )
    for line in text.split("\n"):
        reader.feed(line.strip())
    return reader.report()


def outcome(parse: Callable[[str], FioReport], text: str) -> FioReport | str:
    try:
        return parse(text)
    except (ParseError, ValueError, ArithmeticError) as exc:
        return repr(exc)


@FUZZ
@given(text_mutation() | hostile_output())
@example(PERCENTILE_HEADER + "| 1.00th=[ 10]\nx\n| 5.00th=[ 20]\n")
def test_text_lines_left_out_change_nothing(text: str) -> None:
    assert outcome(results_text.parse_text_output, text) == outcome(read_every_line, text)


# The text parser's expressions as they were before they were made linear: slow on long lines,
# but what they match is what the new ones must match.
PCT_ENTRY = re.compile(r"(\d+(?:\.\d+)?)th=\[\s*([\d.]+[kKMGT]?)\s*\]")
DIST_ENTRY = re.compile(r"((?:>=)?\d+)=\s*<?([\d.]+)%")
DIST = re.compile(r"^lat\s*\((?P<unit>nsec|usec|msec)\)\s*:\s*(?P<entries>.*=.*%.*)$")
PROGRESS = re.compile(r"Jobs:[^\n]*?\[eta[^\]\n]*\]")


@FUZZ
@given(st.text(alphabet="0123456789.th=[ ]kM|,>", max_size=60))
def test_percentile_entries_as_before(line: str) -> None:
    assert results_text._PCT_ENTRY.findall(line) == PCT_ENTRY.findall(line)


@FUZZ
@given(st.text(alphabet="0123456789.=%<> ,", max_size=60))
def test_distribution_entries_as_before(entries: str) -> None:
    assert results_text._DIST_ENTRY.findall(entries) == DIST_ENTRY.findall(entries)


@FUZZ
@given(
    st.sampled_from(["lat (usec): ", "lat(msec) :", "lat (nsec)  : ", ""]),
    st.text("=% 1x:", max_size=20),
)
def test_distribution_lines_as_before(head: str, entries: str) -> None:
    line = head + entries
    new = results_text._DIST.match(line)
    if new is not None and not results_text._is_distribution(new["entries"]):
        new = None
    old = DIST.match(line)
    assert (new and (new["unit"], new["entries"])) == (old and (old["unit"], old["entries"]))


@FUZZ
@given(st.text(alphabet="Jobs:[eta] x\n", max_size=80))
def test_progress_removed_as_before(text: str) -> None:
    new = results_text._PROGRESS.sub(results_text._without_progress, text)
    assert new == PROGRESS.sub("\n", text)
