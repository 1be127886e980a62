"""What a seat may see (rules.md R30 publicity of projects; api.md hidden information)."""

from __future__ import annotations

import json
from typing import Any

from games.engine import apply, legal_moves, observation, observation_to_dict, to_act
from games.engine.cards import card_str, cards_of, parse_card
from games.engine.moves import Move
from games.engine.projects import best_declaration
from games.engine.state import GameState, Phase
from tests.engine.helpers import (
    E99_BIDDING,
    E99_TRICKS,
    calls,
    dealt,
    declare,
    doubles,
    e99_dealt,
    names,
    play,
    plays,
    project,
)
from tests.engine.test_errors import DECLARE_HANDS


def card_strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON-like value that names a card."""
    out: set[str] = set()
    if isinstance(value, str):
        try:
            parse_card(value)
        except ValueError:
            return out
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            out |= card_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            out |= card_strings(item)
    return out


def hidden_from(state: GameState, seat: int) -> set[str]:
    """Other seats' unplayed cards, less what is public: the face-up card and, once trick 1 is
    complete, declared project cards."""
    hidden: set[str] = set()
    for other in range(4):
        if other != seat:
            hidden |= names(cards_of(state.hands[other]))
    if state.face_up is not None:
        hidden.discard(card_str(state.face_up))
    if state.tricks:
        for _, projects in state.declarations:
            for p in projects:
                hidden -= names(p.cards)
    return hidden


def check_no_leak(state: GameState) -> None:
    for seat in range(4):
        obs = observation(state, seat)
        assert obs.hand == tuple(cards_of(state.hands[seat]))
        as_dict = observation_to_dict(obs)
        json.dumps(as_dict)  # serialisable
        assert not card_strings(as_dict) & hidden_from(state, seat), seat
    spectator = observation_to_dict(observation(state, None))
    assert spectator["hand"] == []
    assert not card_strings(spectator) & (hidden_from(state, 0) | hidden_from(state, 2))


def declared_round_states() -> list[GameState]:
    """DECLARE_HANDS: Sun by seat 1; seats 1 and 0 declare; every state along the way."""
    state = calls(dealt(DECLARE_HANDS, recipient=1, face_up="7D"), "1 sun")
    states = [state]
    script: list[tuple[int, Move]] = [
        (1, declare(project("sira", "AS KS QS"), project("50", "KH QH JH 10H"))),
        (1, play("7D")),
        (2, play("AD")),
        (3, play("QD")),
        (0, declare(project("50", "JC 10C 9C 8C"))),
        (0, play("10D")),
    ]
    for seat, move in script:
        state = apply(state, seat, move)
        states.append(state)
    while state.phase is Phase.PLAYING:
        acting = to_act(state)
        assert acting is not None
        state = apply(state, acting, legal_moves(state)[0])
        states.append(state)
    return states


def test_no_seat_ever_sees_another_seats_unplayed_cards() -> None:
    """Along E99 (bidding, doubling, every card) and a round with declarations, no seat's
    observation names a card still hidden in another hand."""
    state = e99_dealt()
    check_no_leak(state)
    for item in E99_BIDDING.split(","):
        state = calls(state, item)
        check_no_leak(state)
    state = doubles(state, "3 pass, 1 double, 2 triple, 1 pass")
    check_no_leak(state)
    for trick in E99_TRICKS:
        for card in trick.split():
            state = plays(state, card)
            check_no_leak(state)
    for state in declared_round_states():
        check_no_leak(state)


def test_R30_declaration_cards_hidden_until_trick_one_completes() -> None:
    """R30: others see the kinds declared at once, the cards only after trick 1."""
    states = declared_round_states()
    during = states[1]  # seat 1 has declared, nothing played
    mine = observation(during, 1).declarations
    theirs = observation(during, 2).declarations
    assert mine[0].projects is not None and len(mine[0].projects) == 2
    assert theirs[0].seat == 1 and theirs[0].kinds == ("sira", "50")
    assert theirs[0].projects is None
    assert observation(during, None).declarations[0].projects is None
    three_cards = states[5]  # seat 0 declared during trick 1, 3 cards played
    assert not three_cards.tricks
    assert observation(three_cards, 1).declarations[1].projects is None
    after = states[6]
    assert len(after.tricks) == 1
    for seat in (0, 1, 2, 3, None):
        public = observation(after, seat).declarations
        assert [d.seat for d in public] == [1, 0]
        assert all(d.projects is not None for d in public)


def test_legal_moves_only_for_the_seat_to_act() -> None:
    """An observation lists legal moves only for the seat whose turn it is."""
    for state in (e99_dealt(), calls(e99_dealt(), E99_BIDDING), *declared_round_states()[:4]):
        acting = to_act(state)
        for seat in range(4):
            moves = observation(state, seat).legal_moves
            if seat == acting:
                assert moves == tuple(legal_moves(state)) and moves
            else:
                assert moves == ()
        assert observation(state, None).legal_moves == ()


def test_R30_projects_offered_only_on_the_seats_first_turn_of_trick_one() -> None:
    """R30: projects_available / projects_suggested appear only for the seat to act on its
    first turn of trick 1, before it declares or plays."""
    states = declared_round_states()
    first = states[0]
    obs = observation(first, 1)
    assert first.contract is not None
    assert obs.projects_suggested == best_declaration(first.hands[1], first.contract.mode)
    assert set(obs.projects_suggested) == {
        project("sira", "AS KS QS"),
        project("50", "KH QH JH 10H"),
    }
    assert project("sira", "KH QH JH") in obs.projects_available
    for seat in (0, 2, 3):
        assert observation(first, seat).projects_available == ()
        assert observation(first, seat).projects_suggested == ()
    assert observation(states[1], 1).projects_available == ()  # declared already
    assert observation(states[4], 0).projects_suggested  # seat 0's own first turn
    assert observation(states[3], 0).projects_suggested == ()  # not its turn yet
    later = states[6]  # trick 2: seat 2 (AD) leads
    assert later.tricks and to_act(later) == 2
    assert observation(later, 2).projects_available == ()
    assert observation(later, 2).projects_suggested == ()
    bidding = e99_dealt()
    assert all(observation(bidding, s).projects_available == () for s in range(4))


def test_observation_public_fields() -> None:
    """Card counts, contract, trick and score fields mirror the public state."""
    state = plays(doubles(calls(e99_dealt(), E99_BIDDING), "3 pass, 1 double, 2 pass"), "KS")
    obs = observation(state, 0)
    assert obs.card_counts == (8, 8, 7, 8)
    assert obs.multiplier == 2 and obs.locked and obs.doubler == 1
    assert obs.trick == (parse_card("KS"),)
    assert obs.leader == 2 and obs.to_act == 3
    as_dict = observation_to_dict(obs)
    assert as_dict["contract"]["locked"] is True
    assert as_dict["current_trick"] == {"leader": 2, "cards": ["KS"]}
