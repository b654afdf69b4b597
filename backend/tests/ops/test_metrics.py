"""GET /metrics: off by default, token-guarded when on, gauges read now and requests by route template."""

import json
import re

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.broker import host_queue
from storbench_api.models import Run, RunStatus
from storbench_api.ops import gauges
from storbench_api.settings import REPO_ROOT, get_settings
from tests.conftest import Caller, make_host, make_target

TOKEN = "metrics-token-for-tests-0123456789"


@pytest.fixture
def metrics_on(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Metrics served, and the header a scrape sends."""
    monkeypatch.setattr(get_settings(), "metrics_token", TOKEN)
    return {"Authorization": f"Bearer {TOKEN}"}


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample in Prometheus's text format (labels: those it must carry)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_metrics_are_not_served_without_a_token_setting(client: TestClient) -> None:
    answer = client.get("/metrics")
    assert answer.status_code == 404
    assert "STORBENCH_METRICS_TOKEN" in answer.json()["message"]


def test_metrics_refuse_a_scrape_without_the_token(client: TestClient, metrics_on: dict[str, str]) -> None:
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer not-the-token"}).status_code == 401


def test_a_short_metrics_token_is_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORBENCH_METRICS_TOKEN", "short")
    with pytest.raises(ValueError, match="at least 16 characters"):
        type(get_settings())()


def test_metrics_show_runs_by_state_and_request_latency_by_route_template(
    client: TestClient, db: Session, owner: Caller, metrics_on: dict[str, str]
) -> None:
    before = client.get("/metrics", headers=metrics_on).text
    host, _ = make_host(db, team=owner.team, name="metrics-host")
    target = make_target(db, host=host)
    db.add(Run(team_id=owner.team.id, target_id=target.id, jobs=[], status=RunStatus.running))
    db.commit()
    for run_id in (999_991, 999_992, 999_993):
        assert client.get(f"/api/v1/runs/{run_id}", headers=owner.headers).status_code == 404

    text = client.get("/metrics", headers=metrics_on).text

    running = sample(text, "storbench_runs", state="running")
    assert running == (sample(before, "storbench_runs", state="running") or 0) + 1
    assert sample(text, "storbench_runs", state="completed") is not None
    labels = {"method": "GET", "route": "/api/v1/runs/{run_id}", "status": "4xx"}
    assert (sample(text, "storbench_http_request_duration_seconds_count", **labels) or 0) - (
        sample(before, "storbench_http_request_duration_seconds_count", **labels) or 0
    ) == 3
    # The template, never the ids asked for: one series however many runs are read.
    assert "999991" not in text


def test_metrics_show_each_hosts_queue_depth_and_heartbeat_age(
    client: TestClient, db: Session, owner: Caller, metrics_on: dict[str, str]
) -> None:
    host, _ = make_host(db, team=owner.team, name="queued-host")
    broker = redis.Redis.from_url(get_settings().effective_broker_url)
    broker.rpush(host_queue(host.id), "one", "two")
    try:
        text = client.get("/metrics", headers=metrics_on).text
    finally:
        broker.delete(host_queue(host.id))
    labels = {"host_id": str(host.id), "host": "queued-host", "team": owner.team.name}
    assert sample(text, "storbench_host_queue_depth", **labels) == 2
    age = sample(text, "storbench_host_heartbeat_age_seconds", **labels)
    assert age is not None and age >= 0
    assert sample(text, "storbench_broker_up") == 1
    assert (sample(text, "storbench_redis_used_memory_bytes") or 0) > 0
    assert sample(text, "storbench_redis_maxmemory_bytes") is not None
    assert sample(text, "storbench_webhook_deliveries_pending") is not None


def test_metrics_count_rate_limit_refusals_by_limiter(client: TestClient, metrics_on: dict[str, str]) -> None:
    def refusals() -> dict[str, float]:
        text = client.get("/metrics", headers=metrics_on).text
        return {
            limiter: sample(text, "storbench_rate_limit_refusals_total", limiter=limiter) or 0
            for limiter in ("sign-in", "account-backoff")
        }

    before = refusals()
    answers = [
        client.post("/api/v1/auth/login", json={"email": "nobody@example.com", "password": "wrong-guess"})
        for _ in range(12)
    ]
    refused = sum(1 for a in answers if a.status_code == 429)
    assert refused > 0
    after = refusals()
    # The address's window and the account's backoff both refuse guesses; each says which it was.
    assert sum(after.values()) - sum(before.values()) == refused
    assert after["sign-in"] > before["sign-in"]


def test_the_grafana_dashboard_uses_only_metrics_the_service_serves(
    client: TestClient, metrics_on: dict[str, str]
) -> None:
    client.get("/api/v1/health")
    served = {
        re.sub(r"_total$", "", line.split(" ")[2])
        for line in client.get("/metrics", headers=metrics_on).text.splitlines()
        if line.startswith("# TYPE")
    }
    dashboard = json.loads((REPO_ROOT / "docs" / "grafana" / "storbench.json").read_text())
    used = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"storbench_\w+", target["expr"])
    }
    # A histogram is served as name_bucket/_count/_sum, a counter as name_total: typed under its base name.
    bases = {re.sub(r"_(bucket|count|sum|total)$", "", name) for name in used}
    assert len(bases) >= 9
    assert bases <= served, bases - served


def test_redis_memory_is_its_info_and_read_at_most_every_few_seconds(
    client: TestClient, metrics_on: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(gauges, "_clock", lambda: now[0])
    monkeypatch.setattr(gauges, "_memory_readings", {})
    broker = redis.Redis.from_url(get_settings().effective_broker_url)
    configured = int(broker.config_get("maxmemory")["maxmemory"])
    # A limit no test comes near, so changing it for a moment takes nothing from anyone.
    raised = max(configured, 64 * 1024**3) + 1024**2
    try:
        first = client.get("/metrics", headers=metrics_on).text
        assert sample(first, "storbench_redis_maxmemory_bytes") == configured
        broker.config_set("maxmemory", raised)
        now[0] += gauges.REDIS_MEMORY_MAX_AGE_S / 2
        soon = client.get("/metrics", headers=metrics_on).text
        assert sample(soon, "storbench_redis_maxmemory_bytes") == configured
        assert sample(soon, "storbench_redis_used_memory_bytes") == sample(
            first, "storbench_redis_used_memory_bytes"
        )
        now[0] += gauges.REDIS_MEMORY_MAX_AGE_S
        later = client.get("/metrics", headers=metrics_on).text
        assert sample(later, "storbench_redis_maxmemory_bytes") == raised
    finally:
        broker.config_set("maxmemory", configured)
        broker.close()
