"""ORM models; importing this package registers every table on Base.metadata."""

from storbench_api.models.host import Host
from storbench_api.models.plan import Plan
from storbench_api.models.result import RawOutput, Result, ResultDirection
from storbench_api.models.run import Assignment, AssignmentStatus, ProgressSample, Run, RunStatus
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

__all__ = [
    "Assignment",
    "AssignmentStatus",
    "AuditEvent",
    "AuthToken",
    "EnrollmentToken",
    "Host",
    "Invitation",
    "Membership",
    "Plan",
    "ProgressSample",
    "RawOutput",
    "Result",
    "ResultDirection",
    "Role",
    "Run",
    "RunStatus",
    "StorageClass",
    "StorageClassSpec",
    "Target",
    "TargetKind",
    "Team",
    "User",
]
