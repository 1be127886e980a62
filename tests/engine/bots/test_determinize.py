"""Determinizations agree with everything the observing seat knows, and only with that."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine import GAMERULES, observation
from games.engine.bidding import Mode
from games.engine.bots.determinize import determinize, public_state
from games.engine.bots.knowledge import infer
from games.engine.cards import SUIT_MASK
from games.engine.observation import Observation
from games.engine.state import GameState, Phase

from .states import random_states, seat_of


def _playing_observations(seed: int, rounds: int) -> Iterator[tuple[GameState, Observation]]:
    for state in random_states(seed, rounds):
        if state.phase is Phase.PLAYING:
            # Every seat's view, not only the one to act: voids are learnt by all.
            for seat in range(4):
                yield state, observation(state, seat)


def _voids_from_table(obs: Observation) -> dict[int, int]:
    """Suits each seat is known to lack, recomputed here from the tricks (R26, R23)."""
    void = dict.fromkeys(range(4), 0)
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        assert obs.leader is not None
        tricks.append((obs.leader, obs.trick))
    assert obs.contract is not None
    trump = obs.contract.trump
    for leader, cards in tricks:
        for i, card in enumerate(cards[1:], start=1):
            if card >> 3 != cards[0] >> 3:
                void[(leader + i) % 4] |= SUIT_MASK[cards[0] >> 3]
        if obs.locked and trump is not None and cards[0] >> 3 == trump:
            void[leader] |= 0xFFFFFFFF & ~SUIT_MASK[trump]
    return void


def _played(obs: Observation) -> int:
    mask = 0
    for t in obs.tricks:
        for c in t.cards:
            mask |= 1 << c
    for c in obs.trick:
        mask |= 1 << c
    return mask


def test_determinizations_are_consistent() -> None:
    rng = random.Random(11)
    checked = 0
    voids_seen = 0
    for real, obs in _playing_observations(11, 40):
        det = determinize(obs, rng)
        seat = obs.seat
        assert seat is not None
        # The observing seat sees exactly what it saw in the real state.
        assert observation(det, seat) == obs
        hands = det.hands
        assert hands[seat] == real.hands[seat]
        assert tuple(h.bit_count() for h in hands) == obs.card_counts
        union = 0
        for h in hands:
            assert not union & h, "a card dealt twice"
            union |= h
        played = _played(obs)
        assert not union & played
        assert union | played == 0xFFFFFFFF
        for s, void in _voids_from_table(obs).items():
            assert not hands[s] & void, f"seat {s} got a suit it showed out of"
            voids_seen += bool(void) and s != seat
        contract = obs.contract
        assert contract is not None
        if not played >> contract.face_up & 1:
            assert hands[contract.recipient] >> contract.face_up & 1
        for d in obs.declarations:
            if d.projects is not None:
                for p in d.projects:
                    for c in p.cards:
                        assert played >> c & 1 or hands[d.seat] >> c & 1
        if contract.mode is Mode.HOKUM:
            assert det.baloot_seat is None or det.baloot_seat in range(4)
        checked += 1
    assert checked > 1000 and voids_seen > 100


def test_locked_trump_lead_reveals_an_all_trump_hand() -> None:
    found = 0
    for _, obs in _playing_observations(23, 300):
        if not obs.locked or obs.seat == obs.leader or not obs.trick:
            continue
        assert obs.contract is not None and obs.leader is not None
        trump = obs.contract.trump
        if trump is None or obs.trick[0] >> 3 != trump:
            continue
        # R23: the leader held only trumps, so it holds only trumps now.
        assert (
            infer(obs, GAMERULES).excluded[obs.leader] & ~SUIT_MASK[trump]
            == 0xFFFFFFFF & ~SUIT_MASK[trump]
        )
        det = determinize(obs, random.Random(found))
        assert not det.hands[obs.leader] & ~SUIT_MASK[trump]
        found += 1
    assert found > 0


def test_samples_vary_and_follow_the_rng() -> None:
    for _, obs in _playing_observations(31, 3):
        if len(obs.tricks) == 0 and not obs.trick:
            a = determinize(obs, random.Random(1))
            b = determinize(obs, random.Random(1))
            assert a == b
            deals = {determinize(obs, random.Random(i)).hands for i in range(20)}
            assert len(deals) > 10
            return
    pytest.fail("no opening position found")


def test_public_state_hides_other_hands() -> None:
    for state in random_states(41, 5):
        if state.phase is Phase.PLAYING:
            seat = seat_of(state)
            base: GameState = public_state(observation(state, seat))
            assert base.hands[seat] == state.hands[seat]
            assert all(base.hands[s] == 0 for s in range(4) if s != seat)
            return
    pytest.fail("no playing state")


def test_determinize_refuses_bidding_observations() -> None:
    state = next(random_states(43, 1))
    with pytest.raises(ValueError):
        determinize(observation(state, seat_of(state)), random.Random(0))


def test_bidding_simulation_deals_complete_hands() -> None:
    from games.engine.bots.bidsim import _deal

    rng = random.Random(2)
    for state in random_states(51, 10):
        if state.phase is not Phase.BIDDING:
            continue
        seat = seat_of(state)
        assert state.face_up is not None
        recipient = (seat + rng.randrange(4)) % 4
        hands = _deal(state.hands[seat], state.face_up, seat, recipient, rng)
        assert hands[seat] & state.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
        assert hands[0] | hands[1] | hands[2] | hands[3] == 0xFFFFFFFF
        assert hands[recipient] >> state.face_up & 1
