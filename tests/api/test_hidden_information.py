"""Hidden information never leaks (api.md): after every move of a whole match, every persona
reads every GET endpoint, and no body, header or error shows an unplayed card of another seat
or an undealt stock card.

The forbidden cards come from the server's true state (``Match.load_state()``): the other
seats' hands, plus the stock while bidding, less what is public (the face-up card, and the
declared projects once trick 1 of the round is complete). Cards of finished rounds are public,
so the parts of a body about earlier rounds are checked to be about earlier rounds and then
left out of the scan.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine
from games.engine.cards import card_str, cards_of
from games.models import Match
from games.selectors.spectating import round_cut
from tests.support.api import (
    API,
    CARD_TOKEN,
    assert_problem,
    bid_hokum_round,
    hand_names,
    legal_step,
    match_url,
    play,
    post_move,
    state_of,
)
from tests.support.players import Player

LIVE_PHASES = (engine.Phase.BIDDING, engine.Phase.DOUBLING, engine.Phase.PLAYING)


def forbidden_cards(state: engine.GameState, seat: int | None) -> set[str]:
    """Card names ``seat`` (None: an outsider) must not see anywhere right now."""
    hidden: set[int] = set()
    for other in range(4):
        if other != seat:
            hidden.update(cards_of(state.hands[other]))
    if state.phase is engine.Phase.BIDDING:
        hidden.update(state.deck[21:])  # the stock is dealt only after the bidding
    if state.face_up is not None:
        hidden.discard(state.face_up)
    if state.tricks:  # trick 1 is complete: every declared project is public
        for _, projects in state.declarations:
            for project in projects:
                hidden.difference_update(project.cards)
    return {card_str(c) for c in hidden}


def spectator_forbidden(state: engine.GameState) -> set[str]:
    """What a spectator must not see yet besides the hands: the cards of the trick in progress
    and of the last complete trick, and declared cards until trick 2 is complete."""
    hidden = set(state.trick)
    if state.tricks:
        hidden.update(state.tricks[-1].cards)
    for _, projects in state.declarations:
        for project in projects:
            if len(state.tricks) < 2:
                hidden.update(project.cards)
            else:  # public since trick 1, which the spectator has seen by now
                hidden.difference_update(project.cards)
    hidden.discard(state.face_up)  # shown for the whole round
    return {card_str(c) for c in hidden if c is not None}


def assert_nothing_forbidden(response: Any, payload: Any, forbidden: set[str], where: str) -> None:
    text = json.dumps(payload)
    leaked = sorted(card for card in forbidden if f'"{card}"' in text)
    assert not leaked, f"{where}: {leaked} in {text[:2000]}"
    for name, value in response.items():
        in_header = set(CARD_TOKEN.findall(value)) & forbidden
        assert not in_header, f"{where}: header {name} shows {in_header}"


def public_part(kind: str, body: Any, current_round: int) -> Any:
    """``body`` less the parts about finished rounds, having checked they are about them."""
    if kind == "view":
        previous = body.get("previous_round")
        if previous is not None:
            assert previous["number"] == current_round - 1
            assert previous["status"] in ("complete", "redeal")
        return {**body, "previous_round": None}
    if kind == "move_log":
        for entry in body["results"]:
            assert entry["round"] <= current_round
        return [e for e in body["results"] if e["round"] == current_round]
    if kind == "score_sheet":
        for row in body["results"]:
            assert row["number"] < current_round
            assert row["status"] in ("complete", "redeal")
        return {**body, "results": None}
    return body


def check_view(body: dict[str, Any], state: engine.GameState, seat: int | None) -> None:
    rnd = body["round"]
    assert rnd["number"] == state.round_no
    assert rnd["card_counts"] == [m.bit_count() for m in state.hands]
    acting = engine.to_act(state)
    if seat is None:
        assert body["my_seat"] is None
        assert rnd["hand"] == []
        assert rnd["legal_moves"] == []
    else:
        assert body["my_seat"] == seat
        assert rnd["hand"] == hand_names(state, seat)
        if seat == acting:
            expected = [engine.move_to_dict(m) for m in engine.legal_moves(state)]
            # api.md "Declarations": while declaring is legal, the suggested declaration too.
            suggested = engine.observation(state, seat).projects_suggested
            if suggested:
                expected.append(engine.move_to_dict(engine.Declare(suggested)))
            assert rnd["legal_moves"] == expected
            assert expected
        else:
            assert rnd["legal_moves"] == []
            assert rnd["projects_available"] == []
    trick1_done = bool(state.tricks)
    for declared in rnd["projects"]:
        if declared["seat"] != seat and not trick1_done:
            assert declared["projects"] is None, declared  # kinds only, until trick 1 is over
        else:
            assert declared["projects"] is not None


def check_move_log(body: dict[str, Any], state: engine.GameState, seat: int | None) -> int:
    """Returns how many declarations of this round were shown to ``seat`` as kinds only."""
    hidden = 0
    for entry in body["results"]:
        if entry["type"] != "declare" or entry["round"] != state.round_no:
            continue
        if entry["seat"] != seat and not state.tricks:
            assert all(p["cards"] is None for p in entry["projects"]), entry
            hidden += 1
        else:
            assert all(p["cards"] for p in entry["projects"]), entry
    return hidden


GETS = {
    "view": "",
    "move_log": "/moves",
    "score_sheet": "/rounds",
}


def crawl(match_id: int, personas: dict[str, tuple[APIClient, int | None]]) -> int:
    """Every persona reads every GET endpoint; returns how many hidden declarations it saw."""
    state = state_of(match_id)
    assert state.phase in LIVE_PHASES
    number = state.round_no
    hidden_declarations = 0
    for name, (client, seat) in personas.items():
        forbidden = forbidden_cards(state, seat)
        seen = state
        if name == "outsider":
            # A spectator sees the match one complete trick behind (selectors.spectating):
            # besides the hands, neither the trick in progress nor the last complete one, nor
            # a declaration's cards before trick 2 is complete.
            forbidden |= spectator_forbidden(state)
            seen = round_cut(state).state
        where = f"{name} v{Match.objects.get(pk=match_id).version}"
        urls = {
            **{kind: match_url(match_id, tail) for kind, tail in GETS.items()},
            "round_record": match_url(match_id, f"/rounds/{number}/record"),
            "match_record": match_url(match_id, "/record"),
            "inbox": f"{API}/me/matches",
            "matches": f"{API}/matches",
        }
        for kind, url in urls.items():
            response = client.get(url)
            if seat is None and name == "anonymous":
                assert_problem(response, 401, "not_authenticated")
                assert_nothing_forbidden(response, response.json(), forbidden, f"{where} {kind}")
                continue
            if kind == "round_record":
                assert_problem(response, 409, "round_not_finished")
            elif kind == "match_record":
                assert_problem(response, 409, "match_not_finished")
            else:
                assert response.status_code == 200, (where, kind, response.content)
            body = response.json()
            if kind == "view":
                check_view(body, seen, seat)
            if kind == "move_log":
                hidden_declarations += check_move_log(body, seen, seat)
            assert_nothing_forbidden(
                response, public_part(kind, body, number), forbidden, f"{where} {kind}"
            )
    return hidden_declarations


def probe_refusals(match_id: int, players: list[Player], rng: random.Random) -> None:
    """Refused moves naming other seats' cards must not confirm or reveal anything either."""
    state = state_of(match_id)
    acting = engine.to_act(state)
    assert acting is not None
    other = rng.choice([s for s in range(4) if s != acting])
    guess = rng.choice(hand_names(state, acting) + hand_names(state, other))
    for seat in (acting, other):
        response = post_move(players[seat], match_id, {"type": "play", "card": guess})
        if response.status_code == 201:
            return  # the guess was a legal play: the match moved on, nothing to scan
        assert response.status_code == 422, response.content
        forbidden = forbidden_cards(state, seat) - {guess}
        assert_nothing_forbidden(response, response.json(), forbidden, f"refusal to {seat}")


@pytest.mark.slow
def test_no_persona_ever_sees_another_seats_cards_or_the_stock_in_a_whole_match(
    seeded_deals: None,
    no_throttling: None,
    table: Callable[..., Any],
    make_player: Callable[..., Player],
) -> None:
    view, players = table(visibility="public", target=40)
    match_id = view["id"]
    personas: dict[str, tuple[APIClient, int | None]] = {
        f"seat {i}": (p.client, i) for i, p in enumerate(players)
    }
    personas["outsider"] = (make_player().client, None)
    personas["anonymous"] = (APIClient(), None)
    play_rng, probe_rng = random.Random(5), random.Random(6)
    hidden_declarations = 0
    moves = 0
    while Match.objects.get(pk=match_id).status == "active":
        hidden_declarations += crawl(match_id, personas)
        if moves % 7 == 3:
            probe_refusals(match_id, players, probe_rng)
        if Match.objects.get(pk=match_id).status != "active":
            break
        legal_step(players, match_id, play_rng, declare_rate=0.8)
        moves += 1
    final = Match.objects.get(pk=match_id)
    assert final.status == "finished"
    state = final.load_state()
    assert state is not None  # a finished match keeps its last state
    rounds_played = state.round_no
    assert rounds_played >= 2  # the crawl saw finished rounds inside live bodies
    assert hidden_declarations > 0  # declarations were made and shown as kinds only
    assert moves > 60
    record = players[0].client.get(match_url(match_id, "/record"))
    assert record.status_code == 200
    assert len(record.json()["rounds"]) == rounds_played


def test_the_view_shows_another_seats_declared_cards_only_after_trick_1(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    bid_hokum_round(players, match_id, [(3, "pass"), (1, "pass")])
    sira = [{"kind": "sira", "cards": ["AS", "KS", "QS"]}]
    play(players, match_id, 2, {"type": "declare", "projects": sira})
    for seat in range(4):
        projects = players[seat].client.get(match_url(match_id)).json()["round"]["projects"]
        shown = sira if seat == 2 else None
        assert projects == [{"seat": 2, "kinds": ["sira"], "projects": shown}]
    for seat, card in ((2, "AS"), (3, "8S"), (0, "10S")):
        play(players, match_id, seat, {"type": "play", "card": card})
    still_hidden = players[0].client.get(match_url(match_id)).json()["round"]["projects"]
    assert still_hidden[0]["projects"] is None  # trick 1 is not complete yet
    play(players, match_id, 1, {"type": "play", "card": "JS"})
    for seat in range(4):
        projects = players[seat].client.get(match_url(match_id)).json()["round"]["projects"]
        assert projects == [{"seat": 2, "kinds": ["sira"], "projects": sira}]
