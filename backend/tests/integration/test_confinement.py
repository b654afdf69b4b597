"""fio touches only its target: each attack class through the API, and again with the API bypassed.

Every attack aims at canary files outside the target. Through the API each is refused with a 422
that names the option or target; written straight into the database and queued (as a compromised
or buggy API would), the real worker refuses it by itself, before fio starts. Either way the
canaries are untouched.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from storbench_api.models import Assignment, Run, RunStatus, Target, TargetKind
from storbench_api.security import keyed_name
from tests.support.postgres import fresh_database
from tests.support.stack import Stack, fio_working_in, running_stack

BROKER_URL = os.environ.get(
    "STORBENCH_TEST_REDIS_URL_CONFINE",
    os.environ.get("STORBENCH_TEST_REDIS", "redis://127.0.0.1:6379") + "/12",
)
SAFE = {"name": "w", "rw": "write", "bs": "4k", "size": "1m", "runtime": 1, "ioengine": "psync"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    redis.Redis.from_url(BROKER_URL).flushdb()
    workdir = tmp_path_factory.mktemp("confine")
    with running_stack(fresh_database("storbench_confine"), BROKER_URL, workdir) as running:
        yield running


@pytest.fixture(scope="module")
def host(stack: Stack) -> dict[str, Any]:
    """A worker allowed only `scratch`; canaries beside it that nothing may touch."""
    scratch = stack.workdir / "scratch"
    scratch.mkdir()
    canary = stack.workdir / "canary"
    canary.mkdir()
    (canary / "passwd").write_text("original\n")
    (scratch / "link").symlink_to(canary)
    with stack.client() as api:
        created = api.post("/hosts", json={"name": "confined"}).json()
        stack.start_worker(created["worker_token"], "confined", allow=scratch)
        stack.wait_for(
            lambda: api.get(f"/hosts/{created['id']}").json()["status"] == "online", 60, "the worker"
        )
        target = api.post(
            "/targets",
            json={"name": "scratch", "host_id": created["id"], "path": str(scratch), "kind": "directory"},
        ).json()
    return {"host": created, "target": target, "scratch": scratch, "canary": canary}


def _canaries_untouched(host: dict[str, Any]) -> None:
    canary: Path = host["canary"]
    assert sorted(p.name for p in canary.iterdir()) == ["passwd"]
    assert (canary / "passwd").read_text() == "original\n"
    leftovers = [p.name for p in host["scratch"].iterdir() if p.name != "link"]
    assert leftovers == [], f"files left in the target: {leftovers}"


def _bypassing_the_api(
    stack: Stack,
    host: dict[str, Any],
    jobs: list[dict[str, Any]],
    path: str | None = None,
    plant: bool = False,
) -> dict[str, Any]:
    """A run written straight into the database and queued: only the worker stands in the way."""
    engine = create_engine(stack.env["STORBENCH_DATABASE_URL"])
    with Session(engine) as db:
        team_id = db.get(Target, host["target"]["id"]).team_id  # type: ignore[union-attr]
        target = Target(
            team_id=team_id,
            host_id=host["host"]["id"],
            name=f"bypass-{os.urandom(4).hex()}",
            path=path or str(host["scratch"]),
            kind=TargetKind.directory,
        )
        db.add(target)
        db.flush()
        run = Run(team_id=team_id, target_id=target.id, jobs=jobs, status=RunStatus.queued)
        db.add(run)
        db.flush()
        assignment = Assignment(
            run_id=run.id, host_id=host["host"]["id"], status=RunStatus.queued, worker_info={}
        )
        db.add(assignment)
        db.commit()
        run_id, assignment_id = run.id, assignment.id
    engine.dispose()
    if plant:
        # Someone who can write in the target plants a link where the run directory will be.
        name = keyed_name("integration-secret", f"run-directory:{run_id}:a{assignment_id}")
        (host["scratch"] / f"storbench-run{run_id}-a{assignment_id}-{name}").symlink_to(host["canary"])
    celery = Celery(broker=BROKER_URL)
    celery.send_task("storbench.execute_assignment", args=[assignment_id], queue=f"host.{host['host']['id']}")
    with stack.client() as api:

        def finished() -> dict[str, Any] | None:
            found: dict[str, Any] = api.get(f"/runs/{run_id}").json()
            return found if found["status"] in ("completed", "failed", "cancelled") else None

        done: dict[str, Any] = stack.wait_for(finished, 60, f"run {run_id} to end")
    if plant:
        (host["scratch"] / f"storbench-run{run_id}-a{assignment_id}-{name}").unlink()
    return done


# (attack class, job options aimed at the canaries, what the refusal names)
JOB_ATTACKS = [
    ("blanks", {"filename": " CANARY/passwd"}, "filename"),
    ("blanks", {"filename": "\tCANARY/passwd"}, "filename"),
    ("blanks", {"directory": "CANARY "}, "directory"),
    ("relative", {"filename": "../../canary/passwd"}, "filename"),
    ("relative", {"directory": "../../canary"}, "directory"),
    ("relative", {"filename": "sub/../../../canary/passwd"}, "filename"),
    ("absolute", {"filename": "CANARY/passwd"}, "filename"),
    ("list", {"filename": "ok:CANARY/passwd"}, "filename"),
    ("relative", {"filename": "../link/passwd"}, "filename"),
    ("footprint", {"offset": "50t"}, "size"),
    ("footprint", {"offset_increment": "20t", "numjobs": 4}, "size"),
    ("global", {"name": "global-x", "rw": "write"}, "name"),
    ("memory", {"bs": "1g", "iodepth": 1024, "numjobs": 64}, "iodepth"),
]


def _job(host: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    return {
        **SAFE,
        **{
            k: v.replace("CANARY", str(host["canary"])) if isinstance(v, str) else v for k, v in extra.items()
        },
    }


@pytest.mark.parametrize(("attack", "extra", "option"), JOB_ATTACKS)
def test_the_api_refuses_each_attack_naming_the_option(
    stack: Stack, host: dict[str, Any], attack: str, extra: dict[str, Any], option: str
) -> None:
    with stack.client() as api:
        refused = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [_job(host, extra)]})
    assert refused.status_code == 422, (attack, refused.text)
    assert option in {
        e.get("option") or e.get("field", "").rsplit(".", 1)[-1] for e in refused.json()["errors"]
    }
    _canaries_untouched(host)


@pytest.mark.parametrize(("attack", "extra", "option"), JOB_ATTACKS)
def test_the_worker_refuses_each_attack_by_itself(
    stack: Stack, host: dict[str, Any], attack: str, extra: dict[str, Any], option: str
) -> None:
    done = _bypassing_the_api(stack, host, [_job(host, extra)])
    assert done["status"] == "failed", (attack, done)
    assert "refused" in done["error"] and (option in done["error"] or "name" in done["error"]), done["error"]
    _canaries_untouched(host)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/", "system folder"),
        ("/etc", "/etc"),
        ("/dev", "/dev"),
        ("/usr/lib", "/usr"),
        ("CANARY", "outside the paths"),
    ],
)
def test_targets_outside_what_the_host_allows_are_refused_by_api_and_worker(
    stack: Stack, host: dict[str, Any], path: str, words: str
) -> None:
    path = path.replace("CANARY", str(host["canary"]))
    with stack.client() as api:
        refused = api.post(
            "/targets", json={"name": f"t{abs(hash(path))}", "host_id": host["host"]["id"], "path": path}
        )
    assert refused.status_code == 422, refused.text
    assert words in refused.json()["message"]
    done = _bypassing_the_api(stack, host, [{**SAFE, "filename": "sda"}], path=path)
    assert done["status"] == "failed"
    assert words in done["error"], done["error"]
    _canaries_untouched(host)


def test_a_target_that_is_a_link_out_of_the_allowed_root_is_refused_by_the_worker(
    stack: Stack, host: dict[str, Any]
) -> None:
    done = _bypassing_the_api(stack, host, [SAFE], path=str(host["scratch"] / "link"))
    assert done["status"] == "failed"
    assert "outside the paths" in done["error"], done["error"]
    _canaries_untouched(host)


def test_a_link_planted_where_the_run_directory_will_be_is_never_followed(
    stack: Stack, host: dict[str, Any]
) -> None:
    done = _bypassing_the_api(stack, host, [SAFE], plant=True)
    assert done["status"] == "failed"
    assert "already exists" in done["error"], done["error"]
    _canaries_untouched(host)


def test_a_clean_job_still_runs_in_a_fresh_private_directory(stack: Stack, host: dict[str, Any]) -> None:
    job = {**SAFE, "name": "clean", "directory": "sub", "filename": "data.bin"}
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [job]}).json()

        def finished() -> dict[str, Any] | None:
            found: dict[str, Any] = api.get(f"/runs/{run['id']}").json()
            return found if found["status"] in ("completed", "failed") else None

        done = stack.wait_for(finished, 60, "the clean run")
    assert done["status"] == "completed", done
    assert done["results"][0]["directions"]["write"]["io_bytes"] > 0
    _canaries_untouched(host)


def test_cancel_stops_a_file_layout_in_progress(stack: Stack, host: dict[str, Any]) -> None:
    """Laying out 3 GiB for a read job takes seconds here: cancel must stop it, not wait it out."""
    job = {**SAFE, "name": "big-read", "rw": "read", "bs": "1m", "size": "3g", "runtime": 5}
    scratch: Path = host["scratch"]
    with stack.client() as api:
        run = api.post("/runs", json={"target_id": host["target"]["id"], "jobs": [job]}).json()
        stack.wait_for(lambda: list(scratch.glob("storbench-run*/*")), 30, "the layout to begin")
        assert api.get(f"/runs/{run['id']}").json()["status"] == "queued"
        assert api.post(f"/runs/{run['id']}/cancel").json()["status"] == "cancelled"
        # Without the cancel the layout would take several seconds more, then fio would run 5 s.
        stack.wait_for(lambda: not fio_working_in(scratch), 10, "the layout's fio to stop")
    stack.wait_for(lambda: [p.name for p in scratch.iterdir()] == ["link"], 10, "the run directory to go")
    _canaries_untouched(host)
