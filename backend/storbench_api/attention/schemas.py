"""What needs attention, as the API shows it: one sentence and one link per item."""

import enum
from datetime import datetime

from pydantic import BaseModel, Field


class AttentionKind(enum.StrEnum):
    """What an item is about, in the order the list shows them."""

    regression = "regression"
    failed_run = "failed_run"
    failed_slot = "failed_slot"
    host_revoked = "host_revoked"
    host_offline = "host_offline"
    below_spec = "below_spec"


class AttentionItem(BaseModel):
    """One thing to look at: what it is, what happened in words, and where it is resolved."""

    kind: AttentionKind
    id: int = Field(description="the regression, run, schedule slot, host or result it is about")
    sentence: str = Field(description="what happened and what to do, as the web UI and the CLI print it")
    link: str = Field(description="the web UI page that resolves it, e.g. /runs/12")
    at: datetime = Field(
        description="when it happened (found, failed, missed, revoked, last heard, measured)"
    )


class AttentionOut(BaseModel):
    """What the team should look at: regressions nobody acknowledged, recent failures, hosts that
    cannot take work and recent results below their spec; empty when all is well."""

    items: list[AttentionItem]
    since: datetime = Field(description="failures and results older than this are left out")
    limit: int = Field(description="at most this many items of each kind")
    truncated: bool = Field(description="true when a kind had more items than `limit`")
