"""What each API process counts as it happens: request latency, results stored, rate-limit refusals.

Several API processes may serve at once (uvicorn workers): `storbench-api serve` then points
prometheus_client at a folder of per-process files (PROMETHEUS_MULTIPROC_DIR, emptied at start), and
a scrape of any process sums every process's counts. A single process counts in memory. What is a
state rather than an event (runs by state, queue depths, heartbeat ages) is read from the database
and Redis at scrape time instead (ops.gauges), so it is the same whichever process answers.
"""

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
    values,
)
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from storbench_api.kit.request_context import Answered

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Decided by prometheus_client when it was first imported: counts in files or in memory.
MULTIPROCESS = values.ValueClass is not values.MutexValue

# No *_created series beside each counter and histogram: nothing here reads them.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Up to 10 s: the API's requests take milliseconds; a slow one shows in the top buckets.
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUEST_SECONDS = Histogram(
    "storbench_http_request_duration_seconds",
    "Time from a request's arrival to its answer's first byte, by route template and status class",
    ["method", "route", "status"],
    buckets=_LATENCY_BUCKETS,
)
RESULTS_STORED = Counter(
    "storbench_results_stored",
    "Results stored (one per fio job, host and repetition), by source: run or import",
    ["source"],
)
RATE_LIMIT_REFUSALS = Counter(
    "storbench_rate_limit_refusals",
    "Requests refused with 429, by the limiter that refused them",
    ["limiter"],
)

_RESULTS_KEY = "storbench.results_stored"
# Every label value known in advance starts at 0, so rate() sees the first one counted.
LIMITERS = ("sign-in", "password-change", "account-backoff", "event-streams")
for _source in ("run", "import"):
    RESULTS_STORED.labels(_source)
for _limiter in LIMITERS:
    RATE_LIMIT_REFUSALS.labels(_limiter)


def observe_request(answered: Answered) -> None:
    """Count one answered request in the latency histogram (status as 2xx, 4xx, 5xx)."""
    REQUEST_SECONDS.labels(answered.method, answered.route, f"{answered.status // 100}xx").observe(
        answered.seconds
    )


def count_refusal(limiter: str) -> None:
    """One request refused by a rate limiter (a fixed name: sign-in, account-backoff, …)."""
    RATE_LIMIT_REFUSALS.labels(limiter).inc()


def count_results_after_commit(db: Session, source: str, stored: int) -> None:
    """Count results stored in db's transaction, once (and only if) it commits."""
    pending: dict[str, int] = db.info.setdefault(_RESULTS_KEY, {})
    pending[source] = pending.get(source, 0) + stored


@event.listens_for(Session, "after_commit")
def _count_committed(db: Session) -> None:
    for source, stored in db.info.pop(_RESULTS_KEY, {}).items():
        RESULTS_STORED.labels(source).inc(stored)


@event.listens_for(Session, "after_transaction_end")
def _forget_uncommitted(db: Session, transaction: SessionTransaction) -> None:
    # Rolled back or closed without a commit (a commit has counted by now).
    if transaction.parent is None:
        db.info.pop(_RESULTS_KEY, None)


def prepare_multiprocess_folder(folder: Path) -> None:
    """Before the server starts its processes: count in files in folder, emptied of a former run's."""
    os.environ.setdefault(MULTIPROCESS_ENV, str(folder))
    chosen = Path(os.environ[MULTIPROCESS_ENV])
    if chosen.exists():
        shutil.rmtree(chosen)
    chosen.mkdir(parents=True)


class _ThisProcess(Collector):
    """This process's in-memory counts (single-process mode), with the process's own figures."""

    def collect(self) -> Iterable[object]:  # type: ignore[override]
        return REGISTRY.collect()


def exposition(state: Collector) -> bytes:
    """The text Prometheus scrapes: every process's event counts and the state read now."""
    registry = CollectorRegistry()
    if MULTIPROCESS:
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ThisProcess())
    registry.register(state)
    return generate_latest(registry)
