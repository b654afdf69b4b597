"""Figures as people read them: binary byte units, readable latencies, aligned tables."""

import pytest

from storbench_cli.display import (
    format_bandwidth,
    format_bytes,
    format_iops,
    format_latency,
    format_runtime,
    render_table,
)


@pytest.mark.parametrize(
    ("bytes_per_s", "shown"),
    [
        (62_500_000, "59.6 MiB/s"),
        (512, "512 B/s"),
        (1536, "1.5 KiB/s"),
        (3 * 1024**3, "3.0 GiB/s"),
        (None, "-"),
    ],
)
def test_bandwidth_uses_binary_units(bytes_per_s: float | None, shown: str) -> None:
    assert format_bandwidth(bytes_per_s) == shown


@pytest.mark.parametrize(
    ("ns", "shown"),
    [(850, "850 ns"), (64_123, "64.1 µs"), (120_000, "120 µs"), (1_204_000, "1.20 ms"), (2.5e9, "2.50 s")],
)
def test_latency_picks_a_readable_unit(ns: float, shown: str) -> None:
    assert format_latency(ns) == shown


def test_small_figures_keep_their_precision() -> None:
    assert format_iops(15263.2) == "15,263"
    assert format_iops(0.5) == "0.5"
    assert format_runtime(850) == "850 ms"
    assert format_runtime(1000) == "1.00 s"
    assert format_bytes(5 * 1024**5) == "5.0 PiB"


def test_tables_align_text_left_and_numbers_right() -> None:
    table = render_table(("name", "IOPS"), [["a", "1,000"], ["longer", "5"]], right=("IOPS",))

    assert table.splitlines() == ["name     IOPS", "a       1,000", "longer      5"]


def test_a_multi_host_aggregate_is_summarised_with_its_window_and_skew() -> None:
    from storbench_cli.commands.run import aggregate_lines

    text = aggregate_lines(
        {
            "hosts": 3,
            "window_s": 2.96,
            "start_skew_ms": 10.4,
            "directions": {
                "read": {
                    "iops": 45210.0,
                    "bw_bytes": 185180160.0,
                    "clat_percentiles_ns": {"50": 61000.0, "99": 412000.0, "99.9": 1900000.0},
                }
            },
        }
    )
    assert text.splitlines()[0] == "aggregate of 3 hosts over 3.0 s, start skew 10.4 ms"
    assert "read: 45,210 IOPS, 176.6 MiB/s" in text
    assert "p99 412 µs" in text and "p99.9 1.90 ms" in text
