"""The users of bench/load.py, driven by locust as a library in a process of their own (gevent).

    .venv/bin/python bench/load_users.py PLAN.json OUT.json

PLAN.json (written by load.py) names the API processes, the signed-in token, what there is to
browse, the simulated hosts (their credentials and targets) and the real targets. Three kinds of
users run for the plan's duration: people browsing, filtering and comparing history; simulated
hosts heartbeating and running assignments through the worker protocol (storbench_protocol bodies,
a real fio output uploaded, no fio run); and people keeping one small real fio run in flight each.
OUT.json gets every request's latency by endpoint, the errors, and what each upload was told.
"""

from gevent import monkey

monkey.patch_all()

import base64  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
import redis  # noqa: E402
from locust import HttpUser, User, between, constant, events, task  # noqa: E402
from locust.env import Environment  # noqa: E402

from storbench_protocol.facts import Heartbeat, HostFacts, PathSpace  # noqa: E402
from storbench_protocol.progress import ProgressReport  # noqa: E402
from storbench_protocol.results import ResultUpload  # noqa: E402

PLAN: dict[str, Any] = json.loads(Path(sys.argv[1]).read_text()) if len(sys.argv) > 2 else {}
LATENCIES: dict[str, list[float]] = {}
ERRORS: dict[str, list[str]] = {}
UPLOADS: list[dict[str, int]] = []
RUNS_STARTED: list[int] = []


@events.request.add_listener  # type: ignore[untyped-decorator]
def _on_request(
    request_type: str, name: str, response_time: float, exception: BaseException | None, **_: object
) -> None:
    LATENCIES.setdefault(f"{request_type} {name}", []).append(response_time)
    if exception is not None:
        ERRORS.setdefault(f"{request_type} {name}", []).append(str(exception)[:200])


def _api_url(index: int) -> str:
    urls: list[str] = PLAN["api_urls"]
    return urls[index % len(urls)]


class Browsing(HttpUser):
    """A person reading history: lists and their filters, next pages, a trend, a compare, groups."""

    fixed_count = PLAN.get("users", 0)
    wait_time = between(0.5, 2.0)

    def on_start(self) -> None:
        self.client.base_url = _api_url(random.randrange(1000))
        self.client.headers["Authorization"] = f"Bearer {PLAN['token']}"
        self.browse: dict[str, Any] = PLAN["browse"]

    def _get(self, path: str, name: str, **params: object) -> Any:
        with self.client.get(f"/api/v1{path}", params=params, name=name, catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {answer.text[:160]}")
                return None
            return answer.json()

    @task(4)
    def results_first_page(self) -> None:
        page = self._get("/results", "/results", limit=50)
        if page and page.get("next_cursor"):
            self._get("/results", "/results?cursor", limit=50, cursor=page["next_cursor"])

    @task(4)
    def results_filtered(self) -> None:
        key, values = random.choice(list(self.browse["filters"].items()))
        self._get("/results", f"/results?{key}", limit=50, **{key: random.choice(values)})

    @task(2)
    def runs_and_hosts(self) -> None:
        self._get("/runs", "/runs", limit=20)
        self._get("/hosts", "/hosts")
        self._get("/targets", "/targets")

    @task(2)
    def trend(self) -> None:
        target = random.choice(self.browse["targets"])
        series = self._get("/history/series", "/history/series", target_id=target)
        if series and series["items"]:
            job = random.choice(series["items"])["job"]
            self._get("/history/trend", "/history/trend", target_id=target, job=job)

    @task(2)
    def compare(self) -> None:
        ids = random.choice(self.browse["compare"])
        self._get("/compare", "/compare", ids=",".join(str(i) for i in ids))

    @task(1)
    def grouped(self) -> None:
        self._get("/compare/groups", "/compare/groups", by="storage_class")

    @task(1)
    def regressions(self) -> None:
        self._get("/regressions", "/regressions")


class SimulatedHost(HttpUser):
    """A host's worker without fio: heartbeats, and now and then an assignment run to the end."""

    fixed_count = len(PLAN.get("sim_hosts", []))
    wait_time = constant(0)
    _next = 0

    def on_start(self) -> None:
        me = PLAN["sim_hosts"][SimulatedHost._next % len(PLAN["sim_hosts"])]
        SimulatedHost._next += 1
        self.client.base_url = _api_url(me["target_id"])
        self.worker = {"Authorization": f"Bearer {me['token']}", "Content-Type": "application/json"}
        self.person = {"Authorization": f"Bearer {PLAN['token']}"}
        self.target_id: int = me["target_id"]
        self.queue = f"host.{me['host_id']}"
        facts = HostFacts(
            hostname=me["name"],
            cpu_count=8,
            memory_bytes=32 << 30,
            allowed_roots=[PLAN["sim_root"]],
            path_space=[PathSpace(path=PLAN["sim_root"], free_bytes=1 << 40, total_bytes=2 << 40)],
        )
        self.beat = Heartbeat(fio_version="fio-3.33", facts=facts).model_dump_json(exclude_unset=True)
        self.next_beat = 0.0
        # Hosts start their first run spread over the first interval, not together.
        self.next_run = time.monotonic() + random.uniform(5, PLAN["sim_run_every_s"])

    def _post(self, path: str, name: str, body: str = "") -> Any:
        with self.client.post(
            f"/api/v1/worker{path}", data=body, headers=self.worker, name=name, catch_response=True
        ) as answer:
            if not 200 <= answer.status_code < 300:
                answer.failure(f"{answer.status_code}: {answer.text[:160]}")
                return None
            return answer.json()

    @task
    def live(self) -> None:
        now = time.monotonic()
        if now >= self.next_beat:
            self.next_beat = now + PLAN["heartbeat_s"]
            self._post("/heartbeat", "worker: heartbeat", self.beat)
        if now >= self.next_run:
            self.next_run = now + random.uniform(0.5, 1.5) * PLAN["sim_run_every_s"]
            self._one_assignment()
        gevent.sleep(max(0.05, min(self.next_beat, self.next_run) - time.monotonic()))

    def _one_assignment(self) -> None:
        body = {"target_id": self.target_id, "jobs": PLAN["sim_jobs"], "label": "simulated"}
        with self.client.post(
            "/api/v1/runs",
            json=body,
            headers=self.person,
            name="POST /runs (simulated host)",
            catch_response=True,
        ) as answer:
            if answer.status_code != 201:
                answer.failure(f"{answer.status_code}: {answer.text[:160]}")
                return
            run = answer.json()
        RUNS_STARTED.append(run["id"])
        assignment = _next_assignment(self.queue)
        if assignment is None:
            return
        if (
            self.client.get(
                f"/api/v1/worker/assignments/{assignment}", headers=self.worker, name="worker: fetch"
            ).status_code
            != 200
        ):
            return
        for _ in range(60):
            state = self._post(f"/assignments/{assignment}/ready", "worker: ready")
            if state is None or state["start_at"] is not None:
                break
            gevent.sleep(0.5)
        started = json.dumps({"fio_started_at": datetime.now(UTC).isoformat(), "clock_offset_ms": 0.0})
        self._post(f"/assignments/{assignment}/start", "worker: start", started)
        self._post(
            f"/assignments/{assignment}/progress", "worker: progress", ProgressReport().model_dump_json()
        )
        upload = ResultUpload(fio_output=PLAN["sim_fio_output"], worker_cpu_percent=0.5).model_dump_json()
        stored = self._post(f"/assignments/{assignment}/result", "worker: result", upload)
        if stored is not None:
            UPLOADS.append({"run_id": run["id"], "results": stored["results"]})
        self._post(f"/assignments/{assignment}/files-released", "worker: files-released")


_BROKER = redis.Redis.from_url(PLAN["broker_url"]) if PLAN else None


def _next_assignment(queue: str) -> int | None:
    """The assignment id of the next message on the host's queue, as its Celery worker reads it."""
    assert _BROKER is not None
    popped = _BROKER.brpop([queue], timeout=30)
    if popped is None:
        ERRORS.setdefault("broker: assignment message", []).append("none arrived within 30 s")
        return None
    message = json.loads(popped[1])
    args, _, _ = json.loads(base64.b64decode(message["body"]))
    return int(args[0])


class RealRun(HttpUser):
    """A person keeping one small real fio run in flight on one real worker's scratch target."""

    fixed_count = len(PLAN.get("real_targets", []))
    wait_time = constant(0.5)
    _next = 0

    def on_start(self) -> None:
        self.target_id: int = PLAN["real_targets"][RealRun._next % len(PLAN["real_targets"])]
        RealRun._next += 1
        self.client.base_url = _api_url(self.target_id)
        self.client.headers["Authorization"] = f"Bearer {PLAN['token']}"

    @task
    def one_run(self) -> None:
        body = {"target_id": self.target_id, "jobs": PLAN["real_jobs"], "label": "real"}
        with self.client.post(
            "/api/v1/runs", json=body, name="POST /runs (real)", catch_response=True
        ) as answer:
            if answer.status_code != 201:
                answer.failure(f"{answer.status_code}: {answer.text[:160]}")
                return
            run_id = answer.json()["id"]
        RUNS_STARTED.append(run_id)
        deadline = time.monotonic() + PLAN["real_run_bound_s"]
        while time.monotonic() < deadline:
            answer = self.client.get(f"/api/v1/runs/{run_id}", name="/runs/{id}")
            if answer.status_code == 200 and answer.json()["status"] not in ("queued", "running"):
                return
            gevent.sleep(1.0)


def main() -> int:
    out = Path(sys.argv[2])
    user_classes: list[type[User]] = [c for c in (Browsing, SimulatedHost, RealRun) if c.fixed_count]
    # Stopping lets every user end its task (a host its assignment, a person waiting for a run).
    env = Environment(
        user_classes=user_classes,
        events=events,
        host=PLAN["api_urls"][0],
        stop_timeout=PLAN["stop_timeout_s"],
    )
    runner = env.create_local_runner()
    total = sum(c.fixed_count for c in user_classes)
    runner.start(total, spawn_rate=PLAN.get("spawn_rate", 20))
    started = time.monotonic()
    gevent.sleep(PLAN["duration_s"])
    runner.stop()
    runner.quit()
    for error in runner.exceptions.values():
        ERRORS.setdefault("bench: unexpected answer", []).extend([str(error["msg"])[:200]] * error["count"])
    out.write_text(
        json.dumps(
            {
                "seconds": time.monotonic() - started,
                "latencies_ms": LATENCIES,
                "errors": ERRORS,
                "uploads": UPLOADS,
                "runs_started": RUNS_STARTED,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
