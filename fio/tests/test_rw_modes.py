"""fio's rw values: every spelling read as the pattern fio runs, and what each pattern moves."""

from __future__ import annotations

import pytest

from storbench_fio.rw_modes import RANDOM, READS, TRIMS, WRITES, rw_mode


@pytest.mark.parametrize(
    ("written", "runs"),
    [
        (None, "read"),
        ("", "read"),
        ("readwrite", "rw"),
        ("randreadwrite", "randrw"),
        (" RandWrite:8 ", "randwrite"),
        ("read:-8k", "read"),
        ("trimwrite", "trimwrite"),
    ],
)
def test_every_spelling_reads_as_the_pattern_fio_runs(written: str | None, runs: str) -> None:
    assert rw_mode(written) == runs


@pytest.mark.parametrize(
    ("rw", "reads", "writes", "trims", "random"),
    [
        ("read", True, False, False, False),
        ("randwrite", False, True, False, True),
        ("rw", True, True, False, False),
        ("randrw", True, True, False, True),
        ("trim", False, False, True, False),
        ("trimwrite", False, True, True, False),
        ("randtrimwrite", False, True, True, True),
    ],
)
def test_what_each_pattern_moves(
    rw: str, reads: bool, writes: bool, trims: bool, random: bool
) -> None:
    assert (rw in READS, rw in WRITES, rw in TRIMS, rw in RANDOM) == (reads, writes, trims, random)
