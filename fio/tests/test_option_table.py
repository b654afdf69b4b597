"""The generated option table is fio 3.33's own: checked against `fio --cmdhelp` on this host."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.option_table import FIO_VERSION, OPTIONS, fio_name, value_problem

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
from generate_option_table import cmdhelp_spec

pytestmark = requires_fio


def _fio(*args: str) -> str:
    assert FIO is not None
    return subprocess.run([FIO, *args], capture_output=True, text=True, check=False).stdout


def test_table_is_of_the_fio_this_host_runs() -> None:
    assert _fio("--version").strip() == FIO_VERSION


def test_every_option_fio_lists_is_in_the_table() -> None:
    listed = {line.split(":")[0].strip() for line in _fio("--cmdhelp=all").splitlines()}
    assert listed - {""} <= set(OPTIONS)


# A sample across every kind of value; the generator reads all of them the same way.
_SAMPLE = [
    "bs",
    "rw",
    "runtime",
    "thinktime",
    "nrfiles",
    "offset",
    "percentile_list",
    "bsrange",
    "exitall",
    "prioclass",
    "nice",
    "ioengine",
    "iomem_align",
    "steadystate",
    "sync",
]


@pytest.mark.parametrize("name", _SAMPLE)
def test_table_entry_matches_fios_own_help(name: str) -> None:
    assert FIO is not None
    help_spec = cmdhelp_spec(FIO, name)
    spec = OPTIONS[name]
    assert tuple(help_spec.aliases) == spec.aliases
    assert help_spec.minimum == spec.minimum
    assert help_spec.maximum == spec.maximum
    assert set(help_spec.values) <= set(spec.values) or name == "ioengine"


def test_aliases_fio_knows_read_as_their_option() -> None:
    assert [fio_name(a) for a in ("nr_files", "ratemin", "fileoffset", "ratecycle")] == [
        "nrfiles",
        "rate_min",
        "offset",
        "rate_cycle",
    ]
    assert fio_name("not_an_option") is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("bs", "512,512,16384"),
        ("rate", "10m,,5m"),
        ("rw", "read:-8k"),
        ("offset", "0%"),
        ("bsrange", "4k-4k"),
        ("prioclass", "3"),
        ("thinktime", "10ms"),
        ("latency_target", "10ms"),
        ("numa_mem_policy", "bind:0"),
    ],
)
def test_values_fio_reads_are_read(name: str, value: str) -> None:
    assert value_problem(name, value) is None


def test_values_fio_does_not_know_say_so() -> None:
    assert value_problem("rw", "sideways") == (
        "'sideways' is not known to fio 3.33, which this host runs (fio knows read, write, trim, "
        "randread, randwrite, randtrim, rw, readwrite, randrw, trimwrite, randtrimwrite)"
    )
    assert (
        value_problem("ioengine", "warp") == "ioengine not known to fio 3.33, which this host runs"
    )
