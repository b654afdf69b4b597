"""make prod-check: the production stack (docker-compose.yml) up for real on this machine, then faults.

From a clean state (a fresh compose project, its volumes removed first, random secrets in a temp env
file): sign in through the proxy, enroll the compose worker and its scratch volume as a target, run a
preset end to end (proxy -> API -> Redis -> worker container -> fio -> PostgreSQL); during a 60 s
run kill and restart an API container, Redis and PostgreSQL one at a time, then the worker during a
shorter one; every run must end completed, or failed with a reason, within a bound, and the results
stored before must still be there. Tears everything down (images stay cached) and prints one final
line `prod-check: N passed, M failed`. Progress goes to stderr, checks to stdout.
"""

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from prodstack import ROOT, DockerEngine, Stack, compose_command, ensure_base_image, log, wait_for

PROJECT = "storbench-prodcheck"
SERVICES = ["postgres", "redis", "api", "proxy"]
FINAL = {"completed", "failed", "cancelled"}
RUN_BOUND_S = 240.0  # the longest run (60 s of fio) plus faults, redispatch and upload retries
RECOVERY_BOUND_S = 120.0
LONG_RUN_S = 60
QUICK_PRESET = "randread-4k-iops"


class Checks:
    """Named checks, each printed as it passes or fails."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.figures: list[str] = []

    def record(self, name: str, ok: bool, detail: str = "") -> bool:
        """Count and print one check."""
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
        return ok

    def attempt(self, name: str, step: Callable[[], str]) -> bool:
        """Run a step whose exception fails the check; its return value is the detail."""
        try:
            return self.record(name, True, step())
        except Exception as exc:
            return self.record(name, False, f"{type(exc).__name__}: {exc}")


class Service:
    """The storbench API as a signed-in client sees it, through the proxy."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30.0)

    def sign_in(self, email: str, password: str) -> None:
        """Password flow: keep the bearer token for every later call."""
        answer = self.http.post("/api/v1/auth/token", data={"username": email, "password": password})
        answer.raise_for_status()
        self.http.headers["Authorization"] = f"Bearer {answer.json()['access_token']}"

    def get(self, path: str, **params: Any) -> Any:
        """GET a JSON answer, raising on an error status."""
        answer = self.http.get(path, params=params)
        answer.raise_for_status()
        return answer.json()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST JSON, raising on an error status (with the API's message)."""
        answer = self.http.post(path, json=body)
        if answer.is_error:
            raise RuntimeError(f"POST {path}: {answer.status_code} {answer.text[:300]}")
        return answer.json()

    def start_run(self, target_id: int, **source: Any) -> int:
        """Queue a run; its id."""
        return int(self.post("/api/v1/runs", {"target_id": target_id, **source})["id"])

    def run(self, run_id: int) -> dict[str, Any]:
        """One run, with its results."""
        found: dict[str, Any] = self.get(f"/api/v1/runs/{run_id}")
        return found

    def wait_final(self, run_id: int, bound_s: float = RUN_BOUND_S) -> dict[str, Any]:
        """The run once final; TimeoutError if it is still queued or running past the bound."""
        wait_for(f"run {run_id} final", lambda: self.run(run_id)["status"] in FINAL, bound_s, 1.0)
        return self.run(run_id)

    def stored_result_ids(self, run_id: int) -> set[int]:
        """The ids of the run's results that PostgreSQL holds, as the history lists them."""
        page = self.get("/api/v1/results", run_id=run_id, limit=100)
        return {int(item["id"]) for item in page["items"]}


def randread_jobs(seconds: int) -> list[dict[str, Any]]:
    """One time-based 4 KiB random-read job on a 64 MiB file."""
    job = {"name": f"randread-4k-{seconds}s", "rw": "randread", "bs": "4k", "iodepth": 16, "size": "64m"}
    return [{**job, "direct": True, "ioengine": "libaio", "runtime": seconds, "time_based": True}]


def ended_well(run: dict[str, Any]) -> tuple[bool, str]:
    """Completed with results, or failed/cancelled saying why."""
    if run["status"] == "completed":
        return bool(run["result_ids"]), f"completed, {len(run['result_ids'])} result(s)"
    return bool(run.get("error")), f"{run['status']}: {run.get('error')!r}"


class ProdCheck:
    """The whole check, step by step; each step records its checks."""

    def __init__(self, stack: Stack, checks: Checks) -> None:
        self.stack = stack
        self.checks = checks
        self.api = Service(stack.url)
        self.target_id = 0
        self.host_id = 0
        self.kept: dict[int, set[int]] = {}  # run id -> result ids stored, which must survive the faults

    def bring_up(self) -> bool:
        """Build the images, start the stack from nothing, wait for every health check."""
        start = time.monotonic()
        self.stack.compose("build", timeout=3600)
        self.checks.figures.append(f"images built (cached layers reused) in {time.monotonic() - start:.0f} s")
        start = time.monotonic()
        self.stack.compose("up", "-d", "postgres", "redis", "migrate", "api", "proxy")
        took = wait_for("stack healthy", lambda: self.stack.all_healthy(SERVICES), 300, 1.0)
        self.checks.figures.append(f"stack up and healthy in {time.monotonic() - start:.0f} s")
        migrate = self.stack.containers("migrate")
        exit_code = self.stack.state(migrate[0]).get("ExitCode") if migrate else None
        self.checks.record("migrations ran once, before the API", exit_code == 0, f"exit code {exit_code}")
        apis = self.stack.containers("api")
        self.checks.record("API runs as several containers", len(apis) >= 2, f"{len(apis)} API containers")
        return self.checks.record("every service healthy", True, f"after {took:.0f} s")

    def sign_in_and_enroll(self) -> bool:
        """Through the proxy: the SPA, sign-in, an enrollment token, the worker online, its scratch target."""
        self.checks.attempt("proxy serves the web UI", self._spa)
        self.checks.attempt("proxy refuses a body over the API's 65 MiB limit", self._body_limit)
        if not self.checks.attempt("sign in through the proxy", self._sign_in):
            return False
        if not self.checks.attempt("compose worker enrolls and comes online", self._enroll_worker):
            return False
        return self.checks.attempt("scratch volume registered as the worker's target", self._target)

    def _spa(self) -> str:
        answer = self.api.http.get("/")
        assert answer.status_code == 200 and "<html" in answer.text.lower(), answer.status_code
        return "GET / is the SPA"

    def _body_limit(self) -> str:
        body = bytes(66 * 1024 * 1024 + 1)
        answer = self.api.http.post("/api/v1/results/import", content=body)
        assert answer.status_code == 413, f"{answer.status_code}: {answer.text[:200]}"
        assert "<html>" in answer.text, f"not nginx's answer: {answer.text[:200]}"  # the API answers JSON
        return "413 from nginx, the API never saw it"

    def _sign_in(self) -> str:
        self.api.sign_in(
            self.stack.settings["STORBENCH_ADMIN_EMAIL"], self.stack.settings["STORBENCH_ADMIN_PASSWORD"]
        )
        return f"as {self.api.get('/api/v1/auth/me')['email']}"

    def _enroll_worker(self) -> str:
        token = self.api.post("/api/v1/enrollment-tokens", {"name": "prod-check compose worker"})["token"]
        self.stack.settings["STORBENCH_WORKER_TOKEN"] = token
        self.stack.write_env()
        self.stack.compose("up", "-d", "worker")
        name = self.stack.settings["STORBENCH_WORKER_NAME"]

        def online() -> bool:
            hosts = self.api.get("/api/v1/hosts")["items"]
            found = [h for h in hosts if h["name"] == name and h["status"] == "online"]
            if found:
                self.host_id = int(found[0]["id"])
            return bool(found)

        took = wait_for("worker online", online, 120, 1.0)
        return f"host {name} online after {took:.0f} s"

    def _target(self) -> str:
        body = {"name": "compose scratch", "host_id": self.host_id, "path": "/scratch"}
        self.target_id = int(
            self.api.post("/api/v1/targets", {**body, "storage_class": "docker volume"})["id"]
        )
        return f"target {self.target_id} at /scratch"

    def preset_end_to_end(self) -> None:
        """A preset through every part of the stack, its result stored in PostgreSQL."""

        def step() -> str:
            run_id = self.api.start_run(self.target_id, preset_id=QUICK_PRESET)
            run = self.api.wait_final(run_id)
            assert run["status"] == "completed", f"{run['status']}: {run.get('error')}"
            stored = self.api.stored_result_ids(run_id)
            assert stored and stored == set(run["result_ids"]), (
                f"stored {stored}, run lists {run['result_ids']}"
            )
            iops = run["results"][0]["directions"]["read"]["iops"]
            assert iops > 0, "no IOPS measured"
            self.kept[run_id] = stored
            return f"run {run_id}: {iops:.0f} IOPS, result {sorted(stored)} stored"

        self.checks.attempt(f"preset {QUICK_PRESET} end to end", step)

    def outside_scratch_refused(self) -> None:
        """A target outside the volume the worker lends fails with a reason; fio never touches it."""

        def step() -> str:
            body = {"name": "not lent", "host_id": self.host_id, "path": "/srv/not-lent"}
            answer = self.api.http.post("/api/v1/targets", json=body)
            if answer.status_code == 201:
                run = {"target_id": answer.json()["id"], "preset_id": QUICK_PRESET}
                answer = self.api.http.post("/api/v1/runs", json=run)
            if answer.status_code in {409, 422}:  # refused before anything starts: as good
                return f"refused by the API: {answer.json().get('message', '')[:120]}"
            answer.raise_for_status()
            run = self.api.wait_final(int(answer.json()["id"]), 120)
            assert run["status"] == "failed" and run.get("error"), f"{run['status']}: {run.get('error')}"
            return f"failed: {run['error'][:120]}"

        self.checks.attempt("worker refuses a path outside its scratch volume", step)

    def faults_during_long_run(self) -> None:
        """An API container, Redis and PostgreSQL killed and restarted, one at a time, during a 60 s run."""
        try:
            run_id = self.api.start_run(
                self.target_id, jobs=randread_jobs(LONG_RUN_S), label="prod-check faults"
            )
            wait_for(f"run {run_id} running", lambda: self.api.run(run_id)["status"] == "running", 120, 0.5)
        except Exception as exc:
            self.checks.record("long run starts", False, f"{type(exc).__name__}: {exc}")
            return
        self.checks.attempt("an API container killed and restarted", self._kill_api)
        self.checks.attempt("Redis killed and restarted", lambda: self._kill_service("redis"))
        self.checks.attempt("PostgreSQL killed and restarted", lambda: self._kill_service("postgres"))
        self._judge_run(run_id, "the 60 s run during API, Redis and PostgreSQL faults")

    def worker_fault(self) -> None:
        """The worker container killed and restarted during a run."""
        try:
            run_id = self.api.start_run(
                self.target_id, jobs=randread_jobs(20), label="prod-check worker fault"
            )
            wait_for(f"run {run_id} running", lambda: self.api.run(run_id)["status"] == "running", 120, 0.5)
        except Exception as exc:
            self.checks.record("worker-fault run starts", False, f"{type(exc).__name__}: {exc}")
            return
        self.checks.attempt("the worker killed and restarted", self._kill_worker)
        self._judge_run(run_id, "the run during the worker fault")

    def _kill_api(self) -> str:
        victim = self.stack.containers("api")[0]
        start = time.monotonic()
        self.stack.kill_and_restart(victim)
        # Meanwhile the other API container serves everything through the proxy.
        served = sum(self.api.http.get("/api/v1/auth/me").status_code == 200 for _ in range(10))
        took = wait_for("API container healthy", lambda: self.stack.healthy(victim), RECOVERY_BOUND_S)
        took = time.monotonic() - start
        self.checks.figures.append(f"API container: healthy again {took:.1f} s after the kill")
        assert served == 10, f"only {served}/10 requests served while one API container was down"
        return f"healthy again after {took:.1f} s; 10/10 requests served meanwhile"

    def _kill_service(self, service: str) -> str:
        victim = self.stack.containers(service)[0]
        start = time.monotonic()
        self.stack.kill_and_restart(victim)
        wait_for(f"{service} healthy", lambda: self.stack.healthy(victim), RECOVERY_BOUND_S)
        wait_for(
            "the API answers",
            lambda: self.api.http.get("/api/v1/auth/me").status_code == 200,
            RECOVERY_BOUND_S,
        )
        took = time.monotonic() - start
        self.checks.figures.append(f"{service}: healthy and the API answering {took:.1f} s after the kill")
        return f"healthy, the API answering, {took:.1f} s after the kill"

    def _kill_worker(self) -> str:
        victim = self.stack.containers("worker")[0]
        start = time.monotonic()
        self.stack.kill_and_restart(victim)

        def online() -> bool:
            host = self.api.get(f"/api/v1/hosts/{self.host_id}")
            return bool(host["status"] in {"online", "busy"} and self.stack.state(victim).get("Running"))

        wait_for("worker back", online, RECOVERY_BOUND_S)
        took = time.monotonic() - start
        self.checks.figures.append(f"worker: running and its host online {took:.1f} s after the kill")
        return f"back online {took:.1f} s after the kill"

    def _judge_run(self, run_id: int, what: str) -> None:
        start = time.monotonic()
        try:
            run = self.api.wait_final(run_id)
        except TimeoutError as exc:
            self.checks.record(f"{what} reaches a final state", False, str(exc))
            return
        ok, detail = ended_well(run)
        self.checks.record(f"{what} ends completed or failed with a reason", ok, detail)
        if run["status"] == "completed":
            self.kept[run_id] = self.api.stored_result_ids(run_id)
        self.checks.figures.append(
            f"run {run_id} final {time.monotonic() - start:.0f} s after the last fault step"
        )

    def nothing_lost_or_stuck(self) -> None:
        """Every result stored before is still there; no run is left queued or running; a new run works."""

        def kept() -> str:
            lost = {run_id: ids - self.api.stored_result_ids(run_id) for run_id, ids in self.kept.items()}
            lost = {run_id: ids for run_id, ids in lost.items() if ids}
            assert not lost, f"results lost: {lost}"
            count = sum(len(ids) for ids in self.kept.values())
            return f"{count} result(s) of {len(self.kept)} run(s) all there"

        def none_stuck() -> str:
            stuck = [
                r["id"]
                for s in ("queued", "running")
                for r in self.api.get("/api/v1/runs", status=s)["items"]
            ]
            assert not stuck, f"runs not final: {stuck}"
            return "no run queued or running"

        self.checks.attempt("stored results survive every restart", kept)
        self.checks.attempt("no run left stuck", none_stuck)
        self.preset_end_to_end()


def check(stack: Stack, checks: Checks) -> None:
    """Every step, in order; a step that cannot go on ends the check early (its failure counted)."""
    prod = ProdCheck(stack, checks)
    if not checks.attempt(
        "stack comes up from a clean state", lambda: "ok" if prod.bring_up() else "see above"
    ):
        return
    if not prod.sign_in_and_enroll():
        return
    prod.preset_end_to_end()
    prod.outside_scratch_refused()
    prod.faults_during_long_run()
    prod.worker_fault()
    prod.nothing_lost_or_stuck()


def main() -> int:
    """Run the check from a clean state and tear it down; exit status 1 when any check failed."""
    started = time.monotonic()
    checks = Checks()
    engine = DockerEngine(ROOT / "var" / "prod-check" / "dockerd.log")
    with tempfile.TemporaryDirectory(prefix="storbench-prod-check.") as temp:
        stack = Stack.generate(PROJECT, Path(temp) / ".env")
        try:
            engine.ensure()
            log(f"compose: {' '.join(compose_command())}")
            built = ensure_base_image()
            if built:
                checks.figures.append(f"base image built in {built:.0f} s")
            log("removing any earlier prod-check stack (down -v)")
            stack.down()
            check(stack, checks)
            if checks.failed:
                log("logs of the failed stack:\n" + stack.logs())
        except Exception as exc:
            checks.record("prod-check ran to the end", False, f"{type(exc).__name__}: {exc}")
        finally:
            try:
                stack.down()
                leftovers = stack.leftovers()
                checks.record("torn down: no container or volume left", not leftovers, " ".join(leftovers))
            except Exception as exc:
                checks.record("torn down", False, str(exc))
            engine.stop()
    for figure in checks.figures:
        log(f"figure: {figure}")
    log(f"prod-check took {time.monotonic() - started:.0f} s")
    print(f"prod-check: {checks.passed} passed, {checks.failed} failed", flush=True)
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
