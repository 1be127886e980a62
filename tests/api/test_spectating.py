"""Spectating (issue 12, point 8): live public matches are listed, and a spectator (anyone not
seated) sees a match one complete trick behind on the view, its ETag and the move log; the
seated see everything live.

The rule, checked here from the server's true state after every move of a round: a trick's
cards only once the following trick is complete, the calls only once trick 1 is complete, and
at the round's end everything (docs/clients.md "Spectating").
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import Sanction, SanctionKind
from games import engine
from games.engine.cards import card_str
from games.models import Match
from tests.support.api import (
    API,
    assert_problem,
    bid_hokum_round,
    legal_step,
    match_url,
    state_of,
    view_of,
)
from tests.support.players import Player, create_match
from tests.support.spectating import hidden_from_spectator


def current_round_text(view: dict[str, Any], log: dict[str, Any], number: int) -> str:
    """The parts of a view and a log page about the round being played, as JSON text."""
    items = [e for e in log["results"] if e["round"] == number]
    return json.dumps({**view, "previous_round": None}) + json.dumps(items)


def spectator_reads(spectator: Player, match_id: int) -> tuple[Any, dict[str, Any], Any]:
    view = spectator.client.get(match_url(match_id))
    assert view.status_code == 200, view.content
    log = spectator.client.get(match_url(match_id, "/moves"))
    assert log.status_code == 200, log.content
    return view, view.json(), log.json()


def check_spectator(spectator: Player, seated: Player, match_id: int) -> dict[str, Any]:
    """Everything the spectator reads now agrees with the rule; returns their view."""
    state = state_of(match_id)
    match = Match.objects.get(pk=match_id)
    response, view, log = spectator_reads(spectator, match_id)
    rnd = view["round"]
    number = state.round_no
    assert rnd["number"] == number
    assert view["my_seat"] is None and rnd["hand"] == [] and rnd["legal_moves"] == []
    assert rnd["deadline"] is None
    # No card of the hidden part, anywhere in the view or the log (headers included).
    text = current_round_text(view, log, number)
    leaked = sorted(c for c in hidden_from_spectator(state) if f'"{c}"' in text)
    assert not leaked, (leaked, state.trick, state.tricks[-1:] if state.tricks else None)
    assert not any(c in response["ETag"] for c in hidden_from_spectator(state))

    complete = len(state.tricks)
    mine = [e for e in log["results"] if e["round"] == number]
    plays = [e for e in mine if e["type"] == "play"]
    calls = [e for e in mine if e["type"] in ("bid", "double")]
    if complete == 0:
        assert mine == [] and rnd["calls"] == [] and rnd["doubles"] == []
        assert rnd["contract"] is None
        assert rnd["to_act"] == (state.dealer + 1) % 4  # the first bidder
    else:
        # Every call, and the plays of all but the last complete trick.
        real_calls = [(s, m) for s, m in state.actions if isinstance(m, engine.Bid | engine.Double)]
        assert len(calls) == len(real_calls)
        assert len(plays) == 4 * (complete - 1)
        assert rnd["tricks_played"] == complete - 1
        if complete >= 2:
            seen = state.tricks[-2]
            assert rnd["last_trick"]["cards"] == [card_str(c) for c in seen.cards]
            assert rnd["to_act"] == seen.winner  # the winner leads the next trick
        else:
            assert rnd["last_trick"] is None
        assert rnd["current_trick"]["cards"] == []
    # The version, the ETag and the log agree with one another, and lag the match when
    # something is hidden.
    shown = log["version"]
    assert view["version"] == shown
    assert all(e["version"] <= shown for e in log["results"])
    if log["results"]:
        assert log["results"][-1]["version"] <= shown
    assert response["ETag"] == f'W/"m{match_id}-v{shown}-sx"'
    hidden_moves = len(state.actions) - len(mine)
    assert (shown < match.version) == (hidden_moves > 0)
    # The seated see the present.
    assert view_of(seated, match_id)["version"] == match.version
    return view


@pytest.mark.slow
def test_a_spectator_sees_each_trick_only_once_the_next_one_is_complete(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player], no_throttling: None
) -> None:
    view, players = hokum_table(visibility="public")
    match_id = view["id"]
    spectator = make_player()
    check_spectator(spectator, players[0], match_id)
    bid_hokum_round(players, match_id, doubling=[(3, "pass"), (1, "pass")])
    check_spectator(spectator, players[0], match_id)
    rng = random.Random(7)
    tricks_seen = set()
    etags = []
    while state_of(match_id).round_no == 1:
        before = spectator.client.get(match_url(match_id))["ETag"]
        complete_before = len(state_of(match_id).tricks)
        legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
        if state_of(match_id).round_no != 1:
            break
        seen = check_spectator(spectator, players[1], match_id)
        tricks_seen.add(seen["round"]["tricks_played"])
        after = spectator.client.get(match_url(match_id))["ETag"]
        if len(state_of(match_id).tricks) == complete_before:
            # A card inside a trick changes nothing a spectator can see: same ETag, a 304.
            assert after == before
            again = spectator.client.get(match_url(match_id), HTTP_IF_NONE_MATCH=after)
            assert again.status_code == 304
        else:
            assert after != before
        etags.append(after)
    assert tricks_seen == set(range(0, 7))  # tricks 1..7 complete, seen one trick late
    # The round is over: all of it is public, to the spectator too, at the present version.
    spectator_view = view_of(spectator, match_id)
    seat_view = view_of(players[2], match_id)
    assert spectator_view["previous_round"] == seat_view["previous_round"]
    assert spectator_view["previous_round"]["number"] == 1
    assert spectator_view["version"] == Match.objects.get(pk=match_id).version
    log = spectator.client.get(match_url(match_id, "/moves")).json()
    assert log["results"] == players[2].client.get(match_url(match_id, "/moves")).json()["results"]


def test_a_finished_match_is_shown_to_spectators_as_it_is(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = table(visibility="public")
    match_id = view["id"]
    spectator = make_player()
    for _ in range(3):
        legal_step(players, match_id, random.Random(1))
    assert players[1].client.post(match_url(match_id, "/resign")).status_code == 200
    final = Match.objects.get(pk=match_id)
    seen = view_of(spectator, match_id)
    assert seen["status"] == "finished" and seen["version"] == final.version
    assert seen["round"] == view_of(players[0], match_id)["round"] | {
        "hand": [],
        "legal_moves": [],
        "projects_available": [],
        "projects_suggested": [],
    }


# --- GET /matches/live ---------------------------------------------------------------------


def test_live_lists_active_public_matches_as_a_spectator_sees_them(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    public, players = table(visibility="public")
    private, _ = table()
    waiting = create_match(make_player(), visibility="public")
    spectator = make_player()
    rng = random.Random(2)
    # Into trick 2, so that the spectator's version lags.
    while len(state_of(public["id"]).tricks) < 1 or not state_of(public["id"]).trick:
        legal_step(players, public["id"], rng, declines_doubling=True)
    answer = spectator.client.get(f"{API}/matches/live")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["next"] is None
    assert [row["id"] for row in body["results"]] == [public["id"]]
    row = body["results"][0]
    seen = view_of(spectator, public["id"])
    live = Match.objects.get(pk=public["id"])
    assert row["version"] == seen["version"] < live.version
    assert row["to_act"] == seen["round"]["to_act"]
    assert row["deadline"] is None and row["my_seat"] is None and not row["is_my_turn"]
    assert row["scores"] == [0, 0] and row["status"] == "active"
    assert row["started_at"] is not None
    assert [s["display_name"] for s in row["seats"]] == [p.user.display_name for p in players]
    # The same row in GET /matches, for the same spectator.
    listed = spectator.client.get(f"{API}/matches", {"status": "active"}).json()["results"]
    assert [r["version"] for r in listed if r["id"] == public["id"]] == [row["version"]]
    # A seated player's row is live.
    mine = players[0].client.get(f"{API}/matches/live").json()["results"][0]
    assert mine["version"] == live.version and mine["my_seat"] == 0
    assert waiting["id"] not in [r["id"] for r in body["results"]]
    assert private["id"] not in [r["id"] for r in body["results"]]
    # Paginated like every list.
    page = spectator.client.get(f"{API}/matches/live", {"page_size": 0})
    assert_problem(page, 400, "invalid")


@pytest.mark.parametrize("persona", ["anonymous", "revoked", "sanctioned"])
def test_live_refuses_who_may_not_read(
    persona: str, make_player: Callable[..., Player], anon: Any
) -> None:
    player = make_player()
    client = anon
    if persona == "revoked":
        assert player.client.post(f"{API}/auth/logout").status_code in (200, 204)
        client = player.client
    if persona == "sanctioned":
        Sanction.objects.create(
            user=player.user, kind=SanctionKind.BAN, reason="test", created_by=make_player().user
        )
        client = player.client
    answer = client.get(f"{API}/matches/live")
    if persona == "sanctioned":
        assert_problem(answer, 403, "account_banned")
    else:
        assert answer.status_code == 401
        assert answer.json()["code"] in ("not_authenticated", "authentication_failed")
