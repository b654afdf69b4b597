"""ORM models; importing this package registers every table on Base.metadata."""

from storbench_api.models.change_point import ChangePoint, ChangePointPolicy
from storbench_api.models.group_rollup import GroupRollup
from storbench_api.models.host import Host
from storbench_api.models.plan import Plan
from storbench_api.models.plan_version import PlanVersion
from storbench_api.models.result import RawOutput, Result, ResultDirection
from storbench_api.models.run import Assignment, AssignmentStatus, ProgressSample, Run, RunStatus
from storbench_api.models.saved_view import SavedView
from storbench_api.models.schedule import FiringStatus, Schedule, ScheduleFiring
from storbench_api.models.storage_class import StorageClass, StorageClassSpec
from storbench_api.models.target import Target, TargetKind
from storbench_api.models.team import (
    AuditEvent,
    AuthToken,
    EnrollmentToken,
    Invitation,
    Membership,
    Role,
    Team,
    User,
)
from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery

__all__ = [
    "Assignment",
    "AssignmentStatus",
    "AuditEvent",
    "AuthToken",
    "ChangePoint",
    "ChangePointPolicy",
    "DeliveryStatus",
    "EnrollmentToken",
    "FiringStatus",
    "GroupRollup",
    "Host",
    "Invitation",
    "Membership",
    "Plan",
    "PlanVersion",
    "ProgressSample",
    "RawOutput",
    "Result",
    "ResultDirection",
    "Role",
    "Run",
    "RunStatus",
    "SavedView",
    "Schedule",
    "ScheduleFiring",
    "StorageClass",
    "StorageClassSpec",
    "Target",
    "TargetKind",
    "Team",
    "User",
    "Webhook",
    "WebhookDelivery",
]
