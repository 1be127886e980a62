"""Examples for the schema: every request body, and the main answers (the match view, the
move log, the inbox, the score sheet). ``tests/test_schema.py`` validates each against the
schema it illustrates, so an example cannot drift from what the server sends."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample


def _request(name: str, value: dict[str, Any], summary: str) -> OpenApiExample:
    return OpenApiExample(name, value=value, summary=summary, request_only=True)


def _response(name: str, value: dict[str, Any], summary: str) -> OpenApiExample:
    return OpenApiExample(name, value=value, summary=summary, response_only=True)


MATCH_CREATE_REQUESTS = [
    _request("Defaults", {}, "Private and casual, gamerules, to 152, a day per move"),
    _request(
        "Rated private table",
        {"rated": True},
        "Moves the four players' ratings once a round is played out (four humans only)",
    ),
    _request(
        "Against three bots",
        {"bots": {"1": "easy", "2": "normal", "3": "easy"}},
        "Starts at once: the creator and three bots",
    ),
    _request(
        "Against hard bots",
        {"bots": {"1": "hard", "2": "easy", "3": "hard"}},
        "Two hard opponents (each thinks about a second a move) and an easy partner",
    ),
    _request(
        "Public live table",
        {"ruleset": "gamerules", "target": 152, "turn_seconds": 30, "visibility": "public"},
        "Listed in the lobby, 30 seconds per move",
    ),
    _request(
        "Saudi rules",
        {"ruleset": "saudi", "bots": {"1": "normal", "2": "normal", "3": "normal"}},
        "The game as Saudi players know it (compulsory trumping, Sawa), against three bots",
    ),
]

MATCH_JOIN_REQUESTS = [
    _request("Any free seat", {}, "A public match, the first free seat"),
    _request("A seat, with the code", {"seat": 2, "code": "K7QX2M"}, "A private match"),
]

MOVE_REQUESTS = [
    _request(
        "Bid",
        {"type": "bid", "call": "hokum", "expected_version": 17},
        "A bid, refused with 409 if the match moved on from version 17",
    ),
    _request("Bid with a suit", {"type": "bid", "call": "hokum", "suit": "D"}, "Hokum in D"),
    _request("Doubling call", {"type": "double", "call": "pass"}, "No double"),
    _request(
        "Declare",
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["AH", "KH", "QH"]}]},
        "Projects, on your first turn of trick 1",
    ),
    _request("Play", {"type": "play", "card": "10S"}, "A card"),
    _request(
        "Closed double (saudi)",
        {"type": "double", "call": "double", "locked": True},
        "saudi Hokum: the doubler chooses a closed round (false or left out: open)",
    ),
    _request("Sawa (saudi)", {"type": "sawa"}, "saudi: my team takes every remaining trick"),
]

_PALM = {"kind": "catalog", "id": "palm", "url": "/static/avatars/palm.png"}
_PICTURE = {
    "kind": "picture",
    "id": None,
    "url": "/media/avatars/3f2a9c4e1b7d45e8a0c6f1d2e3b4a5c6.jpg",
}
_BOT = {"kind": "bot", "id": "normal", "url": "/static/avatars/bot-normal.png"}
_SEATS = [
    {
        "seat": 0,
        "display_name": "Noura",
        "avatar": _PALM,
        "team": 0,
        "bot": None,
        "away": False,
        "empty": False,
    },
    {
        "seat": 1,
        "display_name": "Faisal",
        "avatar": None,
        "team": 1,
        "bot": None,
        "away": False,
        "empty": False,
    },
    {
        "seat": 2,
        "display_name": "Normal bot",
        "avatar": _BOT,
        "team": 0,
        "bot": "normal",
        "away": False,
        "empty": False,
    },
    {
        "seat": 3,
        "display_name": "Reem",
        "avatar": _PICTURE,
        "team": 1,
        "bot": None,
        "away": False,
        "empty": False,
    },
]
_SIRA = {"kind": "sira", "cards": ["KS", "QS", "JS"]}

MATCH_VIEW = _response(
    "Playing, your turn",
    {
        "id": 42,
        "status": "active",
        "ruleset": "gamerules",
        "rules_version": 1,
        "target": 152,
        "turn_seconds": 86400,
        "visibility": "private",
        "rated": False,
        "invite_code": "K7QX2M",
        "version": 9,
        "scores": [0, 0],
        "winner_team": None,
        "end_reason": None,
        "my_seat": 1,
        "seats": _SEATS,
        "created_at": "2026-12-01T18:00:00Z",
        "round": {
            "number": 1,
            "dealer": 3,
            "phase": "playing",
            "face_up": "10H",
            "deck_commitment": "5f0c1e9a" * 8,
            "to_act": 1,
            "deadline": "2026-12-02T18:05:00Z",
            "hand": ["KS", "QS", "JS", "9H", "AD", "KD", "10C", "7C"],
            "card_counts": [7, 8, 8, 8],
            "calls": [
                {"seat": 0, "type": "bid", "call": "pass"},
                {"seat": 1, "type": "bid", "call": "pass"},
                {"seat": 2, "type": "bid", "call": "hokum"},
                {"seat": 3, "type": "bid", "call": "pass"},
            ],
            "doubles": [{"seat": 1, "type": "double", "call": "pass"}],
            "contract": {
                "kind": "hokum",
                "mode": "hokum",
                "trump": "H",
                "declarer": 2,
                "recipient": 2,
                "bidding_round": 1,
                "multiplier": 1,
                "gahwa": False,
                "locked": False,
            },
            "doubler": None,
            "current_trick": {"leader": 0, "cards": ["AS"]},
            "last_trick": None,
            "tricks_played": 0,
            "abnat": [0, 0],
            "trick_counts": [0, 0],
            "projects": [],
            "baloot": [],
            "legal_moves": [
                {"type": "play", "card": "KS"},
                {"type": "play", "card": "QS"},
                {"type": "play", "card": "JS"},
                {"type": "declare", "projects": [_SIRA]},
            ],
            "projects_available": [_SIRA],
            "projects_suggested": [_SIRA],
        },
        "previous_round": None,
    },
    "Seat 1 follows the lead and may declare its sira",
)

MOVE_LOG = _response(
    "The log after version 5",
    {
        "results": [
            {
                "seq": 6,
                "version": 6,
                "round": 1,
                "seat": 2,
                "actor": "bot",
                "type": "bid",
                "call": "hokum",
                "created_at": "2026-12-01T18:02:00Z",
            },
            {
                "seq": 8,
                "version": 8,
                "round": 1,
                "seat": 0,
                "actor": "human",
                "type": "declare",
                "projects": [{"kind": "50", "cards": None}],
                "created_at": "2026-12-01T18:03:00Z",
            },
            {
                "seq": 9,
                "version": 9,
                "round": 1,
                "seat": 0,
                "actor": "timeout",
                "type": "play",
                "card": "AS",
                "created_at": "2026-12-01T18:04:00Z",
            },
        ],
        "next": None,
        "version": 9,
    },
    "A bot's bid, a declaration whose cards are hidden until trick 1 ends, a timed-out play",
)

# One entry: drf-spectacular wraps a list's example in the page (`results`, `next`).
INBOX = _response(
    "Your turn first",
    {
        "id": 42,
        "status": "active",
        "ruleset": "gamerules",
        "visibility": "private",
        "rated": False,
        "version": 9,
        "scores": [0, 0],
        "target": 152,
        "turn_seconds": 86400,
        "my_seat": 1,
        "is_my_turn": True,
        "to_act": 1,
        "deadline": "2026-12-02T18:05:00Z",
        "seats": _SEATS,
        "winner_team": None,
        "end_reason": None,
        "created_at": "2026-12-01T18:00:00Z",
        "updated_at": "2026-12-01T18:05:00Z",
    },
    "One match, waiting for your move",
)

SCORE_SHEET = _response(
    "One round played",
    {
        "results": [
            {
                "number": 1,
                "dealer": 3,
                "status": "complete",
                "contract": MATCH_VIEW.value["round"]["contract"],
                "abnat": [96, 66],
                "card_points": [10, 6],
                "projects": {
                    "declared": [{"seat": 1, "kind": "sira", "cards": ["KS", "QS", "JS"]}],
                    "awarded_team": 1,
                    "points": [0, 2],
                },
                "baloot": [],
                "kaboot": None,
                "bidder_team": 0,
                "bidder_failed": False,
                "points": [10, 8],
                "gahwa_winner": None,
                "totals": [10, 8],
            }
        ],
        "next": None,
        "scores": [10, 8],
    },
    "Round 1 made by the bidding team",
)


# --- saudi (docs/rulesets.md): what a `saudi` match adds ----------------------------------------

_SAUDI_RESULT: dict[str, Any] = {
    "abnat": [52, 110],
    "card_points": [5, 11],
    "projects": {"declared": [], "awarded_team": None, "points": [0, 0]},
    "baloot": [0, 0],
    "kaboot": None,
    "bidder_team": 0,
    "bidder_failed": True,
    "points": [0, 32],
    "gahwa_winner": None,
    "sawa": {"seat": 2, "valid": False},
}

_SAUDI_PREVIOUS: dict[str, Any] = {
    "number": 1,
    "dealer": 3,
    "face_up": "10H",
    "status": "complete",
    "contract": {**MATCH_VIEW.value["round"]["contract"], "locked": True, "multiplier": 2},
    "tricks": [],  # left short here; a real answer lists the tricks played before the Sawa
    "result": _SAUDI_RESULT,
    "declarations": [],
    "scores_after": [0, 32],
    "deck_commitment": "5f0c1e9a" * 8,
    "revealed_hands": [
        ["AS", "9S", "8D"],
        ["KH", "7H", "QC"],
        ["JH", "10S", "7D"],
        ["9H", "AC", "10C"],
    ],
}

MATCH_VIEW_SAUDI = _response(
    "saudi: a false Sawa just ended round 1",
    {
        **MATCH_VIEW.value,
        "ruleset": "saudi",
        "version": 61,
        "scores": [0, 32],
        "round": {
            **MATCH_VIEW.value["round"],
            "number": 2,
            "dealer": 0,
            "phase": "doubling",
            "to_act": 1,
            "card_counts": [8, 8, 8, 8],
            "current_trick": None,
            "doubles": [],
            "calls": [
                {"seat": 1, "type": "bid", "call": "pass"},
                {"seat": 2, "type": "bid", "call": "hokum"},
            ],
            "contract": {**MATCH_VIEW.value["round"]["contract"], "declarer": 2},
            "legal_moves": [
                {"type": "double", "call": "pass"},
                {"type": "double", "call": "double", "locked": False},
                {"type": "double", "call": "double", "locked": True},
            ],
            "projects_available": [],
            "projects_suggested": [],
        },
        "previous_round": _SAUDI_PREVIOUS,
    },
    "Seat 2's Sawa failed: the hands still held are shown; seat 1 may double open or closed",
)

MOVE_LOG_SAUDI = _response(
    "saudi: a closed double and a Sawa",
    {
        "results": [
            {
                "seq": 5,
                "version": 9,
                "round": 1,
                "seat": 1,
                "actor": "human",
                "type": "double",
                "call": "double",
                "locked": True,
                "created_at": "2026-12-01T18:02:00Z",
            },
            {
                "seq": 27,
                "version": 31,
                "round": 1,
                "seat": 2,
                "actor": "human",
                "type": "sawa",
                "revealed_hands": _SAUDI_PREVIOUS["revealed_hands"],
                "created_at": "2026-12-01T18:09:00Z",
            },
        ],
        "next": None,
        "version": 31,
    },
    "The Sawa's entry shows the hands every seat still held",
)

SCORE_SHEET_SAUDI = _response(
    "saudi: a round ended by a false Sawa",
    {
        "results": [
            {
                "number": 1,
                "dealer": 3,
                "status": "complete",
                "contract": _SAUDI_PREVIOUS["contract"],
                **_SAUDI_RESULT,
                "totals": [0, 32],
            }
        ],
        "next": None,
        "scores": [0, 32],
    },
    "`sawa` names who called it and whether it held (null when nobody did)",
)
