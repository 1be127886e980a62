"""What a device receives: the event, the match and version, the deadline of a turn or the
result of a match, and a title and body in the device's language. Never a card: the row's
``data`` holds public facts only, and this is the one place a payload is made."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from live.push.kinds import FINISHED_TEXTS, TEXTS, TOURNAMENT_KINDS, EventKind
from live.push.models import Notification


def texts(kind: str, data: dict[str, Any], match_id: int | None, language: str) -> tuple[str, str]:
    values = {"match_id": match_id, **data.get("scores", {})}
    # A tournament's name and round (a row written without them still reads, blank).
    values.update({k: data.get(k) or "" for k in ("tournament", "round")})
    if kind == EventKind.MATCH_FINISHED:
        title, body = FINISHED_TEXTS[data.get("result", "aborted")]
    else:
        title, body = TEXTS[EventKind(kind)]
    with translation.override(language):
        return str(title), str(body) % values


def payload_for(row: Notification, language: str) -> dict[str, Any]:
    title, body = texts(row.kind, row.data, row.match_id, language)
    payload: dict[str, Any] = {
        "event": row.kind,
        "match_id": row.match_id,
        "version": row.version if row.match_id is not None else None,
        "title": title,
        "body": body,
    }
    if "deadline" in row.data:
        payload["deadline"] = row.data["deadline"]
    if row.kind == EventKind.MATCH_FINISHED:
        payload["result"] = row.data.get("result")
        payload["scores"] = row.data.get("scores")
    if row.kind in TOURNAMENT_KINDS:
        payload["tournament_id"] = row.data.get("tournament_id")
        payload["round"] = row.data.get("round")
    return payload
