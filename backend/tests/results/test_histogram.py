"""A result's latency histogram (fio's json+ bins in power-of-two buckets) and its spread over the run."""

from itertools import pairwise

import pytest
from fastapi.testclient import TestClient

from storbench_api.results.histogram import log2_buckets
from tests.conftest import Caller
from tests.support.fio import quick_randread


@pytest.fixture(scope="module")
def fio_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    return quick_randread(tmp_path_factory.mktemp("fio-histogram"))


def test_bins_are_merged_into_contiguous_power_of_two_buckets() -> None:
    # 1000 ns and 1023 ns share [512, 1024); 1024 ns opens [1024, 2048); nothing in [2048, 4096).
    buckets = log2_buckets({"1000": 3, "1023": 2, "1024": 4, "5000": 1, "7000": 0})
    assert buckets is not None
    assert [(b.low_ns, b.high_ns, b.count) for b in buckets] == [
        (512, 1024, 5),
        (1024, 2048, 4),
        (2048, 4096, 0),
        (4096, 8192, 1),
    ]


def test_no_bins_is_no_histogram() -> None:
    assert log2_buckets(None) is None
    assert log2_buckets({}) is None
    assert log2_buckets({"100": 0}) is None


def test_an_imported_json_plus_output_shows_its_latency_histogram_and_spread(
    client: TestClient, owner: Caller, fio_json: str
) -> None:
    files = {"file": ("out.json", fio_json.encode(), "application/json")}
    response = client.post("/api/v1/results/import", files=files, headers=owner.headers)
    assert response.status_code == 201, response.text
    (result,) = response.json()["results"]
    read = result["directions"]["read"]
    histogram = read["clat_histogram"]
    assert histogram, "a json+ output keeps its latency bins"
    # Every completed I/O is counted once, in a bucket whose bounds hold fio's own min and max.
    assert sum(b["count"] for b in histogram) == read["total_ios"]
    assert histogram[0]["low_ns"] <= read["clat_ns"]["min_ns"] < histogram[0]["high_ns"] * 1.02
    assert histogram[-1]["low_ns"] <= read["clat_ns"]["max_ns"] * 1.02
    assert all(b["high_ns"] == n["low_ns"] for b, n in pairwise(histogram))
    # fio 3 sampled IOPS and bandwidth about once a second: their spread comes with the result.
    spread = read["iops_spread"]
    assert spread["samples"] >= 1
    assert spread["min"] <= spread["mean"] <= spread["max"]
    assert read["bw_spread"]["max"] >= read["bw_spread"]["min"] > 0
    # The same figures when the result is read back from the history.
    again = client.get("/api/v1/results?limit=50", headers=owner.headers).json()["items"]
    stored = next(r for r in again if r["id"] == result["id"])
    assert stored["directions"]["read"]["clat_histogram"] == histogram
