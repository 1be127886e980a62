"""Sawa (rules-saudi.md S20-S26): when it is open, how it is judged (against an independent
brute force), how valid and false claims score, and how records carry it; SE53, SE59, SE61,
SE65 by name."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine import SAUDI, apply, legal_moves
from games.engine.cards import card_names, cards_of
from games.engine.codec.moves import move_from_dict, move_to_dict
from games.engine.codec.record_format import observation_to_dict, round_to_dict
from games.engine.errors import MalformedMove
from games.engine.moves import Play, Sawa
from games.engine.observation import observation
from games.engine.record import export_match, replay
from games.engine.rules import start_round, to_act
from games.engine.sawa import sawa_holds
from games.engine.scoring import SawaClaim, score_round
from games.engine.state import GameState, Phase
from tests.engine.helpers import PLAIN_HANDS, SWEEP_HANDS, calls, dealt, mask, plays, refused
from tests.engine.saudi import reference
from tests.engine.saudi.common import dbl

LIVE = (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING)


def hokum_hearts_by_2() -> GameState:
    """PLAIN_HANDS (no projects, no Baloot), Hokum hearts by seat 2 (team A), x1."""
    state = dealt(PLAIN_HANDS, recipient=2, face_up="JH", ruleset=SAUDI)
    state = calls(state, "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum")
    state = apply(apply(state, 3, dbl("pass")), 1, dbl("pass"))
    assert state.phase is Phase.PLAYING
    return state


def random_card(state: GameState, rng: random.Random) -> GameState:
    """One random legal card (never Sawa) by the seat to act."""
    seat = to_act(state)
    assert seat is not None
    cards = [m for m in legal_moves(state) if isinstance(m, Play)]
    return apply(state, seat, rng.choice(cards))


def to_trick_5(state: GameState, rng: random.Random) -> GameState:
    """Play random legal cards until trick 5 is to be led."""
    while len(state.tricks) < 4:
        state = random_card(state, rng)
    return state


def find(predicate: object, *, team: int | None = None) -> GameState:
    """The first seeded trick-5 position of `hokum_hearts_by_2` whose leader's claim is
    ``predicate`` (True valid / False false), led by ``team`` if given."""
    for seed in range(500):
        state = to_trick_5(hokum_hearts_by_2(), random.Random(seed))
        leader = to_act(state)
        assert leader is not None
        if team is not None and leader % 2 != team:
            continue
        valid = sawa_holds(state.hands, leader, state.contract.trump, state.locked, True)  # type: ignore[union-attr]
        if valid is predicate and 0 < state.trick_counts[leader % 2] < 4:
            return state
    raise AssertionError("no such position in 500 seeds")


# --- S20: when -----------------------------------------------------------------------------


def test_SE53_S20_sawa_listed_last_for_the_leader_of_trick_5() -> None:
    """SE53 (S20): the leader of trick 5 (4 cards) has next.legal ending with {"type":"sawa"}."""
    state = to_trick_5(hokum_hearts_by_2(), random.Random(1))
    moves = legal_moves(state)
    assert moves[-1] == Sawa() and move_to_dict(moves[-1]) == {"type": "sawa"}
    assert all(isinstance(m, Play) for m in moves[:-1])


def test_S20_sawa_not_open_with_5_cards_mid_trick_or_while_bidding() -> None:
    """S20: 5+ cards, mid-trick, bidding: illegal_call for the seat to act; another seat
    is not_your_turn; the state is unchanged."""
    state = hokum_hearts_by_2()
    rng = random.Random(2)
    while len(state.tricks) < 3:
        state = apply(state, to_act(state), rng.choice(legal_moves(state)))  # type: ignore[arg-type]
    assert state.hands[to_act(state)].bit_count() == 5  # type: ignore[index]
    assert Sawa() not in legal_moves(state)
    refused(state, to_act(state), Sawa(), "illegal_call")
    four = to_trick_5(state, rng)
    leader = to_act(four)
    assert leader is not None
    refused(four, (leader + 1) % 4, Sawa(), "not_your_turn")
    mid = apply(four, leader, next(m for m in legal_moves(four) if isinstance(m, Play)))
    assert Sawa() not in legal_moves(mid)
    refused(mid, to_act(mid), Sawa(), "illegal_call")
    bidding = dealt(PLAIN_HANDS, recipient=2, face_up="JH", ruleset=SAUDI)
    refused(bidding, 1, Sawa(), "illegal_call")
    refused(bidding, 2, Sawa(), "not_your_turn")


def test_S20_sawa_is_malformed_in_gamerules() -> None:
    """S20: a sawa action in a gamerules record is malformed (an unknown type)."""
    with pytest.raises(MalformedMove):
        move_from_dict({"type": "sawa"})
    assert move_from_dict({"seat": 1, "type": "sawa"}, SAUDI) == Sawa()
    state = dealt(PLAIN_HANDS, recipient=2, face_up="JH")
    refused(state, 1, Sawa(), "malformed")


# --- S21-S24: judgement and scoring -------------------------------------------------------


def test_SE59_S22_S23_valid_sawa_takes_the_rest_and_is_scored_normally() -> None:
    """SE59 (S22, S23): a valid Sawa at trick 5: result.sawa valid, the unplayed cards' abnat
    plus the last-trick 10 to the claimant's team, the remaining tricks counted, then R/S
    scoring as if played out; `tricks` lists only the 4 played."""
    state = find(True)
    seat = to_act(state)
    assert seat is not None
    team = seat % 2
    after = apply(state, seat, Sawa())
    log = after.history[-1]
    assert log.result.sawa == SawaClaim(seat, True)
    rest = 152 - sum(state.abnat)  # R5: the Hokum deck is 152; tricks 1-4 had no bonus
    expected = list(state.abnat)
    expected[team] += rest + 10
    assert list(log.result.abnat) == expected and sum(log.result.abnat) == 162
    assert len(log.tricks) == 4 and log.result.kaboot is None
    counts = list(state.trick_counts)
    counts[team] += 4
    assert log.result == score_round(
        contract=state.contract,  # type: ignore[arg-type]
        ruleset=SAUDI,
        abnat=(expected[0], expected[1]),
        trick_counts=(counts[0], counts[1]),
        declarations=(),
        order=state.order,
        baloot_seat=None,
        multiplier=1,
        gahwa=False,
        sawa=SawaClaim(seat, True),
    )


def test_SE61_S24_false_sawa_by_the_bidder_is_its_khasara() -> None:
    """SE61 (S24): a false Sawa by bidder A (Hokum x1): 0/16, bidder_failed, kaboot null,
    abnat and card points of the played tricks only."""
    state = find(False, team=0)
    seat = to_act(state)
    after = apply(state, seat, Sawa())  # type: ignore[arg-type]
    result = after.history[-1].result
    assert result.sawa == SawaClaim(seat, False)  # type: ignore[arg-type]
    assert result.points == (0, 16) and result.bidder_failed and result.kaboot is None
    assert result.abnat == state.abnat and sum(result.abnat) < 162


def test_S24_false_sawa_by_the_opponents_fails_them_whoever_bid() -> None:
    """S24: a false claim by the opponents (team B) gives the bidder 16; not bidder_failed."""
    state = find(False, team=1)
    result = apply(state, to_act(state), Sawa()).history[-1].result  # type: ignore[arg-type]
    assert result.points == (16, 0) and not result.bidder_failed


def test_S23_S17_valid_sawa_completing_a_sweep_is_a_kaboot() -> None:
    """S23, S17: seat 1 with all eight spades leads four, then claims: kaboot 25 + its
    Baloot 2 (S16), abnat 0/162."""
    state = dealt(SWEEP_HANDS, recipient=1, face_up="7S", ruleset=SAUDI)
    state = calls(state, "1 hokum, 2 pass, 3 pass, 0 pass, 1 hokum")
    state = apply(apply(state, 2, dbl("pass")), 0, dbl("pass"))
    state = plays(state, "AS AH 10D AC KS KH 9D KC QS QH 8D QC 9S JH 7D JC")
    assert to_act(state) == 1
    result = apply(state, 1, Sawa()).history[-1].result
    assert result.sawa == SawaClaim(1, True) and result.kaboot == 1
    assert result.abnat == (0, 162) and result.points == (0, 27)


def test_SE65_S21_sawa_ends_the_round_reveals_the_hands_then_malformed() -> None:
    """S21, SE65: the claim is never refused; the round ends with the hands still held shown
    to everyone (observation and round log); any action after it is malformed."""
    state = find(False, team=0)
    seat = to_act(state)
    assert seat is not None
    after = apply(state, seat, Sawa())
    assert after.phase in (Phase.DEAL, Phase.FINISHED)
    assert after.history[-1].revealed_hands == state.hands
    for viewer in (0, 1, None):
        shown = observation_to_dict(observation(after, viewer))["revealed_hands"]
        assert shown == [card_names(cards_of(h)) for h in state.hands]
    refused(after, seat, Play(cards_of(state.hands[seat])[0]), "malformed")
    refused(after, seat, Sawa(), "malformed")
    # The next deal hides them again.
    fresh = start_round(after, list(range(32)))
    assert "revealed_hands" not in observation_to_dict(observation(fresh, 0))


def test_S25_result_sawa_key_and_next_null() -> None:
    """S25: a saudi round's result has `sawa` (null when not called); after a Sawa `next` is
    null and the status complete. S26: the round counts for the totals and the dealer moves."""
    state = find(True)
    seat = to_act(state)
    after = apply(state, seat, Sawa())  # type: ignore[arg-type]
    out = round_to_dict(after)
    assert out["status"] == "complete"
    assert out["result"]["sawa"] == {"seat": seat, "valid": True}
    record = export_match(after)
    replayed, status = replay(record)
    assert status == 0 and replayed["next"] is None
    assert replayed["rounds"] == [out]
    assert replayed["scores"] == list(after.history[-1].result.points)
    assert after.dealer == 1  # S26 / R2: the deal moved on
    # A round played out: "sawa": null.
    rng = random.Random(3)
    played = hokum_hearts_by_2()
    while played.phase is Phase.PLAYING:
        played = random_card(played, rng)
    assert round_to_dict(played)["result"]["sawa"] is None


def test_S26_a_sawa_round_can_end_the_match() -> None:
    """S26: the Sawa round's points are added, then the 152 check runs."""
    state = find(True)
    state = replace(state, scores=(150, 150))
    seat = to_act(state)
    after = apply(state, seat, Sawa())  # type: ignore[arg-type]
    assert after.phase is Phase.FINISHED and after.winner is not None


def test_S24_false_sawa_in_a_gahwa_round_gives_the_match_to_the_other_team() -> None:
    """S24: in a Gahwa round a false claim hands the match to the other team."""
    state = dealt(PLAIN_HANDS, recipient=2, face_up="JH", ruleset=SAUDI)
    state = calls(state, "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum")
    for seat, move in ((3, dbl("double")), (2, dbl("triple")), (3, dbl("four")), (2, dbl("gahwa"))):
        state = apply(state, seat, move)
    rng = random.Random(4)
    for _ in range(50):
        candidate = to_trick_5(state, rng)
        leader = to_act(candidate)
        assert leader is not None
        if not sawa_holds(candidate.hands, leader, 1, False, True):
            after = apply(candidate, leader, Sawa())
            assert after.winner == 1 - leader % 2
            assert after.history[-1].result.gahwa_winner == 1 - leader % 2
            assert after.history[-1].result.points == (0, 0)
            return
    raise AssertionError("no false claim found")


# --- S22 against brute force ---------------------------------------------------------------


def _endgame(rng: random.Random, per_hand: int) -> tuple[list[int], int, int | None, bool]:
    cards = rng.sample(range(32), 4 * per_hand)
    trump = rng.randrange(4) if rng.random() < 0.6 else None
    if rng.random() < 0.5:  # bias half towards valid claims: the claimant team gets the top
        key = (
            (lambda x: (x >> 3 == trump, -reference.TRUMP_ORDER.index(x & 7)))
            if trump is not None
            else (lambda x: (False, -reference.PLAIN_ORDER.index(x & 7)))
        )
        cards.sort(key=key, reverse=True)
    claimant = rng.randrange(4)
    seats = [claimant, (claimant + 2) % 4, (claimant + 1) % 4, (claimant + 3) % 4]
    hands = [0, 0, 0, 0]
    for i, seat in enumerate(seats):
        for card in cards[i * per_hand : (i + 1) * per_hand]:
            hands[seat] |= 1 << card
    locked = trump is not None and rng.random() < 0.4
    return hands, claimant, trump, locked


@pytest.mark.parametrize(
    ("per_hand", "count"), [(1, 400), (2, 800), pytest.param(3, 400, marks=pytest.mark.slow)]
)
def test_S22_search_agrees_with_brute_force(per_hand: int, count: int) -> None:
    """S22: the engine's judgement equals a plain every-sequence search on small endgames."""
    rng = random.Random(per_hand * 101)
    valid = 0
    for _ in range(count):
        hands, claimant, trump, locked = _endgame(rng, per_hand)
        plain = [[(x >> 3, x & 7) for x in cards_of(h)] for h in hands]
        expected = reference.claim_holds(plain, claimant, trump, locked)
        got = sawa_holds((hands[0], hands[1], hands[2], hands[3]), claimant, trump, locked, True)
        assert got is expected, ([card_names(cards_of(h)) for h in hands], claimant, trump, locked)
        valid += expected
    assert 0.1 * count < valid < 0.9 * count  # both answers exercised


def test_S22_reference_legality_matches_the_engine() -> None:
    """The reference's S5-S7 restatement agrees with the engine's legal cards (so the brute
    force judges the same game)."""
    from games.engine.play import legal_play_mask

    rng = random.Random(9)
    for _ in range(3000):
        cards = rng.sample(range(32), 11)
        hand, trick = cards[:8], tuple(cards[8 : 8 + rng.randrange(0, 4)])
        trump = rng.randrange(4) if rng.random() < 0.7 else None
        locked = rng.random() < 0.3
        mask = sum(1 << x for x in hand)
        got = cards_of(legal_play_mask(mask, trick, trump, locked, True))
        plain = reference.legal(
            [(x >> 3, x & 7) for x in hand], [(x >> 3, x & 7) for x in trick], trump, locked
        )
        assert got == sorted(s * 8 + r for s, r in plain)


def test_S22_claim_needs_the_team_not_the_claimant_alone() -> None:
    """S22: a team claim: the partner's master may take a trick and lead on."""
    # Sun. Claimant 1 holds AS 7H, partner 3 AH 7S: whichever it leads, the other master
    # takes the other suit's trick.
    hands = (mask("8S 9H"), mask("AS 7H"), mask("9S 8H"), mask("AH 7S"))
    assert sawa_holds(hands, 1, None, False, True)
    assert reference.claim_holds(
        [[(x >> 3, x & 7) for x in cards_of(h)] for h in hands], 1, None, False
    )
