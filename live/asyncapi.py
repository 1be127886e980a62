"""``GET /api/asyncapi/``: the AsyncAPI 3 document of the two WebSocket channels.

The ``move`` item and the ``view`` are the OpenAPI components ``MoveLogEntry`` and
``MatchView`` (and what they refer to), copied from the OpenAPI document drf-spectacular
generates, so the two contracts cannot drift apart; their ``#/components/schemas/...``
references resolve in this document as they do in that one.
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET
from drf_spectacular.generators import SchemaGenerator

from live import auth, relay

CLOSE_CODES = {
    auth.BAD_REQUEST: (
        "A query string the channel does not take, checked before the credentials (a ticket "
        "in it is not spent): a parameter the channel does not list (names are "
        "case-sensitive), one given twice, an empty value (`?since=` is not `since` absent), a "
        "value not of its form (`since`: 1 to 10 ASCII digits, at most 2147483647, so no sign, "
        "space, exponent or other script's digits; `ticket`: 1 to 64 of `A-Z a-z 0-9 _ -`), "
        "percent-escapes that are not UTF-8, or a query string over "
        f"{auth.QUERY_MAX_BYTES} bytes."
    ),
    auth.NOT_AUTHENTICATED: (
        "Not authenticated: no credentials, an unknown or revoked token, or a ticket that is "
        "unknown, spent or expired. Also sent to an open connection whose token is revoked."
    ),
    auth.SANCTIONED: "The account is suspended or banned (also closes open connections).",
    auth.NOT_VISIBLE: (
        "No such match, or a private match you do not sit in (its existence is not revealed); "
        "also any other path under /ws/."
    ),
    auth.TOO_MANY: "Too many open connections for this user (a per-user cap).",
    auth.INTERNAL_ERROR: (
        "The server failed while serving the stream (also when a match stream's update keeps "
        "failing). Nothing is wrong with the request: reconnect after a pause (with `since` set "
        "to the last `move` item's version, on a match stream). The connection's place under "
        "the per-user cap is free again at once."
    ),
}

_AUTH_TEXT = (
    "Authenticate the upgrade with `Authorization: Bearer <token>` (the REST API's tokens), "
    "or, from a browser, with `?ticket=<t>` where `t` comes from `POST /api/v1/auth/ws-ticket` "
    "(single use, valid 60 s, bound to the caller and their token). A channel takes only the "
    "query parameters it lists, each at most once. The server accepts the upgrade, then closes "
    "with a code from 4400-4429 when the connection may not stream, or 1011 when it fails:\n\n"
    + "\n".join(f"- `{code}`: {text}" for code, text in CLOSE_CODES.items())
    + "\n\nAn open connection re-checks its token every few seconds: a logout, a revoked "
    "token or a sanction closes it (4401, 4403). Client messages are ignored."
)

_INBOX_EVENTS = {
    "your_turn": "It is your turn; `is_my_turn` true and `deadline` set.",
    "match_started": "A match you sit in started.",
    "match_finished": "A match you sit in finished (or was aborted).",
    "invitation": "You are invited to the match `match_id` (read it in "
    "`GET /api/v1/me/invitations`).",
    "seat_to_bot": "Your seat is played by a bot now (away after timeouts, or staff).",
    "rematch_cancelled": "The rematch proposed after the finished match `match_id` was called "
    "off: that table cannot play together again (a player can no longer play, or two of them "
    "block each other); `GET /api/v1/matches/{id}/rematch` shows `cancelled`.",
    "analysis_ready": "The post-game analysis of the finished match `match_id` is ready: "
    "`GET /api/v1/matches/{id}/analysis`.",
}


_TOURNAMENT_EVENTS = {
    "tournament_round_started": "A round of the tournament started (your team plays in it, "
    "or has a bye).",
    "tournament_match_ready": "Your team's match of the round is made: `match_id`, with your "
    "team in seats 0 and 2 or 1 and 3.",
    "tournament_finished": "The tournament ended (or was cancelled): its `winner` and "
    "`GET /api/v1/tournaments/{id}/standings`.",
}


def _schemas_needed(components: dict[str, Any], roots: list[str]) -> dict[str, Any]:
    """``roots`` and every component they refer to, transitively."""
    out: dict[str, Any] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out[name] = components[name]
        todo.extend(_refs(components[name]))
    return dict(sorted(out.items()))


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = []
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.append(value.rsplit("/", 1)[-1])
            else:
                found.extend(_refs(value))
        return found
    if isinstance(node, list):
        return [name for item in node for name in _refs(item)]
    return []


def _openapi_as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema says it (AsyncAPI schemas are JSON
    Schema): the type or reference also admits null."""
    if isinstance(node, list):
        return [_openapi_as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _openapi_as_json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _message(name: str, title: str, summary: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "title": title, "summary": summary, "payload": payload}


def server(host: str, *, secure: bool) -> dict[str, Any]:
    """The server entry for the host that serves the document: the streams are on the API's
    own host and port (``ws``, or ``wss`` behind TLS)."""
    return {
        "host": host,
        "protocol": "wss" if secure else "ws",
        "description": "The host that served this document: the API and the streams on one port.",
        "security": [
            {"$ref": "#/components/securitySchemes/bearer"},
            {"$ref": "#/components/securitySchemes/ticket"},
        ],
    }


def document() -> dict[str, Any]:
    openapi = SchemaGenerator().get_schema(request=None, public=True)
    # PhraseEnum too: a chat message's phrase is the REST chat's type, one enum for both;
    # and PresenceEnum, a friend's presence in GET /me/friends.
    shared = _schemas_needed(
        openapi["components"]["schemas"],
        ["MatchView", "MoveLogEntry", "PhraseEnum", "PresenceEnum"],
    )
    schemas: dict[str, Any] = _openapi_as_json_schema(shared)
    schemas["MoveMessage"] = {
        "type": "object",
        "required": ["type", "match_id", "item"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "move"},
            "match_id": {"type": "integer"},
            "item": {
                "$ref": "#/components/schemas/MoveLogEntry",
                "description": "Exactly one item of `GET /api/v1/matches/{id}/moves` for you "
                "(a declaration's cards hidden from other seats until trick 1 is complete).",
            },
        },
    }
    schemas["ViewMessage"] = {
        "type": "object",
        "required": ["type", "match_id", "version", "view"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "view"},
            "match_id": {"type": "integer"},
            "version": {"type": "integer", "description": "The match version of `view`."},
            "view": {
                "$ref": "#/components/schemas/MatchView",
                "description": "Exactly the body of `GET /api/v1/matches/{id}` for you.",
            },
        },
    }
    schemas["RevealMessage"] = {
        "type": "object",
        "description": "Another seat's declaration comes as a `move` item with its cards "
        "hidden (`cards` null) while trick 1 of its round is open. The move that completes "
        "trick 1 makes them public: right before that move's item, the stream sends this "
        "message to every reader it sent any of them hidden, with those declarations as "
        "`GET /api/v1/matches/{id}/moves` shows them now. Replace the items of your log that "
        "have the same `seq`: a log built from the stream then equals `GET /moves`. Sent "
        "before the move's item, so a reader that received the item has received this too, "
        "and resuming with `since` set to the last `move` item's version never skips one (a "
        "reader resuming from before it gets it again: replacing by `seq` makes that "
        "harmless). A reader that gets a declaration only after trick 1 (a spectator, or one "
        "resuming from before it) gets it with its cards and no reveal.",
        "required": ["type", "match_id", "version", "items"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "reveal"},
            "match_id": {"type": "integer"},
            "version": {
                "type": "integer",
                "description": "The version of the move that completed trick 1 (its `move` "
                "item follows): the declared cards are public from this version on.",
            },
            "items": {
                "type": "array",
                "minItems": 1,
                "description": "The round's declarations by seats other than yours (every "
                "seat's, for a spectator), each exactly the item of `GET /moves` now, with "
                "its own `seq` and `version`.",
                "items": {"$ref": "#/components/schemas/MoveLogEntry"},
            },
        },
    }
    schemas["ChatMessage"] = {
        "type": "object",
        "description": "An item of `GET /api/v1/matches/{id}/chat`, with its `type`. Chat is "
        "not a move: the message has no `version`, and a move's `version` says nothing of chat.",
        "required": ["type", "id", "match_id", "seat", "phrase", "created_at"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "chat"},
            "id": {
                "type": "integer",
                "description": "The message's id, the same as in `GET /api/v1/matches/{id}/chat`: "
                "ids grow in the order messages were sent, and that list's `after=<id>` reads "
                "the ones sent after it (say, while you were disconnected).",
            },
            "match_id": {"type": "integer"},
            "seat": {"type": "integer", "minimum": 0, "maximum": 3, "description": "The sender."},
            "phrase": {
                "$ref": "#/components/schemas/PhraseEnum",
                "description": "A phrase id of `GET /api/v1/chat/phrases` (its text in `en` and "
                "`ar` is there).",
            },
            "created_at": {
                "type": "string",
                "format": "date-time",
                "description": "When the message was sent.",
            },
        },
    }
    schemas["InboxEventEnum"] = {"type": "string", "enum": list(relay.INBOX_KINDS)}
    schemas["InboxMessage"] = {
        "type": "object",
        "required": ["type", "event", "match_id", "version", "is_my_turn", "deadline"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "inbox"},
            "event": {
                "$ref": "#/components/schemas/InboxEventEnum",
                "description": "\n".join(f"- `{k}`: {v}" for k, v in _INBOX_EVENTS.items()),
            },
            "match_id": {"type": "integer"},
            "version": {"type": "integer", "description": "The match version of the event."},
            "is_my_turn": {
                "type": "boolean",
                "description": "True for `your_turn` (a `match_started` where you act first "
                "is followed by a `your_turn`).",
            },
            "deadline": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "The turn's deadline, for `your_turn`; else null.",
            },
        },
    }
    schemas["TournamentEventEnum"] = {"type": "string", "enum": list(relay.TOURNAMENT_KINDS)}
    schemas["TournamentMessage"] = {
        "type": "object",
        "description": "A tournament you hold a place in moved on (docs/tournaments.md); read "
        "`GET /api/v1/tournaments/{id}` and its `rounds` for the rest. Push notifications say "
        "the same.",
        "required": ["type", "event", "tournament_id", "round", "match_id"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "tournament"},
            "event": {
                "$ref": "#/components/schemas/TournamentEventEnum",
                "description": "\n".join(f"- `{k}`: {v}" for k, v in _TOURNAMENT_EVENTS.items()),
            },
            "tournament_id": {"type": "integer"},
            "round": {
                "type": ["integer", "null"],
                "description": "The round, for `tournament_round_started` and "
                "`tournament_match_ready`; else null.",
            },
            "match_id": {
                "type": ["integer", "null"],
                "description": "Your new match, for `tournament_match_ready`; else null.",
            },
        },
    }
    schemas["PresenceMessage"] = {
        "type": "object",
        "description": "A player you follow came online, sat down at a public match's stream "
        "or left it, or went offline: the same `presence`, `match_id` and `last_seen` as their "
        "item of `GET /api/v1/me/friends` now. Sent only when their presence (as the players "
        "who follow them may see it) changes, never for a player who hides it "
        "(`show_presence` false) or on either side of a block with you.",
        "required": ["type", "username", "presence", "match_id", "last_seen"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": "presence"},
            "username": {"type": "string", "description": "The player you follow."},
            "presence": {
                "$ref": "#/components/schemas/PresenceEnum",
                "description": "`online`: a stream of theirs is open; `in_match`: they are "
                "seated at the public match `match_id` with its stream open (a private match "
                "shows `online`); `offline`: their last stream closed.",
            },
            "match_id": {
                "type": ["integer", "null"],
                "description": "The public match, for `in_match`; else null.",
            },
            "last_seen": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "Now while online; when their last stream closed, for "
                "`offline`; null if never seen.",
            },
        },
    }
    since = {
        "description": "Resume: only move items after this match version (all if absent). "
        "1 to 10 ASCII digits, at most 2147483647 (the largest match version); anything else, "
        "an empty value included, closes with 4400.",
    }
    ticket = {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{1,64}$",
        "description": "A ticket from POST /api/v1/auth/ws-ticket. Ignored when an "
        "`Authorization` header is sent.",
    }
    # The upgrade's headers, the same on both channels.
    headers = {
        "type": "object",
        "properties": {
            "Authorization": {
                "type": "string",
                "description": "`Bearer <token>` (or `?ticket=` instead, from a browser).",
            }
        },
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Baloot live delivery",
            "version": "1.0.0",
            "description": (
                "The WebSocket streams of the Baloot API (`/api/schema/` is the REST contract; "
                "`MatchView` and `MoveLogEntry` here are its components). Every server message "
                "is one JSON text frame with a `type`.\n\n" + _AUTH_TEXT
            ),
        },
        "defaultContentType": "application/json",
        "servers": {"api": server("127.0.0.1:8000", secure=False)},
        "channels": {
            "match": {
                "address": "/ws/v1/matches/{match_id}",
                "title": "A match's stream",
                "description": (
                    "On connect: every move-log item after `since` (all if absent) as `move` "
                    "messages, in order, then one `view`. After every committed version: that "
                    "version's move items (none for versions that are not moves), then one "
                    "`view`. When trick 1 of a round is complete, a `reveal` comes right "
                    "before that move's item to a reader who was sent another seat's "
                    "declaration of the round with its cards hidden: the declarations as "
                    "`GET /moves` now shows them, to replace by `seq`. Versions never go "
                    "backwards; a slow client may receive one `view` "
                    "covering several versions, but never misses a `move` item (a client that "
                    "stops reading holds no queue on the server: what commits meanwhile comes, "
                    "once it reads again, as the move items it missed, in order, then one "
                    "`view` of the newest version; a long catch-up comes as several runs of "
                    "`move` items before its `view`), and a client "
                    "that reconnects with `?since=<last move item's version>` gets no gap and "
                    "no duplicate. Who may connect follows who may read `GET /matches/{id}`.\n\n"
                    "A spectator (connected but not seated) sees the match one complete trick "
                    "behind, exactly as `GET /matches/{id}` shows it to them: `move` items and "
                    "`view`s arrive only as that delayed version moves on.\n\n"
                    "Seated players also receive `chat` messages: the quick-chat phrases sent "
                    "to the table after they connected (`GET /matches/{id}/chat` has the "
                    "earlier ones, and takes the last `chat` message's `id` as `after`), less "
                    "those of players they blocked. Chat is not a move: it changes no version, "
                    "and a `chat` message has none. Spectators receive no chat."
                ),
                "parameters": {"match_id": {"description": "The match id."}},
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "query": {
                            "type": "object",
                            "properties": {
                                "since": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "maximum": auth.MAX_VERSION,
                                    **since,
                                },
                                "ticket": ticket,
                            },
                            # Any other parameter closes with 4400.
                            "additionalProperties": False,
                        },
                        "headers": headers,
                    }
                },
                "messages": {
                    "move": {"$ref": "#/components/messages/move"},
                    "reveal": {"$ref": "#/components/messages/reveal"},
                    "view": {"$ref": "#/components/messages/view"},
                    "chat": {"$ref": "#/components/messages/chat"},
                },
            },
            "me": {
                "address": "/ws/v1/me",
                "title": "Your inbox",
                "description": "Inbox events for the caller, as they commit; and the presence "
                "changes of the players the caller follows (`GET /api/v1/me/friends`), as they "
                "happen.",
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "query": {
                            "type": "object",
                            "properties": {"ticket": ticket},
                            # Any other parameter (`since` included) closes with 4400.
                            "additionalProperties": False,
                        },
                        "headers": headers,
                    }
                },
                "messages": {
                    "inbox": {"$ref": "#/components/messages/inbox"},
                    "presence": {"$ref": "#/components/messages/presence"},
                    "tournament": {"$ref": "#/components/messages/tournament"},
                },
            },
        },
        "operations": {
            "receiveMatch": {
                "action": "receive",
                "channel": {"$ref": "#/channels/match"},
                "summary": "Move items, reveals, views and table chat of one match.",
                "messages": [
                    {"$ref": "#/channels/match/messages/move"},
                    {"$ref": "#/channels/match/messages/reveal"},
                    {"$ref": "#/channels/match/messages/view"},
                    {"$ref": "#/channels/match/messages/chat"},
                ],
            },
            "receiveInbox": {
                "action": "receive",
                "channel": {"$ref": "#/channels/me"},
                "summary": "Your inbox events and your friends' presence.",
                "messages": [
                    {"$ref": "#/channels/me/messages/inbox"},
                    {"$ref": "#/channels/me/messages/presence"},
                    {"$ref": "#/channels/me/messages/tournament"},
                ],
            },
        },
        "components": {
            "schemas": schemas,
            "messages": {
                "move": _message(
                    "move",
                    "A move-log item",
                    "One new item of the match's move log.",
                    {"$ref": "#/components/schemas/MoveMessage"},
                ),
                "reveal": _message(
                    "reveal",
                    "Declared cards made public",
                    "Trick 1 is complete: the declarations you were sent hidden, with their cards.",
                    {"$ref": "#/components/schemas/RevealMessage"},
                ),
                "view": _message(
                    "view",
                    "Your match view",
                    "The match as you may see it, at `version`.",
                    {"$ref": "#/components/schemas/ViewMessage"},
                ),
                "chat": _message(
                    "chat",
                    "A quick-chat phrase",
                    "A seated player sent a phrase to the table.",
                    {"$ref": "#/components/schemas/ChatMessage"},
                ),
                "inbox": _message(
                    "inbox",
                    "An inbox event",
                    "Something happened in one of your matches.",
                    {"$ref": "#/components/schemas/InboxMessage"},
                ),
                "tournament": _message(
                    "tournament",
                    "A tournament event",
                    "Something happened in a tournament you play in.",
                    {"$ref": "#/components/schemas/TournamentMessage"},
                ),
                "presence": _message(
                    "presence",
                    "A friend's presence",
                    "A player you follow came online, went into or out of a public match, or "
                    "went offline.",
                    {"$ref": "#/components/schemas/PresenceMessage"},
                ),
            },
            "securitySchemes": {
                "bearer": {
                    "type": "httpApiKey",
                    "name": "Authorization",
                    "in": "header",
                    "description": "`Bearer <token>` from register or login.",
                },
                "ticket": {
                    "type": "httpApiKey",
                    "name": "ticket",
                    "in": "query",
                    "description": "From `POST /api/v1/auth/ws-ticket`: single use, 60 s.",
                },
            },
        },
    }


@functools.cache
def _cached() -> dict[str, Any]:
    return document()


@require_GET
def asyncapi_view(request: HttpRequest) -> JsonResponse:
    # Public like /api/schema/: the contract is no secret. The document is built once per
    # process; only its server, the host and scheme this request came by (``get_host`` checks
    # it against ALLOWED_HOSTS), is the request's, in a shallow copy.
    body = {**_cached(), "servers": {"api": server(request.get_host(), secure=request.is_secure())}}
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
