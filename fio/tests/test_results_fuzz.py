"""Property tests: damaged real outputs parse or raise ParseError, nothing else."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from fio_testkit import FIO, requires_fio, tiny_job_args
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
