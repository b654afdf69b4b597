"""What a delivery's body says: storbench's JSON envelope, or a chat message for Slack or Teams.

A chat message leads with the verdict in words (what changed, which way, by how much) and links to
the run (or the page that shows the event) on this server's public URL when one is configured.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from storbench_api.figures.definition import figure_named
from storbench_api.models.webhook import WebhookFormat
from storbench_api.settings import get_settings
from storbench_api.webhooks import events


@dataclass(frozen=True, slots=True)
class Message:
    """An event in words: a headline, details, a link (a path on this server) and whether it is bad."""

    headline: str
    detail: str
    path: str
    bad: bool


def _number(value: Any) -> str:
    if not isinstance(value, int | float):
        return "?"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _change_point(event: str, data: Mapping[str, Any]) -> Message:
    figure = figure_named(str(data.get("metric", "")))
    what = figure.label if figure is not None else str(data.get("metric"))
    ratio = float(data.get("ratio") or 1.0)
    moved = "rose" if ratio >= 1 else "fell"
    verdict = "Regression" if event == events.CHANGE_POINT_REGRESSION else "Improvement"
    headline = (
        f"{verdict}: {data.get('direction')} {what} of {data.get('job_name')} on target "
        f"#{data.get('target_id')} {moved} {abs(ratio - 1) * 100:.0f} %"
    )
    detail = f"median {_number(data.get('before_median'))} → {_number(data.get('after_median'))}"
    what_changed = data.get("what_changed")
    if isinstance(what_changed, str) and what_changed:
        detail += f"; {what_changed}"
    path = str(data.get("run") or data.get("trend") or "/history")
    return Message(headline, detail, path, event == events.CHANGE_POINT_REGRESSION)


def describe(event: str, data: Mapping[str, Any]) -> Message:
    """The event in words."""
    if event in (events.CHANGE_POINT_REGRESSION, events.CHANGE_POINT_IMPROVEMENT):
        return _change_point(event, data)
    if event == events.SCHEDULE_FIRING_FAILED:
        return Message(
            f"Schedule failed: {data.get('schedule')} could not start its run",
            f"slot {data.get('slot_at')}: {data.get('reason')}",
            "/schedules",
            True,
        )
    if event == events.SCHEDULE_RUN_FAILED:
        return Message(
            f"Scheduled run failed: run #{data.get('run_id')} of {data.get('schedule')}",
            str(data.get("reason") or "the run failed"),
            f"/runs/{data.get('run_id')}",
            True,
        )
    if event == events.PING:
        return Message("storbench test event", "this webhook is reachable", "/webhooks", False)
    return Message(f"storbench: {event}", json.dumps(dict(data), default=str)[:500], "/", False)


def _link(path: str) -> str | None:
    base = get_settings().public_url.rstrip("/")
    return f"{base}{path}" if base else None


def _slack(message: Message) -> dict[str, Any]:
    link = _link(message.path)
    opened = f"\n<{link}|Open in storbench>" if link else f"\n{message.path}"
    return {
        "text": f"{message.headline} ({message.detail})",
        "blocks": [
            {
                "type": "section",
                "text": {"type": "mrkdwn", "text": f"*{message.headline}*\n{message.detail}{opened}"},
            }
        ],
    }


def _teams(message: Message) -> dict[str, Any]:
    link = _link(message.path)
    card: dict[str, Any] = {
        "@type": "MessageCard",
        "@context": "https://schema.org/extensions",
        "summary": message.headline,
        "themeColor": "D13438" if message.bad else "2EB886",
        "title": message.headline,
        "text": message.detail if link else f"{message.detail} ({message.path})",
    }
    if link:
        card["potentialAction"] = [
            {"@type": "OpenUri", "name": "Open in storbench", "targets": [{"os": "default", "uri": link}]}
        ]
    return card


def body(fmt: WebhookFormat, envelope: Mapping[str, Any]) -> bytes:
    """The bytes sent: the envelope itself (storbench) or the chat message it makes."""
    if fmt is WebhookFormat.storbench:
        document: Mapping[str, Any] = envelope
    else:
        message = describe(str(envelope["event"]), envelope.get("data") or {})
        document = _slack(message) if fmt is WebhookFormat.slack else _teams(message)
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
