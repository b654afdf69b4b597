"""Hosts: registration, credentials, liveness."""

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import BrokerUnavailable, Conflict, NotFound, Unauthorized
from storbench_api.hosts import broker_access, repository
from storbench_api.hosts.schemas import HostFactsOut, HostOut, HostStatus
from storbench_api.models import Host
from storbench_api.rollup import service as rollup
from storbench_api.security import new_token, token_digest
from storbench_api.settings import get_settings

log = logging.getLogger(__name__)

# The key of a host's stored facts that dates its workers' report of its target directories.
TARGET_PATHS_CHECKED_AT = "target_paths_checked_at"


def register_host(db: Session, team_id: int, name: str) -> tuple[Host, str]:
    """A new host and its worker token (returned once, stored hashed)."""
    if repository.host_by_name(db, team_id, name) is not None:
        raise Conflict(f"a host named '{name}' already exists in this team")
    token = new_token("sbh")
    host = Host(team_id=team_id, name=name, credential_hash=token_digest(token), facts={}, labels=[])
    db.add(host)
    db.flush()
    return host, token


def create_host(db: Session, principal: Principal, name: str) -> tuple[Host, str]:
    """A host registered by a member of its team, and its worker token (returned once)."""
    host, token = register_host(db, principal.team_id, name)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="host.registered",
        resource_type="host",
        resource_id=host.id,
        hosts=[host.name],
    )
    return host, token


def update_host(
    db: Session, principal: Principal, host_id: int, name: str | None, labels: Sequence[str] | None
) -> Host:
    """Rename a host (unique in the team) and/or replace its labels (sorted, each once)."""
    host = get_host(db, principal.team_id, host_id)
    if name is not None and name != host.name:
        if repository.host_by_name(db, principal.team_id, name) is not None:
            raise Conflict(f"a host named '{name}' already exists in this team: choose another name")
        previous, host.name = host.name, name
        audit.record(
            db,
            team_id=principal.team_id,
            actor=principal.actor,
            action="host.renamed",
            resource_type="host",
            resource_id=host.id,
            hosts=[name],
            name=name,
            previous_name=previous,
        )
    if labels is not None and sorted(set(labels)) != sorted(host.labels or []):
        host.labels = sorted(set(labels))
        audit.record(
            db,
            team_id=principal.team_id,
            actor=principal.actor,
            action="host.labelled",
            resource_type="host",
            resource_id=host.id,
            hosts=[host.name],
            labels=host.labels,
        )
    db.flush()
    return host


def remove_host(db: Session, principal: Principal, host_id: int) -> Host:
    """Remove a host from the team: gone from lists and pickers, its credential revoked; its runs
    and results stay. Its name is free again. The caller fails its unfinished work and removes its
    broker user before committing, while the host's row is still locked."""
    principal.require_owner()
    host = _locked_host(db, principal.team_id, host_id)
    now = utcnow()
    host.removed_at = now
    host.revoked_at = host.revoked_at or now
    host.credential_hash = token_digest(new_token("sbh-removed"))
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="host.removed",
        resource_type="host",
        resource_id=host.id,
        hosts=[host.name],
    )
    db.flush()
    return host


def delete_host(db: Session, principal: Principal, host_id: int) -> Host:
    """Delete a host that never connected and has no history (with its targets).

    Its worker may still have asked who it is (which creates its broker user): the caller removes
    that user before committing, while the host's row is still locked.
    """
    principal.require_owner()
    host = _locked_host(db, principal.team_id, host_id)
    if host.last_seen_at is not None or repository.has_history(db, host.id):
        raise Conflict(
            f"host '{host.name}' has connected or has runs or results: remove it instead "
            "(it leaves the lists, its history stays)"
        )
    name = host.name
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="host.deleted",
        resource_type="host",
        resource_id=host.id,
        hosts=[name],
    )
    # Results imported onto its targets stay, without a target: so do their rollup rows.
    rollup.detach_targets(db, host.team_id, repository.target_ids_of_host(db, host.id))
    repository.delete_host(db, host)
    return host


def rotate_credential(db: Session, host: Host) -> str:
    """Replace a host's worker token; the old one stops working."""
    token = new_token("sbh")
    host.credential_hash = token_digest(token)
    db.flush()
    return token


def host_for_credential(db: Session, token: str) -> Host:
    """The host a worker token belongs to (never a revoked one)."""
    host = repository.host_by_credential(db, token_digest(token))
    if host is None or host.revoked_at is not None:
        raise Unauthorized("unknown or revoked host credential: ask a team owner for a new one")
    return host


def host_of_worker_request(db: Session, token: str) -> Host:
    """The host a worker's request authenticates as, marked alive: every request its worker makes
    is a sign of life, recorded here once (kept when the request succeeds, as its commit is)."""
    host = host_for_credential(db, token)
    host.last_seen_at = utcnow()
    return host


def revoke_host(db: Session, principal: Principal, host_id: int) -> Host:
    """Revoke a host: its credential stops working at once; the host and its history stay.

    The caller fails its unfinished work and removes its broker user before committing, while the
    host's row is still locked.
    """
    principal.require_owner()
    host = _locked_host(db, principal.team_id, host_id)
    if host.revoked_at is None:
        host.revoked_at = utcnow()
        # Nobody holds a token with this digest: every request of the old credential gets 401.
        host.credential_hash = token_digest(new_token("sbh-revoked"))
        audit.record(
            db,
            team_id=principal.team_id,
            actor=principal.actor,
            action="host.revoked",
            resource_type="host",
            resource_id=host.id,
            hosts=[host.name],
        )
    db.flush()
    return host


def cut_off_host(db: Session, host: Host, reason: str) -> None:
    """Revoke a host (locked by the caller) for what it did, saying why; as an owner's revoke."""
    host.revoked_at = utcnow()
    host.revoked_reason = reason
    host.credential_hash = token_digest(new_token("sbh-revoked"))
    audit.record(
        db,
        team_id=host.team_id,
        actor="storbench",
        action="host.cut_off",
        resource_type="host",
        resource_id=host.id,
        hosts=[host.name],
        reason=reason,
    )
    db.flush()


def remove_broker_user(host: Host) -> None:
    """Within a revoke, removal or deletion: the host's broker user goes, and its connections with it."""
    try:
        broker_access.remove_broker_user(host.id)
    except Exception as exc:
        if host.removed_at is not None:  # gone from the API: a retry cannot find it
            raise BrokerUnavailable(
                f"host '{host.name}' is removed, but its broker user could not be deleted ({exc}): "
                f"delete the Redis user {broker_access.broker_username(host.id)} by hand (ACL DELUSER)"
            ) from exc
        raise BrokerUnavailable(
            f"host '{host.name}' is revoked, but its broker user could not be removed ({exc}): retry"
        ) from exc


def forget_broker_user(host: Host) -> None:
    """Within a deletion: the broker user of a host that never connected goes if it was created.

    Best effort: the deleted host cannot be deleted again to retry, and it never held work.
    """
    try:
        broker_access.remove_broker_user(host.id)
    except Exception as exc:
        log.warning(
            "host %s is deleted but its broker user could not be removed (%s): delete the Redis user %s "
            "by hand (ACL DELUSER)",
            host.id,
            exc,
            broker_access.broker_username(host.id),
        )


def rotate_host_credential(db: Session, principal: Principal, host_id: int) -> tuple[Host, str]:
    """A new worker token for the host (shown once); the old one, and its broker login, stop working."""
    principal.require_owner()
    host = _locked_host(db, principal.team_id, host_id)
    if host.revoked_at is not None:
        raise Conflict(f"host '{host.name}' is revoked: replace it with an enrollment token instead")
    token = rotate_credential(db, host)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="host.credential_rotated",
        resource_type="host",
        resource_id=host.id,
        hosts=[host.name],
    )
    return host, token


def refresh_broker_user(host: Host) -> None:
    """Within a rotation: the host's broker login takes its new password (the old one stops)."""
    try:
        broker_access.ensure_broker_user(host)
    except Exception as exc:
        raise BrokerUnavailable(
            f"host '{host.name}' has a new token, but its broker login could not be updated ({exc}): "
            "retry to rotate again"
        ) from exc


def list_hosts(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Host], int]:
    """A page of the team's hosts by name, and the total count."""
    return repository.list_hosts(db, team_id, limit, offset)


def get_host(db: Session, team_id: int, host_id: int) -> Host:
    """The team's host, or 404."""
    host = repository.get_host(db, team_id, host_id)
    if host is None:
        raise NotFound(f"host {host_id} not found")
    return host


def _locked_host(db: Session, team_id: int, host_id: int) -> Host:
    """The team's host, its row held until the transaction ends, or 404.

    Every change of a host's credential and every write of its broker user happen under this
    lock, so a heartbeat in flight cannot put back the broker login of a credential just replaced.
    """
    host = get_host(db, team_id, host_id)
    locked = repository.lock_host(db, host.id)
    if locked is None:
        raise NotFound(f"host {host_id} not found")
    return locked


def ensure_current_broker_user(db: Session, host: Host) -> Host:
    """Lock the calling host's row, check the credential it authenticated with is still the live
    one (401 if it was revoked, removed or rotated meanwhile), and (re)create its broker user.

    The caller commits after this: the lock keeps revoke, remove and rotate waiting until then.
    """
    authenticated = host.credential_hash
    current = repository.lock_host(db, host.id)
    if current is None or current.credential_hash != authenticated or current.revoked_at is not None:
        raise Unauthorized("unknown or revoked host credential: ask a team owner for a new one")
    try:
        broker_access.ensure_broker_user(current)
    except Exception as exc:  # the broker is down: the worker retries, and so do we
        log.warning("could not set up the broker user of host %s: %s", current.id, exc)
    return current


def is_online(host: Host, now: datetime | None = None) -> bool:
    """True when the host's worker has reported its facts (its first heartbeat) and was heard from
    recently. A worker that has only signed in is not online yet: until its facts arrive, nothing
    knows which paths it allows, so no run could be planned on it. A revoked host never is."""
    if host.last_seen_at is None or host.revoked_at is not None or not host.facts:
        return False
    return (now or utcnow()) - host.last_seen_at <= get_settings().host_offline_after


def host_status(host: Host, busy: bool) -> HostStatus:
    """online / busy / offline / revoked as a user sees it."""
    if host.revoked_at is not None:
        return "revoked"
    if not is_online(host):
        return "offline"
    return "busy" if busy else "online"


def describe_hosts(db: Session, hosts: Sequence[Host]) -> list[HostOut]:
    """Hosts with their live status."""
    busy = repository.busy_host_ids(db, [h.id for h in hosts])
    return [
        HostOut(
            id=h.id,
            name=h.name,
            labels=list(h.labels or []),
            status=host_status(h, h.id in busy),
            last_seen_at=h.last_seen_at,
            fio_version=h.fio_version,
            facts=HostFactsOut.from_stored(h.facts or {}),
            created_at=h.created_at,
            revoked_at=h.revoked_at,
            revoked_reason=h.revoked_reason,
        )
        for h in hosts
    ]


def record_facts(host: Host, facts: dict[str, Any] | None, fio_version: str | None) -> None:
    """Keep the facts and fio version a heartbeat reported (the request itself marked the host alive)."""
    if facts is not None:
        if facts.get("target_paths") is not None:
            # When the directories were looked at: the state a target shows is dated by this.
            facts[TARGET_PATHS_CHECKED_AT] = utcnow().isoformat()
        host.facts = facts
    if fio_version is not None:
        host.fio_version = fio_version


def offline_reason(host: Host) -> str:
    """Why a host cannot take work now, in words a user can act on."""
    if host.removed_at is not None:
        return f"host '{host.name}' was removed from the team"
    if host.revoked_at is not None:
        return f"host '{host.name}' was revoked: an owner can replace it with an enrollment token"
    if host.last_seen_at is None:
        return (
            f"the worker on host '{host.name}' has never connected: start it with "
            f"'storbench-worker --server URL --token-file FILE --name {host.name} --allow PATH' "
            "(Hosts shows the whole command)"
        )
    ago = int((utcnow() - host.last_seen_at) / timedelta(seconds=1))
    return (
        f"the worker on host '{host.name}' is offline (last heartbeat {ago} s ago): "
        "start storbench-worker on that host and try again"
    )
