"""What needs attention: regressions nobody acknowledged, recent failed runs and schedule slots,
hosts that cannot take work, and recent results below their class's spec.

One list for the dashboard and the CLI, so both say the same; each item links to the page where it
is resolved. Failures resolve themselves when a later run (or slot) of the same kind succeeds, and
a series' spec verdict is its newest result's.
"""

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.attention import repository
from storbench_api.attention.schemas import AttentionItem, AttentionKind, AttentionOut
from storbench_api.db import utcnow
from storbench_api.figures.definition import figure_named
from storbench_api.hosts import service as hosts_service
from storbench_api.models import ChangePoint, FiringStatus, Host, Run, ScheduleFiring

# Hosts read to find those offline: a team has a handful, a large lab a few hundred.
HOSTS_READ = 1000
ERROR_WORDS = 200


def _first_line(text: str | None, fallback: str) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else fallback
    return line if len(line) <= ERROR_WORDS else line[: ERROR_WORDS - 1] + "…"


def _amount(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.3g}"


def _regression(point: ChangePoint, target: str) -> AttentionItem:
    figure = figure_named(point.metric)
    label = figure.label if figure else point.metric
    change = (point.ratio - 1) * 100
    sentence = (
        f"{label} of {point.job_name} ({point.direction}) on {target} went from "
        f"{_amount(point.before_median)} to {_amount(point.after_median)} ({change:+.0f}%): "
        "a regression nobody has acknowledged"
    )
    return AttentionItem(
        kind=AttentionKind.regression,
        id=point.id,
        sentence=sentence,
        link="/regressions",
        at=point.detected_at,
    )


def _failed_run(run: Run, target: str) -> AttentionItem:
    what = f"plan {run.plan_name}" if run.plan_name else "inline jobs"
    sentence = f"Run {run.id} ({what} on {target}) failed: {_first_line(run.error, 'no reason recorded')}"
    return AttentionItem(
        kind=AttentionKind.failed_run,
        id=run.id,
        sentence=sentence,
        link=f"/runs/{run.id}",
        at=run.finished_at or run.updated_at,
    )


def _failed_slot(slot: ScheduleFiring, schedule: str) -> AttentionItem:
    slot_time = slot.slot_at.strftime("%Y-%m-%d %H:%M UTC")
    if slot.status == FiringStatus.missed:
        missed = f"{slot.missed_count} slots up to" if slot.missed_count > 1 else "its slot of"
        happened = f"missed {missed} {slot_time}"
    else:
        happened = f"could not start its run at {slot_time}"
    reason = _first_line(slot.reason, "no reason recorded")
    return AttentionItem(
        kind=AttentionKind.failed_slot,
        id=slot.id,
        sentence=f"Schedule '{schedule}' {happened}: {reason}",
        link="/schedules",
        at=slot.slot_at,
    )


def _host(host: Host) -> AttentionItem:
    revoked = host.revoked_at is not None
    reason = host.revoked_reason if revoked and host.revoked_reason else None
    sentence = hosts_service.offline_reason(host)
    if reason:
        sentence = f"{sentence} (cut off: {reason})"
    return AttentionItem(
        kind=AttentionKind.host_revoked if revoked else AttentionKind.host_offline,
        id=host.id,
        sentence=sentence[:1].upper() + sentence[1:],
        link="/hosts",
        at=host.revoked_at or host.last_seen_at or host.created_at,
    )


def _below_spec(row: Any) -> AttentionItem | None:
    below = [check for check in row.spec_checks or [] if check.get("verdict") == "below"]
    if not below:
        return None
    checks = "; ".join(
        f"{c.get('direction')} {c.get('metric')} {c.get('percent', 0):.0f}% of "
        f"{_amount(float(c.get('expected', 0)))} {c.get('unit', '')}".rstrip()
        for c in below
    )
    shown = f"'{row.label}' " if row.label else ""
    return AttentionItem(
        kind=AttentionKind.below_spec,
        id=row.id,
        sentence=f"{row.job_name} {shown}on {row.name} is below its spec: {checks}",
        link=f"/results/{row.id}",
        at=row.measured_at,
    )


def _below_spec_items(db: Session, team_id: int, since: datetime) -> list[AttentionItem]:
    """The newest result of each series (target and job) measured since then, if below spec."""
    newest: dict[tuple[int, str], Any] = {}
    for row in repository.recent_judged_results(db, team_id, since):
        newest.setdefault((row.target_id, row.job_name), row)
    return [item for row in newest.values() if (item := _below_spec(row)) is not None]


def _offline_hosts(db: Session, team_id: int) -> list[AttentionItem]:
    """Revoked hosts, then hosts that never connected or stopped reporting (not online)."""
    now = utcnow()
    hosts = [h for h in repository.team_hosts(db, team_id, HOSTS_READ) if not hosts_service.is_online(h, now)]
    items = [_host(h) for h in hosts]
    return sorted(items, key=lambda item: (item.kind != AttentionKind.host_revoked, -item.at.timestamp()))


def needs_attention(db: Session, team_id: int, *, days: int, limit: int) -> AttentionOut:
    """Up to `limit` items of each kind, kind by kind, newest first; failures of the last `days`."""
    since = utcnow() - timedelta(days=days)
    over = limit + 1
    kinds: list[list[AttentionItem]] = [
        [_regression(p, t) for p, t in repository.unacknowledged_regressions(db, team_id, over)],
        [_failed_run(r, t) for r, t in repository.unresolved_failed_runs(db, team_id, since, over)],
        [_failed_slot(s, n) for s, n in repository.unresolved_failed_slots(db, team_id, since, over)],
        _offline_hosts(db, team_id),
        _below_spec_items(db, team_id, since),
    ]
    items = [item for found in kinds for item in found[:limit]]
    return AttentionOut(
        items=items, since=since, limit=limit, truncated=any(len(found) > limit for found in kinds)
    )
