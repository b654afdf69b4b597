"""Audit event bodies: what was recorded, by whom, with the details of each kind of action."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from storbench_api.models import Role, TargetKind
from storbench_api.wire import SparseModel


class AuditDetails(SparseModel):
    """What an action changed; each action records only the fields that concern it."""

    model_config = ConfigDict(extra="forbid")

    # A token, enrollment token or invitation: its name, role and email.
    name: str | None = None
    role: Role | None = None
    email: str | None = None
    # A host renamed (its old name; the new one is `name`) or labelled (its labels now).
    previous_name: str | None = None
    labels: list[str] | None = None
    # An enrollment token: how many hosts may enroll, and the host it re-enrolls.
    uses: int | None = None
    replaces_host: str | None = None
    # A target created or changed.
    path: str | None = None
    kind: TargetKind | None = None
    storage_class: str | None = None
    storage_class_id: int | None = None
    capacity_gib: float | None = None
    provisioned_iops: float | None = None
    provisioned_mbps: float | None = None
    description: str | None = None
    destructive: bool | None = None
    # A run started: on which target, from which plan, with writes to a device confirmed.
    target: str | None = None
    plan: str | None = None
    confirmed_destructive: bool | None = None
    # A storage class added or changed: the spec version it now has.
    version: int | None = None
    # A result relabelled or deleted: its job, labels, run, and whether it was imported.
    job: str | None = None
    label: str | None = None
    previous_label: str | None = None
    run_id: int | None = None
    imported: bool | None = None
    # Imports filed under a target later (the target is `target`, its path `path`).
    result_ids: list[int] | None = None
    # A webhook registered or changed; a schedule created or changed; which fields changed.
    url: str | None = None
    events: list[str] | None = None
    cron: str | None = None
    timezone: str | None = None
    changed: list[str] | None = None
    # A host the service cut off: why.
    reason: str | None = None
    # A team's retention changed (`changed` names which): the days now kept, absent when forever.
    raw_output_days: int | None = None
    series_days: int | None = None


class AuditEventOut(BaseModel):
    """One recorded action."""

    id: int
    created_at: datetime
    actor: str
    action: str
    resource_type: str
    resource_id: int | None
    hosts: list[str]
    details: AuditDetails


class AuditList(BaseModel):
    """A page of events, newest first."""

    items: list[AuditEventOut]
    total: int
