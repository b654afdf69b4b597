"""What the advisor says of a result: findings, each with its severity and its fix."""

import enum

from pydantic import BaseModel, Field


class Severity(enum.StrEnum):
    """How much a finding puts the figure in doubt."""

    critical = "critical"  # the figure is wrong (fio failed, the output is inconsistent)
    warning = "warning"  # the figure is likely not the storage's
    info = "info"  # worth knowing when reading the figure


class Finding(BaseModel):
    """One methodology problem with a result, and its fix."""

    code: str = Field(description="stable identifier, e.g. direct_off")
    severity: Severity
    message: str
    fix: str
    direction: str | None = Field(default=None, description="read or write, when it concerns one")
