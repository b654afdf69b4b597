"""Whether a target's directory exists on its host, as the host's worker last reported.

The server never looks at a host's disks: each heartbeat's answer names the host's target
directories, and the worker's next heartbeat says, for those inside its allowed roots, whether each
exists, is a directory and is writable (storbench_protocol.facts.TargetPathState). A worker that
does not report them leaves its targets "not yet checked", which refuses nothing.
"""

import enum
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from storbench_api.hosts.service import TARGET_PATHS_CHECKED_AT
from storbench_api.models import Host
from storbench_protocol.facts import TargetPathState


class DirectoryState(enum.StrEnum):
    """What the host's worker found at the target's directory."""

    exists = "exists"
    missing = "missing"
    not_a_directory = "not_a_directory"
    not_writable = "not_writable"
    not_checked = "not_checked"


class DirectoryCheckOut(BaseModel):
    """A target directory's state on its host, when it was checked, and what to do about it."""

    state: DirectoryState
    checked_at: datetime | None = Field(description="the heartbeat that reported it (None: not yet checked)")
    message: str


# The states a target cannot be created on, nor a run started on.
REFUSED = frozenset({DirectoryState.missing, DirectoryState.not_a_directory, DirectoryState.not_writable})


def _reported(facts: Mapping[str, Any], path: str) -> TargetPathState | None:
    for item in facts.get("target_paths") or []:
        try:
            state = TargetPathState.model_validate(item)
        except ValidationError:
            continue
        if state.path == path:
            return state
    return None


def _checked_at(facts: Mapping[str, Any]) -> datetime | None:
    stamp = facts.get(TARGET_PATHS_CHECKED_AT)
    try:
        return datetime.fromisoformat(stamp) if isinstance(stamp, str) else None
    except ValueError:
        return None


def _roots(facts: Mapping[str, Any]) -> str:
    roots = [str(r) for r in facts.get("allowed_roots") or []]
    return ", ".join(roots) if roots else "the paths its worker allows (--allow)"


def directory_check(host: Host, path: str) -> DirectoryCheckOut:
    """The state of path on host as its worker last reported it, with what to do when it is not usable."""
    facts = host.facts or {}
    reported = _reported(facts, path)
    checked_at = _checked_at(facts)
    if reported is None or checked_at is None:
        return DirectoryCheckOut(
            state=DirectoryState.not_checked,
            checked_at=None,
            message=f"not yet checked: the worker on host '{host.name}' reports it at its next heartbeat",
        )
    when = f"checked at {checked_at:%Y-%m-%d %H:%M:%S} UTC"
    advice = f"or pick a directory that exists under the allowed roots ({_roots(facts)})"
    if not reported.exists:
        state = DirectoryState.missing
        message = (
            f"{path} does not exist on host '{host.name}' yet ({when}): create it there "
            f"(mkdir -p {path}) {advice}"
        )
    elif not reported.is_directory:
        state = DirectoryState.not_a_directory
        message = f"{path} on host '{host.name}' is not a directory ({when}): {advice.removeprefix('or ')}"
    elif not reported.writable:
        state = DirectoryState.not_writable
        message = (
            f"the worker on host '{host.name}' cannot write to {path} ({when}): give its user write "
            f"access, {advice}"
        )
    else:
        state = DirectoryState.exists
        message = f"{path} exists on host '{host.name}' ({when})"
    return DirectoryCheckOut(state=state, checked_at=checked_at, message=message)
