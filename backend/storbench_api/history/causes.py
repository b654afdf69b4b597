"""What changed in how a series was measured around a change point: its likely causes.

The result just before the change and the first result after it are set side by side, component
by component (kernel, fio version, mount options, host class, storage class or capacity, job
options). Nothing different: the storage itself changed. Fingerprinted components are the same
within a series by construction; the environment (kernel, OS, mount options as written) is not
fingerprinted, so that an upgrade keeps the series and shows up here instead.
"""

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.history import repository
from storbench_api.history.schemas import CauseOut
from storbench_api.models import ChangePoint

NOTHING_CHANGED = "nothing in how it was measured changed: the storage itself did"
NOT_RECORDED = "no earlier result of the series to compare how it was measured"
# Component key → the words a storage engineer uses, in the order they are listed.
_NAMES = (
    ("environment.kernel", "kernel"),
    ("fio_version", "fio version"),
    ("environment.mount_options", "mount options"),
    ("mount.", "mount"),
    ("environment.os", "operating system"),
    ("host.", "host class"),
    ("storage.class", "storage class"),
    ("storage.capacity_gib", "capacity"),
    ("storage.", "storage"),
    ("job.", "job options"),
)


def _flatten(components: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in components.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _named(key: str) -> tuple[int, str]:
    for order, (prefix, name) in enumerate(_NAMES):
        if key == prefix or (prefix.endswith(".") and key.startswith(prefix)):
            return order, name
    return len(_NAMES), key


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[CauseOut]:
    """Every component whose value differs, named and in the order of _NAMES."""
    old, new = _flatten(before), _flatten(after)
    return [
        CauseOut(component=_named(key)[1], key=key, before=old.get(key), after=new.get(key))
        for key in sorted(set(old) | set(new), key=lambda k: (_named(k)[0], k))
        if old.get(key) != new.get(key)
    ]


def _text(cause: CauseOut) -> str:
    detail = cause.key.split(".", 1)[-1] if cause.component in ("job options", "host class", "mount") else ""
    what = f"{cause.component} ({detail})" if detail else cause.component
    before = "—" if cause.before is None else cause.before
    after = "—" if cause.after is None else cause.after
    return f"{what} {before} → {after}"


def summary(causes: list[CauseOut], compared: bool) -> str:
    """The causes in one line, or that nothing in how it was measured changed."""
    if not compared:
        return NOT_RECORDED
    if not causes:
        return NOTHING_CHANGED
    return "changed around it: " + "; ".join(_text(c) for c in causes)


def likely_causes(db: Session, point: ChangePoint) -> tuple[list[CauseOut], str]:
    """The components that differ between the result before the change and its first result."""
    before, after = repository.comparability_around(db, point)
    if before is None:
        return [], summary([], compared=False)
    causes = differences(before, after)
    return causes, summary(causes, compared=True)
