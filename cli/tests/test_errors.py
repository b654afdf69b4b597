"""Expected failures: one sentence on stderr, the documented exit code, never a traceback."""

from pathlib import Path

import httpx
from cli_testkit import TARGET_NAME, TINY_JOB, CliRunner, JobsFile, Service, cli_env, free_port


def test_an_unknown_target_exits_2_listing_the_available_names(
    service: Service, storbench: CliRunner, jobs_file: JobsFile
) -> None:
    with service.api() as api:
        runs_before = api.get("/runs").json()["total"]

    done = storbench("run", "--target", "no-such-target", "--jobs-json", str(jobs_file(TINY_JOB)), "--wait")

    assert done.returncode == 2
    assert "no target named 'no-such-target'" in done.stderr
    assert TARGET_NAME in done.stderr.split("available:")[1]
    with service.api() as api:
        assert api.get("/runs").json()["total"] == runs_before, "a run was started anyway"


def test_an_unknown_extra_host_exits_2_listing_the_hosts_and_starts_nothing(
    service: Service, storbench: CliRunner, jobs_file: JobsFile
) -> None:
    with service.api() as api:
        runs_before = api.get("/runs").json()["total"]
        host_name = api.get("/hosts").json()["items"][0]["name"]

    done = storbench(
        "run",
        "--target",
        TARGET_NAME,
        "--jobs-json",
        str(jobs_file(TINY_JOB)),
        "--hosts",
        f"{host_name},nfs-99",
    )

    assert done.returncode == 2
    assert "no host named 'nfs-99'" in done.stderr and host_name in done.stderr
    with service.api() as api:
        assert api.get("/runs").json()["total"] == runs_before


def test_an_unknown_preset_exits_2_listing_the_presets(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        some_preset = api.get("/presets").json()["items"][0]["id"]

    done = storbench("run", "--target", TARGET_NAME, "--preset", "no-such-preset")

    assert done.returncode == 2
    assert "no preset named 'no-such-preset'" in done.stderr and some_preset in done.stderr


def test_a_bad_token_exits_2_with_the_apis_message(service: Service, storbench: CliRunner) -> None:
    refused = httpx.get(f"{service.url}/api/v1/targets", headers={"Authorization": "Bearer sbu_not-a-token"})
    assert refused.status_code == 401

    done = storbench("targets", env=cli_env(service, STORBENCH_TOKEN="sbu_not-a-token"))

    assert done.returncode == 2
    assert done.stderr == f"error: {refused.json()['message']}\n"
    assert done.stdout == ""


def test_a_missing_token_exits_2_before_calling_anything(service: Service, storbench: CliRunner) -> None:
    done = storbench("targets", env=cli_env(service, STORBENCH_TOKEN=""))

    assert done.returncode == 2
    assert "STORBENCH_TOKEN" in done.stderr


def test_an_unreachable_api_exits_2_naming_the_url(service: Service, storbench: CliRunner) -> None:
    url = f"http://127.0.0.1:{free_port()}"

    done = storbench("--url", url, "results")

    assert done.returncode == 2
    assert f"cannot reach the storbench API at {url}" in done.stderr


def test_the_url_flag_after_the_command_overrides_the_environment(
    service: Service, storbench: CliRunner
) -> None:
    url = f"http://127.0.0.1:{free_port()}"

    done = storbench("hosts", "--url", url)

    assert done.returncode == 2 and url in done.stderr


def test_a_job_file_fio_would_reject_exits_2_with_each_reason(
    service: Service, storbench: CliRunner, tmp_path: Path
) -> None:
    job_file = tmp_path / "bad.fio"
    job_file.write_text("[bad]\nrw=randread\nbs=banana\nsize=8m\nruntime=1\n")

    done = storbench("run", "--target", TARGET_NAME, "--job-file", str(job_file))

    assert done.returncode == 2
    with service.api() as api:
        refused = api.post("/fio/validate", json={"text": job_file.read_text()}).json()
    assert done.stderr.startswith(f"error: {refused['message']}\n")
    for error in refused["errors"]:
        assert error["reason"] in done.stderr
    assert "bs=banana" in done.stderr


def test_usage_errors_exit_2(storbench: CliRunner) -> None:
    done = storbench("run", "--target", TARGET_NAME, "--plan", "a", "--preset", "b")

    assert done.returncode == 2
    assert "not allowed with argument" in done.stderr


def test_an_unknown_preset_suggests_the_nearest_id(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        preset_id = api.get("/presets").json()["items"][0]["id"]
    typo = preset_id[:-2] + preset_id[-1]  # one letter left out, as a hurried hand does

    done = storbench("run", "--target", TARGET_NAME, "--preset", typo)

    assert done.returncode == 2
    assert f"no preset named '{typo}'; did you mean '{preset_id}'?" in done.stderr
