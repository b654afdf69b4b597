"""Names a person types (targets, plans, presets, hosts) turned into the ids the API wants."""

from __future__ import annotations

import difflib
from typing import Any

from .api import Api
from .errors import UsageError


def _pick(kind: str, wanted: str, items: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The item whose `key` is `wanted` (exactly, else ignoring case, else by numeric id)."""
    for match in (
        lambda item: str(item[key]) == wanted,
        lambda item: str(item[key]).casefold() == wanted.casefold(),
        lambda item: wanted.isdigit() and item.get("id") == int(wanted),
    ):
        found = [item for item in items if match(item)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UsageError(f"{kind} '{wanted}' is ambiguous: " + ", ".join(str(i[key]) for i in found))
    names = sorted(str(item[key]) for item in items)
    nearest = difflib.get_close_matches(wanted, names, n=1, cutoff=0.5)
    if not nearest:
        # A case slip or a partial word: compare as the user might have meant it.
        folded = {name.casefold(): name for name in names}
        nearest = [folded[m] for m in difflib.get_close_matches(wanted.casefold(), folded, n=1, cutoff=0.5)]
    suggestion = f"; did you mean '{nearest[0]}'?" if nearest else ""
    available = ", ".join(names) or "none yet"
    raise UsageError(f"no {kind} named '{wanted}'{suggestion} (available: {available})")


def target(api: Api, name: str) -> dict[str, Any]:
    """The team's target with this name."""
    return _pick("target", name, api.list_all("/targets"), "name")


def plan(api: Api, name: str) -> dict[str, Any]:
    """The team's saved plan with this name."""
    return _pick("plan", name, api.list_all("/plans"), "name")


def preset(api: Api, preset_id: str) -> dict[str, Any]:
    """The preset with this id."""
    return _pick("preset", preset_id, api.get("/presets")["items"], "id")


def hosts(api: Api, names: list[str]) -> list[int]:
    """Ids of the team's hosts with these names."""
    listed = api.list_all("/hosts")
    return [int(_pick("host", name, listed, "name")["id"]) for name in names]
