"""`storbench targets|hosts|plans|presets`: the lists a user picks names from."""

import json
import os
import subprocess

from cli_testkit import HOST_NAME, STORBENCH, TARGET_NAME, CliRunner, Service, cli_env


def test_targets_and_hosts_tables_name_what_was_registered(service: Service, storbench: CliRunner) -> None:
    targets = storbench("targets")
    hosts = storbench("hosts")

    assert targets.returncode == 0 and hosts.returncode == 0
    assert targets.stdout.splitlines()[0].split()[:5] == ["id", "name", "host", "kind", "path"]
    (row,) = [line for line in targets.stdout.splitlines() if f" {TARGET_NAME} " in line]
    assert HOST_NAME in row and str(service.scratch) in row and "directory" in row
    (host_row,) = [line for line in hosts.stdout.splitlines() if f" {HOST_NAME} " in line]
    assert "online" in host_row or "busy" in host_row
    assert "fio-" in host_row


def test_presets_list_every_preset_of_the_api(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        presets = api.get("/presets").json()["items"]

    table = storbench("presets")
    as_json = storbench("presets", "--format", "json")

    assert table.returncode == 0
    assert len(table.stdout.splitlines()) == len(presets) + 1
    for preset in presets:
        assert preset["id"] in table.stdout
    assert [p["id"] for p in json.loads(as_json.stdout)] == [p["id"] for p in presets]


def test_plans_list_shows_saved_plans_with_their_jobs(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        jobs = [{"name": n, "rw": "read", "bs": "1m", "size": "8m", "runtime": 1} for n in ("a", "b")]
        api.post("/plans", json={"name": "cli two jobs", "jobs": jobs}).raise_for_status()

    done = storbench("plans")

    assert done.returncode == 0
    (row,) = [line for line in done.stdout.splitlines() if "cli two jobs" in line]
    assert "a, b" in row


def test_a_reader_that_stops_reading_ends_the_listing_quietly(service: Service) -> None:
    # `storbench presets | head -0`: the pipe's reading end is closed before anything is written.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [str(STORBENCH), "presets"],
            env=cli_env(service),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)

    assert done.stderr == ""
    assert done.returncode == 141
