"""Every refusal code of record-format.md, its precedence, and that a refused move changes
nothing (rules.md R20, R23, R26, R30)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import apply, move_from_dict, move_to_dict, new_match, start_round
from games.engine.errors import ILLEGAL_CODES, IllegalMove, MalformedMove
from games.engine.moves import Declare, Play, Project, ProjectKind
from games.engine.state import GameState, Phase
from tests.engine.helpers import (
    E99_BIDDING,
    PLAIN_HANDS,
    bid,
    c,
    calls,
    dbl,
    dealt,
    declare,
    doubles,
    e99_dealt,
    e99_playing,
    play,
    plays,
    project,
    refused,
)

# Seat 1 (dealer 0, first to bid) will call SUN and lead; it holds a sira and a 50.
DECLARE_HANDS = {
    1: "AS KS QS KH QH JH 10H 7D",
    2: "JS 10S AH 9H AD KD QC 7C",
    3: "9S 8S 8H 7H QD JD AC KC",
    0: "7S 10D 9D 8D JC 10C 9C 8C",
}


def sun_by_1() -> GameState:
    state = calls(dealt(DECLARE_HANDS, recipient=1, face_up="7D"), "1 sun")
    assert state.phase is Phase.PLAYING
    return state


def test_codes_are_exactly_the_record_format_ones() -> None:
    """record-format.md: the move refusal codes, exactly these."""
    expected = {
        "not_your_turn",
        "illegal_call",
        "card_not_held",
        "locked_trump_lead",
        "must_follow_suit",
        "invalid_project",
    }
    assert expected == ILLEGAL_CODES
    assert MalformedMove("x").code == "malformed"
    with pytest.raises(ValueError):
        IllegalMove("no_such_code", "x")


def test_not_your_turn_in_every_phase_and_first() -> None:
    """not_your_turn is checked first: even an otherwise illegal move by the wrong seat."""
    bidding = e99_dealt()
    refused(bidding, 2, bid("sun"), "not_your_turn")
    refused(bidding, 2, play("KH"), "not_your_turn")  # a play while bidding, wrong seat too
    refused(bidding, 0, bid("hokum", "S"), "not_your_turn")
    doubling = calls(e99_dealt(), E99_BIDDING)
    refused(doubling, 1, dbl("double"), "not_your_turn")
    refused(doubling, 0, dbl("four"), "not_your_turn")
    playing = e99_playing()
    refused(playing, 3, play("8S"), "not_your_turn")
    refused(playing, 3, play("AS"), "not_your_turn")  # not held either
    refused(playing, 0, declare(project("sira", "AS KS QS")), "not_your_turn")


def test_illegal_call_cases() -> None:
    """illegal_call: a play while bidding, a bid or play in the wrong phase, a call not open to
    the seat, the face-up suit as round-2 trump, a round-2 Hokum choice without a suit."""
    bidding = e99_dealt()
    refused(bidding, 1, play("8H"), "illegal_call")
    refused(bidding, 1, dbl("double"), "illegal_call")
    refused(bidding, 1, bid("ashkal"), "illegal_call")
    doubling = calls(e99_dealt(), E99_BIDDING)
    refused(doubling, 3, bid("pass"), "illegal_call")
    refused(doubling, 3, play("8S"), "illegal_call")
    refused(doubling, 3, dbl("triple"), "illegal_call")
    playing = e99_playing()
    refused(playing, 2, bid("pass"), "illegal_call")
    refused(playing, 2, dbl("pass"), "illegal_call")
    choose = calls(e99_dealt(), "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 hokum, 3 pass, 0 pass")
    refused(choose, 2, bid("hokum", "H"), "illegal_call")  # KH face up
    refused(choose, 2, bid("hokum"), "illegal_call")


def test_card_not_held_comes_before_follow_and_lock() -> None:
    """card_not_held is checked before locked_trump_lead and must_follow_suit."""
    locked = e99_playing("3 pass, 1 double, 2 pass")
    refused(locked, 2, play("JH"), "card_not_held")  # a trump lead not held, while locked
    refused(locked, 2, play("9H"), "locked_trump_lead")
    following = plays(e99_playing(), "9H")
    refused(following, 3, play("AC"), "card_not_held")  # off-suit and not held
    following = plays(following, "8S")  # seat 3 has no heart
    refused(following, 0, play("KD"), "must_follow_suit")  # seat 0 holds JH, AH
    refused(following, 0, play("9D"), "card_not_held")


def test_locked_trump_lead() -> None:
    """locked_trump_lead (R23): E99 at x2, seat 2 leading 9H while holding non-trumps."""
    state = e99_playing("3 pass, 1 double, 2 pass")
    refused(state, 2, play("9H"), "locked_trump_lead")
    refused(state, 2, play("KH"), "locked_trump_lead")


def test_must_follow_suit() -> None:
    """must_follow_suit (R26): holding the led suit, another suit is refused."""
    state = plays(e99_playing(), "9H 8S")
    refused(state, 0, play("10S"), "must_follow_suit")


def test_invalid_project_outside_first_turn_of_trick_one() -> None:
    """invalid_project: declaring while bidding, while doubling, or after one's first turn."""
    bidding = dealt(DECLARE_HANDS, recipient=1, face_up="7D")
    refused(bidding, 1, declare(project("sira", "AS KS QS")), "invalid_project")
    doubling = calls(e99_dealt(), E99_BIDDING)
    refused(doubling, 3, declare(project("sira", "QC JC 10C")), "invalid_project")
    state = plays(sun_by_1(), "AS 10S 9S 7S")  # seat 1 wins trick 1 and leads again
    assert state.tricks[0].winner == 1
    refused(state, 1, declare(project("50", "KH QH JH 10H")), "invalid_project")


@pytest.mark.parametrize(
    ("why", "projects"),
    [
        ("empty", ()),
        ("cards not held", (project("sira", "AD KD QD"),)),
        ("wrong pattern", (project("50", "KH QH JH"),)),
        ("wrong pattern: not a run", (project("sira", "AS QS JS"),)),
        ("a card twice", (project("sira", "AS KS QS"), project("sira", "AS KS QS"))),
        ("a card twice in one", (Project(ProjectKind.SIRA, (c("AS"), c("AS"), c("KS"))),)),
        (
            "more than 2",
            (
                project("sira", "AS KS QS"),
                project("sira", "KH QH JH"),
                project("sira", "QH JH 10H"),
            ),
        ),
    ],
)
def test_invalid_project_bad_declarations(why: str, projects: tuple[Project, ...]) -> None:
    """invalid_project (R30): not valid: empty, cards not held, not that pattern, a card
    twice, more than 2."""
    refused(sun_by_1(), 1, Declare(projects), "invalid_project")


def test_invalid_project_second_declaration() -> None:
    """invalid_project (R30): a seat declares at most once."""
    state = sun_by_1()
    state = apply(state, 1, declare(project("sira", "AS KS QS")))
    refused(state, 1, declare(project("50", "KH QH JH 10H")), "invalid_project")
    refused(state, 1, declare(project("sira", "AS KS QS")), "invalid_project")


MALFORMED_DICTS: list[Any] = [
    None,
    [],
    "play",
    {},
    {"type": "fold"},
    {"type": "play"},
    {"type": "play", "card": "1S"},
    {"type": "play", "card": 5},
    {"type": "bid", "call": "double"},
    {"type": "bid"},
    {"type": "bid", "call": "hokum", "suit": "X"},
    {"type": "bid", "call": "hokum", "suit": 1},
    {"type": "double", "call": "redouble"},
    {"type": "double", "call": ["double"]},
    {"type": "declare"},
    {"type": "declare", "projects": "sira"},
    {"type": "declare", "projects": [["sira"]]},
    {"type": "declare", "projects": [{"kind": "baloot", "cards": ["KH", "QH"]}]},
    {"type": "declare", "projects": [{"kind": "sira", "cards": []}]},
    {"type": "declare", "projects": [{"kind": "sira", "cards": "AS KS QS"}]},
    {"type": "declare", "projects": [{"kind": "sira", "cards": ["AS", "KS", "ZZ"]}]},
]


@pytest.mark.parametrize("data", MALFORMED_DICTS, ids=[repr(d) for d in MALFORMED_DICTS])
def test_malformed_from_move_from_dict(data: Any) -> None:
    """malformed: an action that is not well formed."""
    with pytest.raises(MalformedMove) as info:
        move_from_dict(data)
    assert info.value.code == "malformed"


def test_move_dicts_round_trip() -> None:
    """record-format action objects parse to moves and back (seat and extra keys ignored)."""
    for data in (
        {"type": "bid", "call": "pass"},
        {"type": "bid", "call": "hokum", "suit": "D"},
        {"type": "double", "call": "gahwa"},
        {"type": "play", "card": "10S"},
        {"type": "declare", "projects": [{"kind": "sira", "cards": ["AH", "KH", "QH"]}]},
    ):
        assert move_to_dict(move_from_dict({"seat": 2, **data})) == data
    assert move_from_dict({"type": "play", "card": "10S"}) == Play(c("10S"))


@pytest.mark.parametrize("seat", [-1, 4, "1", 1.0, True, None])
def test_malformed_bad_seat(seat: object) -> None:
    """malformed: apply with something that is not a seat 0-3."""
    refused(e99_dealt(), seat, bid("pass"), "malformed")


def test_malformed_after_round_over_and_not_a_move() -> None:
    """malformed: an action after the round is over (between rounds, after a redeal, after
    the match) or an object that is not a move."""
    waiting = new_match()
    refused(waiting, 1, bid("pass"), "malformed")
    redealt = calls(
        start_round(new_match(), list(range(32))),
        ", ".join(f"{s} pass" for s in (1, 2, 3, 0, 1, 2, 3, 0)),
    )
    assert redealt.phase is Phase.DEAL
    refused(redealt, 1, bid("pass"), "malformed")
    refused(e99_dealt(), 1, "pass", "malformed")
    refused(e99_dealt(), 1, {"type": "bid", "call": "pass"}, "malformed")


def test_refused_moves_in_a_doubled_round_leave_state_equal() -> None:
    """Any refusal leaves the state == to before (checked by every ``refused`` call); here the
    ladder state survives a string of bad calls and then proceeds normally."""
    state = doubles(calls(dealt(PLAIN_HANDS, recipient=1, face_up="KS"),
                          "1 hokum, 2 pass, 3 pass, 0 pass, 1 hokum"), "2 double")  # fmt: skip
    for seat, move, code in (
        (1, dbl("four"), "illegal_call"),
        (2, dbl("triple"), "not_your_turn"),
        (1, play("KS"), "illegal_call"),
        (1, declare(project("sira", "AS KS QS")), "invalid_project"),
    ):
        refused(state, seat, move, code)
    assert doubles(state, "1 triple").multiplier == 3
