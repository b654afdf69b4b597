"""Reading the options a job ran with: every spelling fio accepts reads as one job."""

from __future__ import annotations

import gzip
import subprocess
from functools import cache
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.options import ALIASES, canonical_option_name
from storbench_fio.reported import job_shape, read_options

HOWTO = Path("/usr/share/doc/fio/HOWTO.rst.gz")
requires_howto = pytest.mark.skipif(not HOWTO.exists(), reason="fio's HOWTO is not installed")


@cache
def _howto_alias_lines() -> list[list[str]]:
    """fio's HOWTO lines documenting one option under several names (".. option:: a=int, b=int")."""
    lines = []
    with gzip.open(HOWTO, "rt") as howto:
        text = howto.read()
    for line in text.splitlines():
        if line.startswith(".. option:: ") and ", " in line:
            spellings = line.removeprefix(".. option:: ").split(" : ")[0].split(", ")
            lines.append([s.split("=")[0].strip() for s in spellings])
    return lines


def _fio_option(name: str) -> str:
    """The option fio 3.33 describes for a name (its own name when the name is an alias)."""
    assert FIO is not None
    done = subprocess.run([FIO, f"--cmdhelp={name}"], capture_output=True, text=True, check=False)
    out = done.stdout + done.stderr
    if "No such command" not in out:
        return out.split(":", 1)[0].strip()
    # Engine options (proto for the net engine) are documented in the HOWTO only.
    documented = [names for names in _howto_alias_lines() if name in names]
    assert documented, f"fio knows no option {name!r}"
    return documented[0][0]


@pytest.mark.parametrize(("alias", "canonical"), sorted(ALIASES.items()))
def test_every_alias_reads_as_its_canonical_name(alias: str, canonical: str) -> None:
    for value in ("4k", "1", "60", None):
        assert read_options({alias: value}) == read_options({canonical: value})
    assert canonical in read_options({alias.upper(): "1"})


@requires_fio
@requires_howto
@pytest.mark.parametrize(("alias", "canonical"), sorted(ALIASES.items()))
def test_every_alias_in_the_table_is_one_fio_knows(alias: str, canonical: str) -> None:
    assert _fio_option(alias) == _fio_option(canonical)


@requires_howto
def test_every_alias_fio_documents_is_in_the_table() -> None:
    unfolded = [n for n in _howto_alias_lines() if len({canonical_option_name(s) for s in n}) != 1]
    assert len(_howto_alias_lines()) >= 15
    assert unfolded == []


def test_sizes_and_times_read_through_fio_units() -> None:
    written = {
        "timeout": "1m",
        "blocksize": "4k,64k",
        "io_limit": "1g",
        "ba": "4k",
        "thinktime": "500",
    }
    assert read_options(written) == read_options(
        {
            "runtime": "60",
            "bs": "4096,65536",
            "io_size": "1073741824",
            "blockalign": "4096",
            "thinktime": "500us",
        }
    )
    assert read_options({"bs": "4k", "kb_base": "1000"})["bs"] == "4000"


def test_fio_defaults_are_filled_in() -> None:
    spelled = {
        "rw": "READ",
        "bs": "4k",
        "iodepth": "1",
        "numjobs": "1",
        "ioengine": "psync",
        "direct": "0",
    }
    assert read_options({}) == read_options(spelled)
    assert job_shape({"readwrite": "readwrite:8"}) == {
        "rw": "rw",
        "bs": "4096",
        "iodepth": "1",
        "numjobs": "1",
    }


def test_values_fio_cannot_read_are_kept_as_written() -> None:
    assert read_options({"size": "50%", "bs": "huge", "norandommap": None}) == {
        **read_options({}),
        "size": "50%",
        "bs": "huge",
        "norandommap": "1",
    }
