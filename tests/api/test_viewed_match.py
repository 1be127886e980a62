"""The viewers' read model (games/selectors/viewing.py): every viewer's render takes a small
immutable value made from the match row, never the row patched or copied to fake another state;
and an outsider's view at the cut is the seat-free view of the state one complete trick behind,
built here independently: the cut restated from the rule (docs/clients.md "Spectating") and the
state replayed by the engine from the logged moves up to it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import FrozenInstanceError, fields
from typing import Any

import pytest
from rest_framework.utils.encoders import JSONEncoder

from games import engine, selectors
from games.api import bodies
from games.models import Match, Move, Round
from games.replay import state_from_rows
from tests.support.api import bid_hokum_round, legal_step, match_url, state_of
from tests.support.players import Player


def cut_seq(match_id: int) -> int:
    """How many moves of the match an outsider sees now: every move before the round being
    played, then of that round nothing until trick 1 is complete, the calls once it is, and
    the plays up to the end of trick k - 1 once trick k (k >= 2) is complete."""
    state = state_of(match_id)
    moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
    before = sum(1 for m in moves if m.round_number < state.round_no)
    mine = [m for m in moves if m.round_number == state.round_no]
    complete = len(state.tricks)
    if complete == 0:
        return before
    if complete == 1:
        calls = 0
        for move in mine:
            if move.payload["type"] in ("play", "declare"):
                break
            calls += 1
        return before + calls
    plays = 0
    for i, move in enumerate(mine):
        plays += move.payload["type"] == "play"
        if plays == 4 * (complete - 1):
            return before + i + 1
    raise AssertionError("a complete trick holds four plays")


def independent_view(match_id: int) -> tuple[dict[str, Any], engine.GameState]:
    """The seat-free view of the match at the outsider's cut, from the engine's replay of the
    log up to the cut, rendered by the one serializer of the view."""
    match = Match.with_seats(match_id)
    assert match is not None
    seq = cut_seq(match_id)
    moves = Move.objects.filter(match_id=match_id, seq__lte=seq).order_by("seq")
    state = state_from_rows(
        ruleset=match.ruleset,
        dealer=match.first_dealer,
        target=match.target,
        rounds=list(
            Round.objects.filter(match_id=match_id).order_by("number").values_list("number", "deck")
        ),
        moves=list(moves.values_list("round_number", "seat", "payload")),
    )
    assert state is not None
    first = Move.objects.get(match_id=match_id, seq=1)
    if seq:
        last = Move.objects.get(match_id=match_id, seq=seq)
        version, updated_at = last.version, last.created_at
    else:  # nothing of the match to see yet: the version before its first move
        assert match.started_at is not None
        version, updated_at = first.version - 1, match.started_at
    header = selectors.MatchHeader(
        id=match.pk,
        status=match.status,
        ruleset=match.ruleset,
        rules_version=match.rules_version,
        target=match.target,
        turn_seconds=match.turn_seconds,
        visibility=match.visibility,
        rated=match.rated,
        scores=(match.score_team0, match.score_team1),
        winner_team=match.winner_team,
        end_reason=match.end_reason,
        created_at=match.created_at,
        started_at=match.started_at,
        version=version,
        move_count=seq,
        to_act=engine.to_act(state),
        updated_at=updated_at,
        deadline=None,
        live_version=match.version,
    )
    viewed = selectors.ViewedMatch(
        header=header,
        seats=tuple(match.seat_list()),
        seat=None,
        state=state,
        invite_code=None,
        commitments=tuple(sorted((int(n), d) for n, d in match.recent_commitments.items())),
    )
    body = json.loads(json.dumps(bodies.match_view(viewed), cls=JSONEncoder))
    return body, state


def test_an_outsiders_view_is_the_seat_free_view_of_the_state_one_trick_behind(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player], no_throttling: None
) -> None:
    view, players = hokum_table(visibility="public")
    match_id = view["id"]
    spectator = make_player()
    bid_hokum_round(players, match_id, doubling=[(3, "pass"), (1, "pass")])
    rng = random.Random(11)
    checked = behind = 0
    while state_of(match_id).round_no == 1:
        seen = spectator.client.get(match_url(match_id))
        assert seen.status_code == 200, seen.content
        expected, cut = independent_view(match_id)
        assert seen.json() == expected
        # The cards come from the engine's seat-free observation of the cut, nothing else.
        obs = engine.observation(cut, None)
        assert seen.json()["round"]["tricks_played"] == len(obs.tricks)
        assert seen.json()["round"]["hand"] == []
        behind += seen.json()["version"] < Match.objects.get(pk=match_id).version
        checked += 1
        legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
    assert checked >= 32 and behind >= 24  # most moves of a round are hidden for a while


def test_the_read_model_is_immutable_and_the_row_stays_the_row(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table(visibility="public")
    match_id = view["id"]
    bid_hokum_round(players, match_id, doubling=[(3, "pass"), (1, "pass")])
    spectator = make_player()
    viewed = selectors.viewed_match_for(match_id, spectator.user)
    assert viewed.seat is None and viewed.header.deadline is None
    assert viewed.header.version < viewed.header.live_version  # the calls are hidden still
    for value in (viewed, viewed.header):
        for field in fields(value):
            with pytest.raises(FrozenInstanceError):
                setattr(value, field.name, None)
        with pytest.raises((AttributeError, TypeError)):
            value.__dict__  # noqa: B018 - slots: no instance attribute can be added
    # The row an access check hands back is the row as stored: no instance attribute shadows
    # the model's methods, nothing about it is the cut's.
    match, seat = selectors.match_for_viewer(match_id, spectator.user)
    assert seat is None and type(match) is Match
    assert "save" not in vars(match) and "delete" not in vars(match)
    stored = Match.objects.get(pk=match_id)
    assert (match.version, match.snapshot, match.to_act, match.deadline) == (
        stored.version,
        stored.snapshot,
        stored.to_act,
        stored.deadline,
    )
    assert match.load_state() == state_of(match_id) != viewed.state
