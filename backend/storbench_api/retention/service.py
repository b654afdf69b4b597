"""Retention: how long a team keeps fio's raw outputs and its runs' per-second series.

Summaries are kept forever: a result keeps its figures, directions, findings and place in history
and comparisons; a run keeps its multi-host aggregate (stored before the series it came from go).
A raw output past its window keeps its row (size, digest) with its content emptied; a run past its
window loses its samples. Every API process applies the settings every retention_interval (the
sweeper), in batches of its own transaction each; racing processes do the same work twice at worst.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import get_sessionmaker, utcnow
from storbench_api.errors import NotFound
from storbench_api.models import Team
from storbench_api.retention import repository
from storbench_api.retention.schemas import RetentionIn, RetentionOut
from storbench_api.runs.presenters import aggregate_to_keep

log = logging.getLogger(__name__)

# Rows one transaction prunes: a pass never holds locks on a team's whole history at once.
RAW_OUTPUT_BATCH = 500
RUN_BATCH = 50


@dataclass
class Pruned:
    """What one pass removed."""

    raw_outputs: int = 0
    runs: int = 0


def _team(db: Session, team_id: int) -> Team:
    team = db.get(Team, team_id)
    if team is None:
        raise NotFound(f"team {team_id} not found")
    return team


def describe(team: Team) -> RetentionOut:
    """The team's settings as the API shows them."""
    return RetentionOut(
        raw_output_days=team.raw_output_retention_days, series_days=team.series_retention_days
    )


def get_settings_of(db: Session, team_id: int) -> RetentionOut:
    """The current team's retention settings."""
    return describe(_team(db, team_id))


def set_settings(db: Session, principal: Principal, wanted: RetentionIn) -> RetentionOut:
    """Change the team's retention settings (applied by the next pass); audited."""
    team = _team(db, principal.team_id)
    before = describe(team)
    team.raw_output_retention_days = wanted.raw_output_days
    team.series_retention_days = wanted.series_days
    after = describe(team)
    if after != before:
        audit.record(
            db,
            team_id=team.id,
            actor=principal.actor,
            action="team.retention_changed",
            resource_type="team",
            resource_id=team.id,
            changed=[
                field for field in after.model_fields_set if getattr(after, field) != getattr(before, field)
            ],
            raw_output_days=after.raw_output_days,
            series_days=after.series_days,
        )
    db.flush()
    return after


def prune_team(db: Session, team: Team, now: datetime) -> Pruned:
    """One batch of each kind past the team's windows; flushed, not committed."""
    pruned = Pruned()
    if team.raw_output_retention_days is not None:
        cutoff = now - timedelta(days=team.raw_output_retention_days)
        pruned.raw_outputs = repository.prune_raw_outputs(db, team.id, cutoff, now, RAW_OUTPUT_BATCH)
    if team.series_retention_days is not None:
        cutoff = now - timedelta(days=team.series_retention_days)
        runs = repository.runs_with_series_due(db, team.id, cutoff, RUN_BATCH)
        for run in runs:
            if run.kept_aggregate is None:
                run.kept_aggregate = aggregate_to_keep(db, run)
            run.series_pruned_at = now
        repository.delete_series(db, [a.id for run in runs for a in run.assignments])
        pruned.runs = len(runs)
    db.flush()
    return pruned


def apply_once(now: datetime | None = None) -> Pruned:
    """Apply every team's settings, a batch per transaction until nothing is due; what was pruned."""
    now = now or utcnow()
    total = Pruned()
    with get_sessionmaker()() as db:
        team_ids = [team.id for team in repository.teams_with_retention(db)]
    for team_id in team_ids:
        while True:
            with get_sessionmaker()() as db:
                team = db.get(Team, team_id)
                if team is None:
                    break
                pruned = prune_team(db, team, now)
                db.commit()
            total.raw_outputs += pruned.raw_outputs
            total.runs += pruned.runs
            if pruned.raw_outputs < RAW_OUTPUT_BATCH and pruned.runs < RUN_BATCH:
                break
    if total.raw_outputs or total.runs:
        log.info(
            "retention: emptied %d raw output(s), removed the series of %d run(s)",
            total.raw_outputs,
            total.runs,
        )
    return total
