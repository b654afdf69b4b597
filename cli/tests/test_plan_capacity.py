"""`storbench plan-capacity`: the planner's ranked candidates as a table and as JSON."""

import json

from cli_testkit import CliRunner


def test_the_ranked_table_sizes_each_class_and_says_why_not(storbench: CliRunner) -> None:
    done = storbench("plan-capacity", "--iops", "20000", "--bs", "8k", "--p99-ms", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = {
        name: next(line for line in lines if f" {name} " in line)
        for name in ("SSD cloud disk", "Efficiency cloud disk")
    }
    assert "627" in rows["SSD cloud disk"] and " yes " in rows["SSD cloud disk"]
    assert " no " in rows["Efficiency cloud disk"]
    assert "caps at 3,000 IOPS" in rows["Efficiency cloud disk"]
    assert "client network:" in done.stdout
    assert lines.index(rows["SSD cloud disk"]) < lines.index(rows["Efficiency cloud disk"])


def test_json_gives_every_candidate_with_its_reasons(storbench: CliRunner) -> None:
    done = storbench(
        "plan-capacity", "--mbps", "300", "--mbps-rw", "write", "--protocol", "block", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    ssd = next(c for c in answer["candidates"] if c["name"] == "SSD cloud disk")
    assert ssd["capacity_gib"] == 440  # 80 + 0.5 × 440 = 300 MB/s
    assert {c["protocol"] for c in answer["candidates"]} == {"block"}


def test_a_workload_is_required_and_bad_sizes_are_refused(storbench: CliRunner) -> None:
    done = storbench("plan-capacity")
    assert done.returncode == 2 and "--iops N and/or --mbps N" in done.stderr
    refused = storbench("plan-capacity", "--iops", "100", "--bs", "8q")
    assert refused.returncode == 2 and "bs" in refused.stderr
