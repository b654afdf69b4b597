"""fio's json+ latency bins merged into power-of-two buckets, small enough to send with a result."""

from collections.abc import Mapping

from storbench_api.results.schemas import HistogramBucketOut


def _bucket_index(latency_ns: int) -> int:
    """k for the bucket [2^k, 2^(k+1)) ns holding the latency; 0 also holds 0 ns."""
    return max(0, latency_ns.bit_length() - 1)


def log2_buckets(histogram: Mapping[str, int] | Mapping[int, int] | None) -> list[HistogramBucketOut] | None:
    """json+ bins (latency ns → I/Os) as contiguous power-of-two buckets; None without bins.

    Buckets between the shortest and the longest latency are all listed, empty ones with a
    count of 0, so a chart of them shows gaps where fio saw none.
    """
    if not histogram:
        return None
    counts: dict[int, int] = {}
    for latency, count in histogram.items():
        if int(count) <= 0:
            continue
        index = _bucket_index(max(0, int(latency)))
        counts[index] = counts.get(index, 0) + int(count)
    if not counts:
        return None
    return [
        HistogramBucketOut(low_ns=0 if k == 0 else 1 << k, high_ns=1 << (k + 1), count=counts.get(k, 0))
        for k in range(min(counts), max(counts) + 1)
    ]
