"""Live progress latency: from fio producing a per-second report to a browser-like client receiving it.

The worker runs fio with --status-interval=1, turns each report into a sample and POSTs what it has
just after fio writes it; the API stores it, announces the change, and pushes it on
GET /runs/{id}/events (Server-Sent Events, read once per change for all viewers). For every sample of
every round this prints:

  fio -> server      received_at - measured_at, both as GET /runs/{id}/progress returns them
  server -> client   when this script's SSE subscriber got the sample - received_at
  fio -> client      when this script's SSE subscriber got the sample - measured_at   (target < 2 s)

measured_at is fio's own timestamp_ms of the report, stored as the worker sent it (the host's clock),
received_at is the server's clock and the subscriber reads time.time(): here all three are this
machine's one clock, so no offset enters the figures. The subscriber is an httpx streaming client
with a bearer token, opened right after POST /runs (before fio's first report can exist); it takes a
sample's arrival when its `data:` line arrives. Figures only, never a pass/fail.

    .venv/bin/python bench/progress_latency.py [--rounds 3] [--runtime 10]
"""

import argparse
import json
import statistics
import threading
import time
from datetime import datetime

import httpx
import report
from benchstack import BenchStack, bench_workdir, nearest_rank, randread_4k_job, running_stack

TARGET_S = 2.0


class EventSubscriber(threading.Thread):
    """Reads one run's event stream as a browser's EventSource would, noting when each sample arrives."""

    def __init__(self, url: str, token: str, run_id: int) -> None:
        super().__init__(name=f"sse-run{run_id}", daemon=True)
        self._request = (f"{url}/api/v1/runs/{run_id}/events", {"Authorization": f"Bearer {token}"})
        self.connected = threading.Event()
        self.connected_at = 0.0
        self.arrivals: dict[int, float] = {}
        self.statuses: list[str] = []
        self.error: Exception | None = None

    def run(self) -> None:
        url, headers = self._request
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10.0, read=60.0)) as client,
                client.stream("GET", url, headers=headers) as response,
            ):
                response.raise_for_status()
                self.connected_at = time.time()
                self.connected.set()
                event = "message"
                for line in response.iter_lines():
                    if line.startswith("event:"):
                        event = line.removeprefix("event:").strip()
                    elif line.startswith("data:"):
                        arrived = time.time()
                        data = json.loads(line.removeprefix("data:"))
                        if event == "progress":
                            self.arrivals[int(data["id"])] = arrived
                        elif event == "status":
                            self.statuses.append(str(data["status"]))
                    elif not line:
                        event = "message"
        except Exception as exc:
            self.error = exc
        finally:
            self.connected.set()


class Latencies:
    """Seconds per stage over every sample of every round."""

    def __init__(self) -> None:
        self.fio_to_server: list[float] = []
        self.server_to_client: list[float] = []
        self.fio_to_client: list[float] = []
        self.stored = self.without_measured_at = self.missed_by_client = self.before_subscribed = 0


def epoch(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp).timestamp()


def measure_round(stack: BenchStack, runtime: int, latencies: Latencies) -> tuple[int, list[float]]:
    """One run watched over SSE; adds its samples to `latencies`, returns its id and fio -> client figures."""
    job = randread_4k_job("progress-randread-4k", runtime)
    run = stack.api.post("/runs", json={"target_id": stack.target_id, "jobs": [job]})
    run.raise_for_status()
    run_id = int(run.json()["id"])
    subscriber = EventSubscriber(stack.url, stack.token, run_id)
    subscriber.start()
    subscriber.connected.wait(timeout=10)
    # The stream ends by itself once the run has ended.
    subscriber.join(timeout=runtime + 180)
    if subscriber.is_alive() or subscriber.error is not None:
        raise SystemExit(f"run {run_id}: event stream did not end cleanly ({subscriber.error})")
    done = stack.api.get(f"/runs/{run_id}").json()
    if done["status"] != "completed":
        raise SystemExit(f"run {run_id} ended {done['status']}: {done['error']}")
    progress = stack.api.get(f"/runs/{run_id}/progress").json()
    this_round: list[float] = []
    for sample in (s for host in progress["hosts"] for s in host["samples"]):
        latencies.stored += 1
        received = epoch(sample["received_at"])
        measured = epoch(sample["measured_at"]) if sample["measured_at"] else None
        if measured is None:
            latencies.without_measured_at += 1
        else:
            latencies.fio_to_server.append(received - measured)
        arrived = subscriber.arrivals.get(int(sample["id"]))
        if received < subscriber.connected_at:
            # Stored before the stream was open: its arrival says when we connected, not how fast it came.
            latencies.before_subscribed += 1
            continue
        if arrived is None:
            latencies.missed_by_client += 1
            continue
        latencies.server_to_client.append(arrived - received)
        if measured is not None:
            latencies.fio_to_client.append(arrived - measured)
            this_round.append(arrived - measured)
    return run_id, this_round


def print_table(latencies: Latencies, rounds: int, runtime: int) -> None:
    print()
    print(f"progress latency, {rounds} rounds of a {runtime} s 4k randread job, seconds")
    print(f"  {'stage':42}{'median':>8}{'p95':>8}{'max':>8}{'samples':>9}")
    rows = (
        ("fio -> server (received_at - measured_at)", latencies.fio_to_server),
        ("server -> SSE client", latencies.server_to_client),
        ("fio -> SSE client (browser-equivalent)", latencies.fio_to_client),
    )
    for label, values in rows:
        if not values:
            print(f"  {label:42}{'-':>8}{'-':>8}{'-':>8}{0:>9}")
            continue
        median, high, worst = statistics.median(values), nearest_rank(values, 0.95), max(values)
        print(f"  {label:42}{median:>8.3f}{high:>8.3f}{worst:>8.3f}{len(values):>9}")
    within = sum(v <= TARGET_S for v in latencies.fio_to_client)
    print(f"  target: fio -> client within {TARGET_S:.0f} s; {within} of {len(latencies.fio_to_client)} were")
    print(
        f"  samples stored {latencies.stored}, not seen by the SSE client {latencies.missed_by_client}, "
        f"stored before it subscribed {latencies.before_subscribed}, "
        f"without measured_at {latencies.without_measured_at}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runtime", type=int, default=10, help="fio runtime of each round, seconds")
    args = parser.parse_args()
    latencies = Latencies()
    with bench_workdir("storbench-progress-") as work, running_stack(work) as stack:
        for round_no in range(1, args.rounds + 1):
            run_id, figures = measure_round(stack, args.runtime, latencies)
            summary = (
                f"median {statistics.median(figures):.3f} s, max {max(figures):.3f} s" if figures else "-"
            )
            print(f"round {round_no}: run {run_id}, {len(figures)} samples, fio -> SSE client {summary}")
    print_table(latencies, args.rounds, args.runtime)
    report.note("progress_latency", f"{args.rounds} rounds of a {args.runtime} s 4k randread job")
    report.record_spread("progress_latency", "fio -> server", latencies.fio_to_server, "s")
    report.record_spread("progress_latency", "fio -> SSE client", latencies.fio_to_client, "s", TARGET_S)
    report.record(
        "progress_latency",
        "samples not seen by the SSE client",
        latencies.missed_by_client,
        "",
        "0",
        latencies.missed_by_client == 0,
    )


if __name__ == "__main__":
    main()
