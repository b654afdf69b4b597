"""`storbench run` against the real service: a worker process runs fio in a scratch directory."""

import json
import re
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest
from cli_testkit import (
    STORBENCH,
    TARGET_NAME,
    TINY_JOB,
    CliRunner,
    JobsFile,
    Service,
    answer_held,
    cli_env,
    sigint_default,
)

_BINARY = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
_TIME_NS = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}


def _bytes_per_s(cell: str) -> float:
    number, unit = cell.removesuffix("/s").split()
    return float(number) * _BINARY[unit]


def _ns(cell: str) -> float:
    number, unit = cell.split()
    return float(number) * _TIME_NS[unit]


def test_run_wait_prints_what_fio_measured(service: Service, storbench: CliRunner) -> None:
    with service.api() as api:
        api.post("/plans", json={"name": "cli tiny read", "jobs": [TINY_JOB]}).raise_for_status()

    done = storbench("run", "--target", TARGET_NAME, "--plan", "cli tiny read", "--wait")

    assert done.returncode == 0, done.stderr
    assert re.search(
        r"^\d\d:\d\d:\d\d run \d+ queued \(target cli-scratch on host cli-host\)$", done.stderr, re.M
    )
    assert re.search(r"^\d\d:\d\d:\d\d run \d+ completed$", done.stderr, re.M)
    header, *lines = done.stdout.splitlines()
    run_id = int(re.match(r"run (\d+) completed", header)[1])  # type: ignore[index]
    assert "plan cli tiny read" in header
    table_head, row, blank, *strip = lines
    # The verdict strip: no spec for a class-less target, no earlier run of the plan, the findings.
    assert blank == ""
    assert strip[0].startswith("spec: no spec line applies")
    assert strip[1] == "previous run: none yet of the same jobs on this target"
    assert strip[2].startswith(("worst finding (", "findings: none"))
    # Figures under the labels GET /figures gives them, as the web UI shows them.
    assert re.split(r"\s{2,}", table_head.strip()) == [
        "job",
        "host",
        "dir",
        "IOPS",
        "Bandwidth",
        "Mean latency",
        "p99 completion latency",
        "runtime",
    ]
    job, host, direction, iops, bandwidth, lat_mean, p99, runtime = re.split(r"\s{2,}", row.strip())
    assert (job, host, direction) == ("r", "cli-host", "read")

    measured = service.wait_for_run(run_id)["results"][0]["directions"]["read"]
    assert float(iops.replace(",", "")) == pytest.approx(measured["iops"], rel=0.01, abs=0.1)
    assert re.fullmatch(r"\d+\.\d (KiB|MiB|GiB)/s", bandwidth)
    assert _bytes_per_s(bandwidth) == pytest.approx(measured["bw_bytes"], rel=0.01)
    assert _ns(lat_mean) == pytest.approx(measured["lat_ns"]["mean_ns"], rel=0.01)
    assert _ns(p99) == pytest.approx(measured["clat_ns"]["percentiles"]["99"], rel=0.01)
    assert re.fullmatch(r"\d+(\.\d+)? m?s", runtime)


def test_run_with_repetitions_and_a_label_compares_with_the_previous_run(
    service: Service, storbench: CliRunner
) -> None:
    with service.api() as api:
        api.post("/plans", json={"name": "cli repeated", "jobs": [TINY_JOB]}).raise_for_status()
    first = storbench("run", "--target", TARGET_NAME, "--plan", "cli repeated", "--wait")
    assert first.returncode == 0, first.stderr

    done = storbench(
        "run", "--target", TARGET_NAME, "--plan", "cli repeated", "--wait",
        "--repetitions", "2", "--label", "after tuning", "--note", "nconnect=8",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    header, *lines = done.stdout.splitlines()
    run_id = int(re.match(r"run (\d+) completed", header)[1])  # type: ignore[index]
    assert "label after tuning" in header
    assert any(line.startswith("r #1 ") for line in lines) and any(line.startswith("r #2 ") for line in lines)
    previous = next(i for i, line in enumerate(lines) if line.startswith("previous run "))
    # Against the first run, in words: each headline figure with its change and verdict.
    assert re.fullmatch(r"previous run \d+: changes against it", lines[previous])
    change = lines[previous + 1]
    assert (
        change.startswith("  r read: IOPS ") and "Bandwidth" in change and "p99 completion latency" in change
    )
    assert re.search(r"[+-]\d+\.\d % (better|worse|no change|can't tell: repeat|too few)", change), change
    with service.api() as api:
        run = api.get(f"/runs/{run_id}").json()
    assert (run["repetitions"], run["label"], run["note"]) == (2, "after tuning", "nconnect=8")
    assert len(run["results"]) == 2


def test_a_pasted_command_line_says_how_it_was_read(
    service: Service, storbench: CliRunner, tmp_path: Path
) -> None:
    pasted = tmp_path / "vendor.sh"
    pasted.write_text(
        "fio --name=r --rw=randread --bs=4k --size=8m --runtime=1 --time_based --ioengine=psync > out.txt\n"
    )

    done = storbench("run", "--target", TARGET_NAME, "--job-file", str(pasted))

    assert done.returncode == 0, done.stderr
    assert "read as: command=out.txt: output redirection left out" in done.stderr
    run_id = int(re.match(r"run (\d+)", done.stdout)[1])  # type: ignore[index]
    assert service.wait_for_run(run_id)["status"] == "completed"


@pytest.mark.parametrize("repetitions", ["0", "101", "two"])
def test_repetitions_out_of_range_are_refused_before_anything_starts(
    storbench: CliRunner, jobs_file: JobsFile, repetitions: str
) -> None:
    done = storbench(
        "run", "--target", TARGET_NAME, "--jobs-json", str(jobs_file(TINY_JOB)), "--repetitions", repetitions
    )

    assert done.returncode == 2
    assert "expected a whole number from 1 to 100" in done.stderr


def test_run_wait_json_is_the_finished_run_with_its_results(
    service: Service, storbench: CliRunner, jobs_file: JobsFile
) -> None:
    done = storbench(
        "run", "--target", TARGET_NAME, "--jobs-json", str(jobs_file(TINY_JOB)), "--wait", "--format", "json"
    )

    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["status"] == "completed"
    assert run["target"]["name"] == TARGET_NAME
    (result,) = run["results"]
    assert result["job_name"] == "r" and result["directions"]["read"]["iops"] > 0


def test_run_without_wait_prints_the_queued_run(
    service: Service, storbench: CliRunner, jobs_file: JobsFile
) -> None:
    done = storbench("run", "--target", TARGET_NAME, "--jobs-json", str(jobs_file(TINY_JOB)))

    assert done.returncode == 0, done.stderr
    match = re.fullmatch(r"run (\d+) (queued|running) \(target cli-scratch on host cli-host\)\n", done.stdout)
    assert match, done.stdout
    # Let it finish, so the worker is free for the next test.
    assert service.wait_for_run(int(match[1]))["status"] == "completed"


def test_a_job_that_fails_on_the_host_exits_1_with_the_reason(
    service: Service, storbench: CliRunner, jobs_file: JobsFile
) -> None:
    missing = service.scratch / "not-there"
    with service.api() as api:
        api.post(
            "/targets",
            json={
                "name": "cli-missing",
                "host_id": service.host["id"],
                "path": str(missing),
                "kind": "directory",
            },
        ).raise_for_status()

    done = storbench("run", "--target", "cli-missing", "--jobs-json", str(jobs_file(TINY_JOB)), "--wait")

    assert done.returncode == 1
    assert re.search(r"run \d+ failed: cli-host: .*does not exist", done.stderr), done.stderr
    assert str(missing) in done.stderr


def _running_run_on(service: Service, target_id: int) -> int | None:
    with service.api() as api:
        runs = api.get("/runs", params={"target_id": target_id, "status": "running"}).json()["items"]
    return runs[0]["id"] if runs else None


def _newest_run_on(service: Service, target_id: int) -> dict[str, Any]:
    with service.api() as api:
        run: dict[str, Any] = api.get("/runs", params={"target_id": target_id, "limit": 1}).json()["items"][0]
    return run


def _long_run(service: Service, tmp_path: Path, url: str | None = None) -> subprocess.Popen[str]:
    """`storbench run --wait` of a 30 s job, as a terminal would start it (Ctrl-C reaches it)."""
    job_file = tmp_path / "long.fio"
    job_file.write_text(
        "[long-read]\nrw=randread\nbs=4k\nsize=8m\nruntime=30\ntime_based=1\nioengine=psync\n"
    )
    return subprocess.Popen(
        [str(STORBENCH), "run", "--target", TARGET_NAME, "--job-file", str(job_file), "--wait"],
        env=cli_env(service, **({"STORBENCH_URL": url} if url else {})),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        preexec_fn=sigint_default,
    )


class _Stderr:
    """What the CLI prints on stderr, read as it is written."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert process.stderr is not None
        self._thread = threading.Thread(target=self._read, args=(process.stderr,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def finish(self) -> str:
        self._thread.join(10)
        return self.text


def _exit_after_ctrl_c(process: subprocess.Popen[str], stderr: _Stderr) -> tuple[str, float]:
    """Ctrl-C, then what the CLI printed on stderr and how long it took to exit."""
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return stderr.finish(), time.monotonic() - started


def test_ctrl_c_while_waiting_cancels_the_run_and_exits_130(service: Service, tmp_path: Path) -> None:
    process = _long_run(service, tmp_path)
    printed = _Stderr(process)
    run_id = service.stack.wait_for(
        lambda: _running_run_on(service, service.target["id"]), 60, "the long run to start"
    )
    # The run is running once the CLI knows it (it says so), not while its start is still answered.
    service.stack.wait_for(lambda: f"run {run_id} queued" in printed.text, 60, "the CLI to follow the run")

    stderr, took_s = _exit_after_ctrl_c(process, printed)

    assert process.returncode == 130, stderr
    assert took_s < 15, "the CLI did not stop promptly"
    assert "Traceback" not in stderr
    assert f"cancelling run {run_id}" in stderr and f"run {run_id} cancelled" in stderr
    with service.api() as api:
        assert api.get(f"/runs/{run_id}").json()["status"] == "cancelled"


def test_ctrl_c_while_the_start_is_answered_cancels_the_run_it_started(
    service: Service, tmp_path: Path
) -> None:
    with answer_held(service.url, "POST", "/api/v1/runs") as network:
        process = _long_run(service, tmp_path, url=network.url)
        printed = _Stderr(process)
        assert network.answered.wait(60), "the service never answered POST /runs"
        run_id = _newest_run_on(service, service.target["id"])["id"]

        process.send_signal(signal.SIGINT)
        # The CLI says it will cancel once it knows the run; only then does the answer arrive.
        service.stack.wait_for(
            lambda: "cancelled as soon as the service answers" in printed.text,
            30,
            "the CLI to take the Ctrl-C",
        )
        network.release.set()
        process.wait(timeout=30)
        stderr = printed.finish()

    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert f"cancelling run {run_id}" in stderr and f"run {run_id} cancelled" in stderr
    with service.api() as api:
        assert api.get(f"/runs/{run_id}").json()["status"] == "cancelled"
