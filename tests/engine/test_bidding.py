"""Bidding, both rounds (rules.md R10-R20, examples E29-E36).

Dealer 0 and face-up KH (a heart) unless stated, so the bidding order is 1, 2, 3, 0.
"""

from __future__ import annotations

from games.engine import legal_moves, new_match, start_round, to_act
from games.engine.bidding import Mode
from games.engine.moves import Bid, Call
from games.engine.state import GameState, Phase, RoundStatus
from tests.engine.helpers import bid, c, calls, e99_dealt, refused

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


def fresh(dealer: int = 0) -> GameState:
    """A dealt round with face-up KH for dealer 0 (E99's deck), else a plain deck."""
    if dealer == 0:
        return e99_dealt()
    return start_round(new_match(dealer=dealer), list(range(32)))


def legal_calls(state: GameState) -> set[str]:
    out = set()
    for move in legal_moves(state):
        assert isinstance(move, Bid)
        out.add(move.call.value + (f":{'SHDC'[move.suit]}" if move.suit is not None else ""))
    return out


def test_E29_hokum_confirmed_by_bidder() -> None:
    """E29 (R12, R13): 1 PASS, 2 HOKUM, 3 PASS, 0 PASS, 1 PASS, 2 HOKUM -> Hokum hearts by 2."""
    state = calls(fresh(), "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 hokum")
    contract = state.contract
    assert contract is not None
    assert (contract.mode, contract.trump, contract.declarer, contract.recipient) == (
        Mode.HOKUM,
        HEARTS,
        2,
        2,
    )
    assert state.phase is Phase.DOUBLING


def test_E30_hokum_bidder_switches_to_sun_without_claim_window() -> None:
    """E30 (R13): the bidder's final SUN ends the bidding; no "before you" window opens."""
    state = calls(fresh(), "1 pass, 2 hokum, 3 pass, 0 pass, 1 pass, 2 sun")
    contract = state.contract
    assert contract is not None
    assert (contract.mode, contract.trump, contract.declarer, contract.kind) == (
        Mode.SUN,
        None,
        2,
        Call.SUN,
    )
    assert state.bidding is None
    assert state.phase is Phase.PLAYING  # 0-0 scores: no Sun doubling (R22)


def test_E31_sun_claim_window_is_the_earlier_opponent_who_passes() -> None:
    """E31 (R14): 1 PASS, 2 PASS, 3 SUN; the window is [2] (seat 1 is 3's partner); 2 PASS."""
    state = calls(fresh(), "1 pass, 2 pass, 3 sun")
    assert state.phase is Phase.BIDDING
    assert state.bidding is not None and state.bidding.queue == (2,)
    assert to_act(state) == 2
    state = calls(state, "2 pass")
    assert state.contract is not None
    assert (state.contract.mode, state.contract.declarer) == (Mode.SUN, 3)


def test_E32_before_you_claim_takes_the_sun() -> None:
    """E32 (R14): 1 PASS, 2 PASS, 3 SUN; claim: 2 SUN -> Sun by 2."""
    state = calls(fresh(), "1 pass, 2 pass, 3 sun, 2 sun")
    assert state.contract is not None
    assert (state.contract.mode, state.contract.declarer, state.contract.recipient) == (
        Mode.SUN,
        2,
        2,
    )


def test_E33_partner_may_not_claim() -> None:
    """E33 (R14): after 3 SUN, seat 1 (3's partner) trying SUN is refused: not its turn."""
    state = calls(fresh(), "1 pass, 2 pass, 3 sun")
    refused(state, 1, bid("sun"), "not_your_turn")


def test_E34_first_bidder_sun_is_immediate() -> None:
    """E34 (R14): 1 SUN -> Sun by 1 at once; nobody has priority over seat 1."""
    state = calls(fresh(), "1 sun")
    assert state.contract is not None
    assert (state.contract.mode, state.contract.declarer) == (Mode.SUN, 1)
    assert state.phase is Phase.PLAYING


def test_E35a_hokum_bidder_passes_the_claim() -> None:
    """E35 (a) (R12, R14): 1 HOKUM, 2 SUN; claim window [1]: 1 PASS -> Sun by 2."""
    state = calls(fresh(), "1 hokum, 2 sun")
    assert state.bidding is not None and state.bidding.queue == (1,)
    state = calls(state, "1 pass")
    assert state.contract is not None
    assert (state.contract.mode, state.contract.declarer) == (Mode.SUN, 2)


def test_E35b_hokum_bidder_claims_the_sun() -> None:
    """E35 (b) (R14): 1 HOKUM, 2 SUN; 1 SUN -> Sun by 1."""
    state = calls(fresh(), "1 hokum, 2 sun, 1 sun")
    assert state.contract is not None
    assert (state.contract.mode, state.contract.declarer) == (Mode.SUN, 1)


def test_E36_ashkal_caller_declares_partner_receives() -> None:
    """E36 (R15): 1 PASS, 2 PASS, 3 ASHKAL; claim [2]: 2 PASS -> Ashkal by 3, recipient 1."""
    state = calls(fresh(), "1 pass, 2 pass, 3 ashkal")
    assert state.bidding is not None and state.bidding.queue == (2,)
    state = calls(state, "2 pass")
    contract = state.contract
    assert contract is not None
    assert (contract.mode, contract.kind, contract.declarer, contract.recipient) == (
        Mode.SUN,
        Call.ASHKAL,
        3,
        1,
    )
    assert state.hands[1] & (1 << c("KH"))  # the face-up card went to the partner
    assert state.leader == 3  # R25: the caller leads


def test_R10_ashkal_only_for_dealers_left_and_dealer() -> None:
    """R10: only positions 3 and 4 (d+3 and d) may call Ashkal, for every dealer."""
    for dealer in range(4):
        state = fresh(dealer)
        order = [(dealer + i) % 4 for i in range(1, 5)]
        for position, seat in enumerate(order):
            assert to_act(state) == seat
            if position < 2:
                assert "ashkal" not in legal_calls(state)
                refused(state, seat, bid("ashkal"), "illegal_call")
            else:
                assert "ashkal" in legal_calls(state)
            state = calls(state, f"{seat} pass")


def test_R11_round_one_opening_calls() -> None:
    """R11: PASS, HOKUM, SUN, and ASHKAL for positions 3 and 4 only; bidding starts at d+1."""
    state = fresh()
    assert to_act(state) == 1
    assert legal_calls(state) == {"pass", "hokum", "sun"}
    state = calls(state, "1 pass, 2 pass")
    assert legal_calls(state) == {"pass", "hokum", "sun", "ashkal"}


def test_R12_everyone_else_answers_hokum_including_earlier_passers() -> None:
    """R12: after 2 HOKUM, seats 3, 0, 1 answer in that order (1 passed before); no 2nd Hokum."""
    state = calls(fresh(), "1 pass, 2 hokum")
    assert state.bidding is not None and state.bidding.queue == (3, 0, 1)
    assert legal_calls(state) == {"pass", "sun", "ashkal"}
    refused(state, 3, bid("hokum"), "illegal_call")
    state = calls(state, "3 pass, 0 pass")
    assert to_act(state) == 1
    assert legal_calls(state) == {"pass", "sun"}
    refused(state, 1, bid("ashkal"), "illegal_call")


def test_R13_confirmation_is_exactly_hokum_or_sun() -> None:
    """R13, R15: the Hokum bidder (seat 3, Ashkal-eligible) may confirm HOKUM or switch to SUN,
    but not pass or call Ashkal."""
    state = calls(fresh(), "1 pass, 2 pass, 3 hokum, 0 pass, 1 pass, 2 pass")
    assert to_act(state) == 3
    assert legal_calls(state) == {"hokum", "sun"}
    refused(state, 3, bid("ashkal"), "illegal_call")
    refused(state, 3, bid("pass"), "illegal_call")
    refused(state, 3, bid("hokum", "S"), "illegal_call")


def test_R14_claimants_in_priority_order_and_later_seats_excluded() -> None:
    """R14: dealer 0 calls SUN after three passes; claimants are 1 then 3 (opponents before 0).
    1 passes; 3 may claim with ASHKAL (eligible) and becomes declarer."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 sun")
    assert state.bidding is not None and state.bidding.queue == (1, 3)
    assert legal_calls(state) == {"pass", "sun"}
    refused(state, 1, bid("hokum"), "illegal_call")
    state = calls(state, "1 pass")
    assert legal_calls(state) == {"pass", "sun", "ashkal"}
    state = calls(state, "3 ashkal")
    contract = state.contract
    assert contract is not None
    assert (contract.mode, contract.kind, contract.declarer, contract.recipient) == (
        Mode.SUN,
        Call.ASHKAL,
        3,
        1,
    )


def test_R14_players_after_the_caller_get_no_claim() -> None:
    """R14: 1 PASS, 2 SUN: only seat 1 may claim; seat 3 (after 2) never acts."""
    state = calls(fresh(), "1 pass, 2 sun")
    assert state.bidding is not None and state.bidding.queue == (1,)
    refused(state, 3, bid("sun"), "not_your_turn")
    state = calls(state, "1 pass")
    assert state.contract is not None and state.contract.declarer == 2


def test_R14_all_claimants_pass_caller_declares() -> None:
    """R14: both claimants pass -> the caller declares; partners (seat 2) never claim."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 sun, 1 pass, 3 pass")
    assert state.contract is not None
    assert (state.contract.declarer, state.contract.kind) == (0, Call.SUN)


def test_R15_ashkal_as_response_to_hokum() -> None:
    """R15: Ashkal may answer a Hokum; the earlier opponent (2) may still claim before 3."""
    state = calls(fresh(), "1 hokum, 2 pass, 3 ashkal")
    assert state.bidding is not None and state.bidding.queue == (2,)
    state = calls(state, "2 pass")
    assert state.contract is not None
    assert (state.contract.kind, state.contract.declarer, state.contract.recipient) == (
        Call.ASHKAL,
        3,
        1,
    )


def test_R15_R16_ashkal_in_round_two_ends_immediately() -> None:
    """R15, R16, R18: in round 2 position 3 calls Ashkal; bidding ends at once (seat 2, an
    earlier opponent, gets no claim)."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 pass, 3 ashkal")
    contract = state.contract
    assert contract is not None
    assert (contract.kind, contract.mode, contract.declarer, contract.recipient) == (
        Call.ASHKAL,
        Mode.SUN,
        3,
        1,
    )
    assert contract.bidding_round == 2


def test_R16_round_two_opening_calls() -> None:
    """R16: after four passes round 2 starts at d+1 with PASS, SUN, HOKUM (+ASHKAL at 3, 4)."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass")
    assert state.bidding is not None and state.bidding.stage == "r2_open"
    assert to_act(state) == 1
    assert legal_calls(state) == {"pass", "hokum", "sun"}
    state = calls(state, "1 pass, 2 pass")
    assert legal_calls(state) == {"pass", "hokum", "sun", "ashkal"}


def test_R18_round_two_sun_is_final() -> None:
    """R18: 1 PASS then 2 SUN in round 2 ends bidding: seat 1 (earlier opponent) cannot claim."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 sun")
    assert state.contract is not None
    assert (state.contract.declarer, state.contract.bidding_round) == (2, 2)
    assert state.phase is Phase.PLAYING


def test_R17_round_two_hokum_choice_of_another_suit() -> None:
    """R17: 2 HOKUM in round 2; only 3 and 0 answer (1 passed); 2 then picks a suit other
    than hearts. Hearts and a suit-less Hokum are illegal."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 hokum")
    assert state.bidding is not None and state.bidding.queue == (3, 0)
    assert legal_calls(state) == {"pass", "sun", "ashkal"}
    state = calls(state, "3 pass, 0 pass")
    assert to_act(state) == 2
    assert legal_calls(state) == {"sun", "hokum:S", "hokum:D", "hokum:C"}
    refused(state, 2, bid("hokum", "H"), "illegal_call")
    refused(state, 2, bid("hokum"), "illegal_call")
    refused(state, 2, bid("ashkal"), "illegal_call")
    refused(state, 2, bid("pass"), "illegal_call")
    done = calls(state, "2 hokum:S")
    contract = done.contract
    assert contract is not None
    assert (contract.mode, contract.trump, contract.declarer, contract.recipient) == (
        Mode.HOKUM,
        SPADES,
        2,
        2,
    )
    assert done.hands[2] & (1 << c("KH"))  # R9: the face-up card still goes to the recipient
    sun = calls(state, "2 sun")
    assert sun.contract is not None and sun.contract.mode is Mode.SUN


def test_R17_response_sun_ends_round_two_at_once() -> None:
    """R17: a SUN answering a round-2 Hokum ends bidding; that player declares."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 hokum, 2 pass, 3 sun")
    assert state.contract is not None
    assert (state.contract.declarer, state.contract.mode) == (3, Mode.SUN)


def test_R17_dealer_hokum_in_round_two_chooses_at_once() -> None:
    """R17: when the dealer calls the round-2 Hokum nobody answers; the dealer chooses."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 pass, 3 pass, 0 hokum")
    assert to_act(state) == 0
    assert legal_calls(state) == {"sun", "hokum:S", "hokum:D", "hokum:C"}
    state = calls(state, "0 hokum:C")
    assert state.contract is not None
    assert (state.contract.trump, state.contract.declarer) == (CLUBS, 0)


def test_R19_all_pass_twice_is_a_void_hand_and_the_deal_moves() -> None:
    """R19, R2: eight passes void the hand: 0-0, scores unchanged, next dealer is next(d)."""
    start = new_match(dealer=0, scores=(40, 70))
    state = start_round(start, list(range(32)))
    state = calls(state, ", ".join(f"{s} pass" for s in (1, 2, 3, 0, 1, 2, 3, 0)))
    assert state.phase is Phase.DEAL
    assert state.scores == (40, 70)
    assert state.dealer == 1
    assert state.winner is None
    assert state.history[-1].status is RoundStatus.REDEAL
    assert state.history[-1].result.points == (0, 0)
    # The next hand is dealt by seat 1, so bidding starts with seat 2.
    state = start_round(state, list(range(32)))
    assert to_act(state) == 2


def test_R20_contract_record_fields() -> None:
    """R20: mode, trump, declarer, recipient, kind, bidding round, face-up card; the bidding
    team is the declarer's team."""
    state = calls(fresh(), "1 pass, 2 pass, 3 pass, 0 pass, 1 hokum, 2 pass, 3 pass, 0 pass")
    state = calls(state, "1 hokum:D")
    contract = state.contract
    assert contract is not None
    assert contract.kind is Call.HOKUM
    assert contract.mode is Mode.HOKUM
    assert contract.trump == DIAMONDS
    assert (contract.declarer, contract.recipient, contract.bidding_round) == (1, 1, 2)
    assert contract.face_up == c("KH")
    assert contract.bidder_team == 1


def test_R20_out_of_turn_and_unlisted_calls_change_nothing() -> None:
    """R20: out-of-turn calls and calls not open now are refused without changing state."""
    state = fresh()
    refused(state, 2, bid("pass"), "not_your_turn")
    refused(state, 0, bid("sun"), "not_your_turn")
    refused(state, 1, bid("hokum", "S"), "illegal_call")  # no suit in round 1
    refused(state, 1, bid("sun", "S"), "illegal_call")
