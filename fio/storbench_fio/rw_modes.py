"""fio's I/O patterns (rw=): how a value is spelt, which directions it moves, which are random.

The safety rules and the advisor ask this module, so that every spelling fio accepts ("readwrite",
"randreadwrite", "randwrite:8") is judged as the pattern fio runs.
"""

from __future__ import annotations

from storbench_fio.options import RW_ALIASES

__all__ = ["RANDOM", "READS", "TRIMS", "WRITES", "rw_mode"]

READS = frozenset({"read", "randread", "rw", "randrw"})
WRITES = frozenset({"write", "randwrite", "rw", "randrw", "trimwrite", "randtrimwrite"})
TRIMS = frozenset({"trim", "randtrim", "trimwrite", "randtrimwrite"})
# trimwrite trims and writes sequentially; randtrimwrite at random offsets (fio's HOWTO).
RANDOM = frozenset({"randread", "randwrite", "randrw", "randtrim", "randtrimwrite"})


def rw_mode(value: str | None) -> str:
    """The pattern an rw value runs: canonical, no offset modifier; fio's read when unset."""
    mode = (value or "read").strip().lower().partition(":")[0] or "read"
    return RW_ALIASES.get(mode, mode)
