"""`saudi` matches through HTTP only (issue 13; rules-saudi.md S1-S30 as the service shows them):
four humans and one human against three bots play whole matches, random Sawa calls included;
hidden information is checked as for `gamerules`, including the moment a Sawa reveals the hands
(S24); the Hokum Double/Four items with `locked` both ways (S10-S11); the refusal codes
`must_trump` / `must_overtrump` (S5-S6) and Sawa's refusals (S20-S21) change nothing; a
`gamerules` match shows none of it (S2).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine, tasks
from games.engine.record import replay
from games.models import Match
from tests.api.test_hidden_information import crawl, forbidden_cards
from tests.support.api import (
    assert_field_errors,
    assert_problem,
    fingerprint,
    hand_names,
    match_url,
    post_move,
    state_of,
    to_act,
    view_of,
)
from tests.support.players import Player, create_match
from tests.support.tasks import BOT

SAUDI_ONLY_KEYS = ("sawa", "locked", "revealed_hands")


def held_hands(match_id: int) -> list[list[str]]:
    state = state_of(match_id)
    return [hand_names(state, seat) for seat in range(4)]


def step(
    players: list[Player], match_id: int, rng: random.Random, sawa_rate: float = 0.3
) -> dict[str, Any]:
    """The acting seat posts one of its own legal moves (Sawa, when open, at ``sawa_rate``;
    never Gahwa); returns the posted move."""
    seat = to_act(match_id)
    view = view_of(players[seat], match_id)
    rnd = view["round"]
    moves = rnd["legal_moves"]
    assert moves, rnd
    sawa = [m for m in moves if m["type"] == "sawa"]
    if sawa:
        assert moves[-1] == {"type": "sawa"}  # the item ends the list (docs/rulesets.md)
    if sawa and rng.random() < sawa_rate:
        move = sawa[0]
    else:
        # No random Gahwa: it would end the match at once, before any Sawa moment.
        others = [m for m in moves if m["type"] != "sawa" and m.get("call") != "gahwa"]
        move = rng.choice(others)
    response = post_move(players[seat], match_id, {**move, "expected_version": view["version"]})
    assert response.status_code == 201, response.content
    return move


def check_sawa_revealed(
    match_id: int, hands: list[list[str]], personas: dict[str, tuple[APIClient, int | None]]
) -> None:
    """S24: the hands still held when Sawa was called are shown to everyone at once: in the
    view (the round just ended) and on the Sawa's entry of the move log."""
    match = Match.objects.get(pk=match_id)
    for name, (client, _seat) in personas.items():
        if name == "anonymous":
            continue
        view = client.get(match_url(match_id)).json()
        ended = view["previous_round"] if match.status == "active" else view["round"]
        assert ended["revealed_hands"] == hands, name
        if match.status == "active":
            assert ended["result"]["sawa"]["seat"] in range(4)
        log = client.get(match_url(match_id, f"/moves?after={match.version - 1}")).json()
        (entry,) = (e for e in log["results"] if e["type"] == "sawa")
        assert entry["revealed_hands"] == hands, name


def play_saudi_match(
    players: list[Player],
    match_id: int,
    personas: dict[str, tuple[APIClient, int | None]],
    rng: random.Random,
) -> int:
    """Plays the match to its end, crawling every GET as every persona before each move;
    returns how many Sawa were called."""
    sawas = 0
    for moves in range(3000):
        if Match.objects.get(pk=match_id).status != "active":
            return sawas
        if moves % 3 == 0:  # a crawl costs ~30 requests; the Sawa moments are checked apart
            crawl(match_id, personas)
        before = held_hands(match_id)
        move = step(players, match_id, rng)
        if move["type"] == "sawa":
            sawas += 1
            check_sawa_revealed(match_id, before, personas)
    raise AssertionError("match did not finish")


@pytest.mark.slow
def test_S1_S20_four_humans_play_a_saudi_match_with_sawa_and_no_card_ever_leaks(
    seeded_deals: None,
    no_throttling: None,
    table: Callable[..., Any],
    make_player: Callable[..., Player],
) -> None:
    """S1 the ruleset chosen at creation and shown; S20-S26 Sawa called at random; hidden
    information as for gamerules; the record replays as `saudi` to the same result."""
    view, players = table(ruleset="saudi", visibility="public", target=60)
    assert view["ruleset"] == "saudi"
    match_id = view["id"]
    personas: dict[str, tuple[APIClient, int | None]] = {
        f"seat {i}": (p.client, i) for i, p in enumerate(players)
    }
    personas["outsider"] = (make_player().client, None)
    personas["anonymous"] = (APIClient(), None)
    sawas = play_saudi_match(players, match_id, personas, random.Random(13))
    assert sawas > 0

    final = view_of(players[0], match_id)
    assert final["status"] == "finished"
    record = players[1].client.get(match_url(match_id, "/record")).json()
    assert record["ruleset"] == "saudi"
    output, code = replay(record)
    assert code == 0, output["error"]
    assert output["scores"] == final["scores"]
    assert output["winner"] == final["winner_team"]
    sheet = players[2].client.get(match_url(match_id, "/rounds?page_size=100")).json()
    rows = sheet["results"]
    assert all("sawa" in row for row in rows)  # S25: null or {seat, valid}, every round
    called = [row["sawa"] for row in rows if row["sawa"] is not None]
    assert len(called) == sawas
    assert all(set(c) == {"seat", "valid"} for c in called)
    assert [r["result"]["sawa"] for r in output["rounds"]] == [r["sawa"] for r in rows]


@pytest.mark.slow
def test_S20_one_human_and_three_bots_play_saudi_to_the_end(
    no_throttling: None,
    commit: Callable[..., Any],
    make_player: Callable[..., Player],
) -> None:
    """The bots (easy, normal, easy) play `saudi` legally from the tasks the service queues;
    the human plays from their own legal_moves and sees only their own hand."""
    human = make_player()
    with commit() as queued:
        created = create_match(
            human,
            ruleset="saudi",
            target=80,
            bots={"1": "easy", "2": "normal", "3": "easy"},
        )
    match_id = created["id"]
    rng = random.Random(3)
    for _ in range(2000):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            break
        if queued and queued[0].task == BOT:
            (task,) = queued
            with commit() as queued:
                assert tasks.play_bot_turn(*task.args) is True
            continue
        assert match.to_act == 0
        view = view_of(human, match_id)
        state = state_of(match_id)
        assert view["round"]["hand"] == hand_names(state, 0)
        text = json.dumps({**view, "previous_round": None})
        leaked = [c for c in forbidden_cards(state, 0) if f'"{c}"' in text]
        assert not leaked, leaked
        moves = view["round"]["legal_moves"]
        with commit() as queued:
            response = post_move(
                human, match_id, {**rng.choice(moves), "expected_version": view["version"]}
            )
            assert response.status_code == 201, response.content
    final = Match.objects.get(pk=match_id)
    assert final.status == "finished"
    output, code = replay(human.client.get(match_url(match_id, "/record")).json())
    assert code == 0, output["error"]
    assert output["scores"] == final.scores


# Random bidding would mostly end in Sun (it outbids Hokum); these drives want Hokum rounds.
NOT_FOR_HOKUM_DRIVES = ("sun", "ashkal", "triple", "four", "gahwa")


def drive_to(
    players: list[Player], match_id: int, rng: random.Random, found: Callable[[dict], bool]
) -> dict[str, Any]:
    """Random legal play (no Sawa, no Sun, no doubling beyond Double) until the acting seat's view
    satisfies ``found``; a new round is dealt when one ends, so this ends quickly."""
    for _ in range(3000):
        seat = to_act(match_id)
        view = view_of(players[seat], match_id)
        if found(view):
            return view
        moves = [
            m
            for m in view["round"]["legal_moves"]
            if m["type"] != "sawa" and m.get("call") not in NOT_FOR_HOKUM_DRIVES
        ]
        posted = post_move(players[seat], match_id, rng.choice(moves))
        assert posted.status_code == 201, posted.content
    raise AssertionError("never reached")


def hokum_doubling(view: dict[str, Any]) -> bool:
    rnd = view["round"]
    return (
        rnd["phase"] == "doubling"
        and rnd["contract"]["mode"] == "hokum"
        and any(m.get("call") == "double" for m in rnd["legal_moves"])
    )


@pytest.mark.parametrize("closed", [True, False])
def test_S10_S11_hokum_double_is_listed_open_and_closed_and_the_choice_is_kept(
    table: Callable[..., Any], closed: bool
) -> None:
    view, players = table(ruleset="saudi", target=500)
    match_id = view["id"]
    mine = drive_to(players, match_id, random.Random(2), hokum_doubling)
    doubles = [m for m in mine["round"]["legal_moves"] if m.get("call") == "double"]
    assert doubles == [
        {"type": "double", "call": "double", "locked": False},
        {"type": "double", "call": "double", "locked": True},
    ]
    seat = mine["my_seat"]
    after = post_move(
        players[seat], match_id, {"type": "double", "call": "double", "locked": closed}
    )
    assert after.status_code == 201, after.content
    assert after.json()["round"]["contract"]["locked"] is closed
    assert after.json()["round"]["contract"]["multiplier"] == 2
    version = after.json()["version"]
    log = players[0].client.get(match_url(match_id, f"/moves?after={version - 1}")).json()
    (entry,) = log["results"]
    assert (entry["type"], entry["call"], entry["locked"]) == ("double", "double", closed)


def test_S11_locked_must_be_a_boolean_and_changes_nothing_when_refused(
    table: Callable[..., Any],
) -> None:
    view, players = table(ruleset="saudi", target=500)
    match_id = view["id"]
    mine = drive_to(players, match_id, random.Random(2), hokum_doubling)
    before = fingerprint(match_id)
    refused = post_move(
        players[mine["my_seat"]], match_id, {"type": "double", "call": "double", "locked": "yes"}
    )
    assert_field_errors(refused, {"locked": "invalid"})
    assert fingerprint(match_id) == before


@pytest.mark.slow
def test_S5_S6_must_trump_and_must_overtrump_are_refused_and_change_nothing(
    seeded_deals: None,
    table: Callable[..., Any],
) -> None:
    """Plays a Hokum round card by card; where the acting seat holds a card the rules refuse,
    it posts it: `must_trump` / `must_overtrump` (or the older codes), the state unchanged."""
    seen: set[str] = set()
    for seed in range(1, 12):
        view, players = table(ruleset="saudi", target=500)
        match_id = view["id"]
        rng = random.Random(seed)
        for _ in range(150):  # a few rounds a table; a fresh deal finds the next case sooner
            if Match.objects.get(pk=match_id).status != "active":
                break
            seat = to_act(match_id)
            mine = view_of(players[seat], match_id)
            rnd = mine["round"]
            legal = [m for m in rnd["legal_moves"] if m["type"] != "sawa"]
            playing_hokum = rnd["phase"] == "playing" and rnd["contract"]["mode"] == "hokum"
            if playing_hokum:
                allowed = {m["card"] for m in legal if m["type"] == "play"}
                refusable = sorted(set(rnd["hand"]) - allowed)
                if refusable and {"must_trump", "must_overtrump"} - seen:
                    # Every refused card of this hand is posted (the first alone is mostly
                    # a must_follow_suit); the match is compared once they all are.
                    before = fingerprint(match_id)
                    for card in refusable:
                        refused = post_move(players[seat], match_id, {"type": "play", "card": card})
                        assert refused.status_code == 422, refused.content
                        code = refused.json()["code"]
                        assert code in (
                            "must_follow_suit",
                            "must_trump",
                            "must_overtrump",
                            "locked_trump_lead",
                        )
                        assert_problem(refused, 422, code)
                        seen.add(code)
                    assert fingerprint(match_id) == before
            move = rng.choice([m for m in legal if m.get("call") not in NOT_FOR_HOKUM_DRIVES])
            assert post_move(players[seat], match_id, move).status_code == 201
        if {"must_trump", "must_overtrump"} <= seen:
            return
    raise AssertionError(f"only saw {seen}")


def test_S21_sawa_out_of_time_or_turn_is_refused_and_changes_nothing(
    table: Callable[..., Any],
) -> None:
    view, players = table(ruleset="saudi", target=500)
    match_id = view["id"]
    seat = to_act(match_id)
    before = fingerprint(match_id)
    # S21: not open in the bidding (nor before trick 5).
    assert_problem(post_move(players[seat], match_id, {"type": "sawa"}), 422, "illegal_call")
    assert_problem(
        post_move(players[(seat + 1) % 4], match_id, {"type": "sawa"}), 422, "not_your_turn"
    )
    assert_field_errors(
        post_move(players[seat], match_id, {"type": "sawa", "card": "AS"}), {"card": "invalid"}
    )
    assert fingerprint(match_id) == before


@pytest.mark.slow
def test_S2_a_gamerules_match_shows_no_saudi_key_and_refuses_sawa(
    table: Callable[..., Any],
) -> None:
    view, players = table()
    match_id = view["id"]
    assert view["ruleset"] == "gamerules"
    rng = random.Random(4)
    seen_double = False
    for _ in range(300):
        seat = to_act(match_id)
        mine = view_of(players[seat], match_id)
        # `locked` has always been in the contract; the Double items never carry it (S2).
        assert all("locked" not in m for m in mine["round"]["legal_moves"])
        text = json.dumps(mine)
        assert '"sawa"' not in text and '"revealed_hands"' not in text
        seen_double |= any(m["type"] == "double" for m in mine["round"]["legal_moves"])
        moves = mine["round"]["legal_moves"]
        move = rng.choice([m for m in moves if m.get("call") not in NOT_FOR_HOKUM_DRIVES])
        assert post_move(players[seat], match_id, move).status_code == 201
        if Match.objects.get(pk=match_id).status != "active":
            break
    log = players[0].client.get(match_url(match_id, "/moves?page_size=100")).json()
    assert all(set(e) & set(SAUDI_ONLY_KEYS) == set() for e in log["results"])
    sheet = json.dumps(players[0].client.get(match_url(match_id, "/rounds")).json())
    assert '"sawa"' not in sheet and '"revealed_hands"' not in sheet
    assert seen_double
    if Match.objects.get(pk=match_id).status == "active":
        seat = to_act(match_id)
        before = fingerprint(match_id)
        response = post_move(players[seat], match_id, {"type": "sawa"})
        assert_problem(response, 422, "not_in_ruleset")
        assert fingerprint(match_id) == before


def test_S1_an_unknown_ruleset_is_refused_at_creation(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    response = creator.client.post("/api/v1/matches", {"ruleset": "kammelna"}, format="json")
    assert_field_errors(response, {"ruleset": "invalid_choice"})
    assert not Match.objects.exists()


def test_the_view_and_lists_show_the_ruleset(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    created = create_match(creator, ruleset="saudi", bots={"1": "easy"})
    assert created["ruleset"] == "saudi"
    assert view_of(creator, created["id"])["ruleset"] == "saudi"
    rows = creator.client.get("/api/v1/me/matches").json()["results"]
    assert [r["ruleset"] for r in rows] == ["saudi"]
    assert engine.get_ruleset("saudi").sawa


def test_S25_the_admin_shows_the_ruleset_and_each_rounds_sawa(
    table: Callable[..., Any], admin_client: Any
) -> None:
    view, players = table(ruleset="saudi", target=500)
    match_id = view["id"]
    rng = random.Random(8)
    while not any(
        m.payload.get("type") == "sawa" for m in Match.objects.get(pk=match_id).moves.all()
    ):
        step(players, match_id, rng, sawa_rate=1.0)
    (row,) = players[0].client.get(match_url(match_id, "/rounds")).json()["results"][-1:]
    seat, valid = row["sawa"]["seat"], row["sawa"]["valid"]
    expected = f"Sawa by seat {seat}: {'valid' if valid else 'false'}"
    page = admin_client.get(f"/admin/games/match/{match_id}/change/")
    assert page.status_code == 200
    assert expected in page.content.decode()
    listing = admin_client.get("/admin/games/match/?ruleset=saudi")
    assert listing.status_code == 200 and "saudi" in listing.content.decode()
    rounds = admin_client.get(f"/admin/games/round/?match__ruleset=saudi&q={match_id}")
    assert rounds.status_code == 200 and expected in rounds.content.decode()
