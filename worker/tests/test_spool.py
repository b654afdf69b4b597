"""Outputs survive until acknowledged."""

from pathlib import Path

from storbench_worker.spool import Spool


def test_spooled_outputs_are_pending_until_uploaded(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(7, '{"jobs": []}', None)
    spool.put(3, '{"jobs": []}', "cancelled")
    assert spool.pending() == [3, 7]
    assert not list((tmp_path / "spool").glob("*.tmp"))
    reopened = Spool(tmp_path / "spool")
    assert reopened.pending() == [3, 7]
