"""Helpers for tests that talk to the API: URLs, the problem-details assertion, a fingerprint of
everything a match stores, fixed deals, and driving a match with legal moves over HTTP."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from typing import Any

from games import engine
from games.engine.cards import card_str, cards_of
from games.models import IdempotencyRecord, Match, Move, Round, Seat
from games.services import state as services  # where the deal is made
from tests.engine.helpers import deck_for
from tests.support.players import Player

API = "/api/v1"
PROBLEM = "application/problem+json"

ALL_CARDS = frozenset(card_str(c) for c in range(32))
# A card name as a whole token (headers carry no JSON quotes around it).
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[AKQJ987])[SHDC](?![0-9A-Za-z])")


def match_url(match_id: int, tail: str = "") -> str:
    return f"{API}/matches/{match_id}{tail}"


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status and stable code."""
    assert response.status_code == status, (response.status_code, response.content)
    assert response["Content-Type"].startswith(PROBLEM), response["Content-Type"]
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code, body
    assert body["type"].endswith("/" + code)
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def view_of(player: Player, match_id: int) -> dict[str, Any]:
    """The match as ``player`` sees it."""
    response = player.client.get(match_url(match_id))
    assert response.status_code == 200, response.content
    return response.json()


def assert_field_errors(
    response: Any, expected: dict[str, str], *, status: int = 400, code: str = "invalid"
) -> None:
    """A 400 (or the ``status`` and ``code`` of a refusal: a 422 ``weak_password``) whose
    ``errors`` name exactly these fields, each with its code."""
    body = assert_problem(response, status, code)
    errors = body["errors"]
    assert isinstance(errors, list) and errors
    for item in errors:
        assert set(item) == {"field", "code", "detail"}, item
        assert item["detail"]
    got = {item["field"]: item["code"] for item in errors}
    assert got == expected, errors


# --- What a match stores ---------------------------------------------------------------------


def _plain(row: Mapping[str, Any]) -> dict[str, Any]:
    return {k: bytes(v) if isinstance(v, memoryview) else v for k, v in row.items()}


def fingerprint(match_id: int) -> dict[str, Any]:
    """Every stored value of a match: its row (snapshot bytes and version included), seats,
    rounds, moves, and how many idempotency records exist."""
    return {
        "match": _plain(Match.objects.filter(pk=match_id).values().get()),
        "seats": [
            _plain(r) for r in Seat.objects.filter(match_id=match_id).order_by("index").values()
        ],
        "rounds": [
            _plain(r) for r in Round.objects.filter(match_id=match_id).order_by("number").values()
        ],
        "moves": [
            _plain(r) for r in Move.objects.filter(match_id=match_id).order_by("seq").values()
        ],
        "idempotency_records": IdempotencyRecord.objects.count(),
    }


def state_of(match_id: int) -> engine.GameState:
    state = Match.objects.get(pk=match_id).load_state()
    assert state is not None
    return state


def hand_names(state: engine.GameState, seat: int) -> list[str]:
    return [card_str(c) for c in cards_of(state.hands[seat])]


def to_act(match_id: int) -> int:
    seat = Match.objects.get(pk=match_id).to_act
    assert seat is not None
    return seat


# --- Fixed deals ------------------------------------------------------------------------------

# Final hands for a deal with dealer 0 (bidding order 1, 2, 3, 0) where seat 2 takes the face-up
# KH in Hokum hearts. Seat 2 holds a spade sira (AS KS QS) and the trump K+Q; seat 3 holds two
# spades and no heart-free escape from following spades.
HOKUM_HANDS = {
    0: "JH AH 10S 9S KD QD 8C 7C",
    1: "8H 10H JC JS AD 9D AC 10C",
    2: "KH QH 9H 7H AS KS QS 8D",
    3: "8S 7S 10D JD 7D KC QC 9C",
}
HOKUM_BIDS = [(1, "pass"), (2, "hokum"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "hokum")]


def fix_deal(
    monkeypatch: Any,
    hands: dict[int, str] | None = None,
    *,
    dealer: int = 0,
    recipient: int = 2,
    face_up: str = "KH",
) -> list[int]:
    """Make every deal of matches started from now on use this deck and first dealer."""
    deck = deck_for(hands or HOKUM_HANDS, dealer=dealer, recipient=recipient, face_up=face_up)
    monkeypatch.setattr(services, "shuffled_deck", lambda: list(deck))
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: dealer)
    return deck


# --- Moves over HTTP -------------------------------------------------------------------------


def post_move(player: Player, match_id: int, move: dict[str, Any], **headers: Any) -> Any:
    return player.client.post(match_url(match_id, "/moves"), move, format="json", **headers)


def play(players: list[Player], match_id: int, seat: int, move: dict[str, Any]) -> dict[str, Any]:
    response = post_move(players[seat], match_id, move)
    assert response.status_code == 201, response.content
    return response.json()


def bid_hokum_round(players: list[Player], match_id: int, doubling: list[tuple[int, str]]) -> None:
    """Round 1 of the HOKUM_HANDS deal: seat 2 buys Hokum hearts, then these doubling calls."""
    for seat, call in HOKUM_BIDS:
        play(players, match_id, seat, {"type": "bid", "call": call})
    for seat, call in doubling:
        play(players, match_id, seat, {"type": "double", "call": call})


def legal_step(
    players: list[Player],
    match_id: int,
    rng: random.Random,
    declare_rate: float = 0.5,
    *,
    declines_doubling: bool = False,
) -> dict[str, Any]:
    """The acting seat makes a move from its own view: its suggested projects sometimes,
    otherwise one of its legal moves (never a double, with ``declines_doubling``: a random
    Gahwa would end the match). Returns the 201 answer."""
    seat = to_act(match_id)
    view = players[seat].client.get(match_url(match_id)).json()
    rnd = view["round"]
    if rnd["projects_suggested"] and rng.random() < declare_rate:
        move = {"type": "declare", "projects": rnd["projects_suggested"]}
    else:
        assert rnd["legal_moves"], rnd
        choices = rnd["legal_moves"]
        if declines_doubling:
            choices = [m for m in choices if m["type"] != "double" or m["call"] == "pass"]
        move = rng.choice(choices)
    response = post_move(players[seat], match_id, {**move, "expected_version": view["version"]})
    assert response.status_code == 201, response.content
    return response.json()


def play_until(
    players: list[Player],
    match_id: int,
    done: Callable[[Match], bool],
    rng: random.Random | None = None,
    limit: int = 3000,
) -> Match:
    rng = rng or random.Random(1)
    for _ in range(limit):
        match = Match.objects.get(pk=match_id)
        if done(match) or match.status != "active":
            return match
        legal_step(players, match_id, rng)
    raise AssertionError("the match did not reach the wanted state")


def finish_round(players: list[Player], match_id: int, rng: random.Random | None = None) -> Match:
    """Play legal moves until the current round is over (a redeal counts)."""
    number = state_of(match_id).round_no
    return play_until(players, match_id, lambda m: state_of(m.pk).round_no > number, rng)


def play_a_round_out(
    players: list[Player], match_id: int, rng: random.Random | None = None
) -> Match:
    """Play legal moves, never doubling (a Gahwa would end the match), until a round is
    complete (a redeal is not): from then on the match's result moves ratings."""
    rng = rng or random.Random(1)
    for _ in range(3000):
        match = Match.objects.get(pk=match_id)
        played = Round.objects.filter(match_id=match_id, status="complete").exists()
        if played or match.status != "active":
            return match
        legal_step(players, match_id, rng, declines_doubling=True)
    raise AssertionError("no round was played out")
