"""Play: first lead, legal cards, the lock, trick winners and abnat (rules.md R1, R2, R23,
R25-R28; examples E04-E09, E14, E15, E18-E20)."""

from __future__ import annotations

import pytest

from games.engine import legal_moves, to_act
from games.engine.cards import card_str, cards_of, parse_suit
from games.engine.moves import Play
from games.engine.play import legal_play_mask, trick_abnat, trick_winner
from games.engine.state import GameState, Phase
from tests.engine.helpers import (
    E99_TRICKS,
    PLAIN_HANDS,
    calls,
    cs,
    dealt,
    doubles,
    e99_playing,
    mask,
    names,
    play,
    plays,
    refused,
)


def sun_by_1() -> GameState:
    """PLAIN_HANDS, dealer 0, seat 1 calls SUN at once (face-up AC goes to seat 1)."""
    state = calls(dealt(PLAIN_HANDS, recipient=1, face_up="AC"), "1 sun")
    assert state.phase is Phase.PLAYING
    return state


# PLAIN_HANDS with seat 2's diamonds swapped for seat 3's last clubs: seat 2 is void in
# diamonds. Still no runs, no four of a kind, no spade K+Q pair.
VOID_HANDS = {
    0: "AS 10S KH 9H QD 8D JC 7C",
    1: "KS 9S QH 8H JD 7D AC 10C",
    2: "QS 8S JH 7H KC 9C QC 8C",
    3: "JS 7S AH 10H KD 9D AD 10D",
}


def hokum_spades_by_1(ladder: str = "2 pass, 0 pass") -> GameState:
    """VOID_HANDS, face-up KS: seat 1 bids and keeps Hokum spades; then ``ladder``."""
    state = calls(
        dealt(VOID_HANDS, recipient=1, face_up="KS"), "1 hokum, 2 pass, 3 pass, 0 pass, 1 hokum"
    )
    state = doubles(state, ladder)
    assert state.phase is Phase.PLAYING
    return state


def legal_names(state: GameState) -> set[str]:
    return {card_str(m.card) for m in legal_moves(state) if isinstance(m, Play)}


# E04-E09: (contract trump or None, cards lead first, winning card, abnat).
TRICKS = [
    ("E04", None, "KH AH 10S 7H", "AH", 25),
    ("E05", "S", "AH 7S 10H KH", "7S", 25),
    ("E06", "S", "10S AS 9S 7S", "9S", 35),
    ("E07", "C", "QD JD 8C 9C", "9C", 19),
    ("E08", None, "9C JC 8C 7C", "JC", 2),
    ("E09", None, "10H KH QH JH", "10H", 19),
]


def check_trick(example: str) -> None:
    """R4, R5, R27, R28: the winning card and the trick's abnat, as the table gives them."""
    trump, cards, winner, abnat = next(t[1:] for t in TRICKS if t[0] == example)
    trick = tuple(cs(cards))
    suit = parse_suit(trump) if trump else None
    assert trick[trick_winner(trick, suit)] == cs(winner)[0], example
    assert trick_abnat(trick, suit) == abnat, example


def test_E04_sun_ace_wins_25() -> None:
    """E04: Sun KH AH 10S 7H -> AH, 25."""
    check_trick("E04")


def test_E05_any_trump_beats_plain() -> None:
    """E05: Hokum spades AH 7S 10H KH -> 7S, 25."""
    check_trick("E05")


def test_E06_trump_order_j_9_a_10() -> None:
    """E06: Hokum spades 10S AS 9S 7S -> 9S, 35."""
    check_trick("E06")


def test_E07_trump_nine_beats_eight() -> None:
    """E07: Hokum clubs QD JD 8C 9C -> 9C, 19."""
    check_trick("E07")


def test_E08_plain_jack_beats_nine() -> None:
    """E08: Sun 9C JC 8C 7C -> JC, 2."""
    check_trick("E08")


def test_E09_plain_ten_beats_king() -> None:
    """E09: Sun 10H KH QH JH -> 10H, 19."""
    check_trick("E09")


def test_R27_sun_trick_through_play() -> None:
    """R27, R28, R1 through apply: a Sun heart trick QH JH AH KH led by seat 1 is won by seat
    3's AH; team B (seats 1, 3) collects its abnat and seat 3 leads next."""
    state = sun_by_1()
    state = plays(state, "QH JH AH KH")
    assert len(state.tricks) == 1
    trick = state.tricks[0]
    assert (trick.leader, trick.winner, trick.abnat) == (1, 3, 3 + 2 + 11 + 4)
    assert state.abnat == (0, 20)  # R1: seat 3's team (B = 1, 3) collects
    assert state.trick_counts == (0, 1)
    assert to_act(state) == 3  # R28: the winner leads next


@pytest.mark.parametrize(
    ("example", "hand", "led", "legal"),
    [("E14", "AD 7D KC AS", "10D", "AD 7D"), ("E15", "KC AS", "10D", "KC AS")],
)
def test_E14_E15_following(example: str, hand: str, led: str, legal: str) -> None:
    """E14, E15 (R26): follow the led suit if able; a void player may play anything."""
    got = legal_play_mask(mask(hand), tuple(cs(led)), None, False)
    assert names(cards_of(got)) == set(legal.split()), example


@pytest.mark.parametrize(
    ("example", "hand", "locked", "legal"),
    [
        ("E18", "JS 9S AH 7D", True, "AH 7D"),
        ("E19", "JS 9S", True, "JS 9S"),
        ("E20", "JS AH", False, "JS AH"),
    ],
)
def test_E18_E19_E20_locked_leads(example: str, hand: str, locked: bool, legal: str) -> None:
    """E18-E20 (R23): Hokum spades; locked (x2/x4) forbids a trump lead while a non-trump is
    held; an all-trump hand leads any trump; x3 is open."""
    got = legal_play_mask(mask(hand), (), parse_suit("S"), locked)
    assert names(cards_of(got)) == set(legal.split()), example


def test_R23_lock_through_apply_at_x2_leads_only() -> None:
    """R23: at x2 seat 1 (holding non-trumps) may not lead a spade; following is unaffected:
    a player void in the led suit may still trump."""
    state = hokum_spades_by_1("2 pass, 0 double, 1 pass")
    assert state.locked and state.multiplier == 2
    assert to_act(state) == 1
    refused(state, 1, play("KS"), "locked_trump_lead")
    refused(state, 1, play("9S"), "locked_trump_lead")
    assert legal_names(state) == {"QH", "8H", "JD", "7D", "AC", "10C"}
    state = plays(state, "JD")
    assert legal_names(state) == names(cards_of(state.hands[2]))  # void in diamonds
    state = plays(state, "8S AD QD")  # seat 2 trumps; 3 and 0 follow
    assert state.tricks[0].winner == 2
    refused(state, 2, play("QS"), "locked_trump_lead")
    assert legal_names(state) == {"JH", "7H", "KC", "9C", "QC", "8C"}


def test_R23_x3_and_sun_are_not_locked() -> None:
    """R23: final x3 is open; in Sun there is no lock at all."""
    state = hokum_spades_by_1("2 pass, 0 double, 1 triple, 0 pass")
    assert state.multiplier == 3 and not state.locked
    assert Play(cs("KS")[0]) in legal_moves(state)
    assert not sun_by_1().locked


def test_R25_declarer_leads_trick_one() -> None:
    """R25: the declarer leads; in Ashkal the caller (not the card recipient) leads."""
    assert to_act(sun_by_1()) == 1
    ashkal = calls(
        dealt(PLAIN_HANDS, recipient=1, face_up="AC"), "1 pass, 2 pass, 3 ashkal, 2 pass"
    )
    assert ashkal.contract is not None and ashkal.contract.recipient == 1
    assert to_act(ashkal) == 3


def test_R26_must_follow_suit_any_card_of_it() -> None:
    """R26: a player holding the led suit must play one of it, any one."""
    state = plays(sun_by_1(), "JD")  # seat 1 leads a diamond
    assert to_act(state) == 2
    assert legal_names(state) == {"AD", "10D"}
    refused(state, 2, play("QS"), "must_follow_suit")
    state = plays(state, "10D")  # the lower one is fine too
    assert legal_names(state) == {"KD", "9D"}
    state = plays(state, "9D QD")
    assert state.tricks[0].winner == 2  # 10D beats QD and 9D


def test_R26_void_player_may_discard_instead_of_trumping() -> None:
    """R26: in Hokum a void player may play any card; no obligation to trump (V1 is off)."""
    state = plays(hokum_spades_by_1(), "JD")
    assert legal_names(state) == names(cards_of(state.hands[2]))
    state = plays(state, "KC AD QD")  # seat 2 discards a club
    assert state.tricks[0].winner == 3
    # A trump lead is open when not locked (x1), and must be followed with trumps if held.
    state = plays(state, "JS")
    assert legal_names(state) == {"AS", "10S"}
    refused(state, 0, play("KH"), "must_follow_suit")


def test_R27_trump_beats_plain_and_off_suit_never_wins() -> None:
    """R27: the highest trump wins; else the highest of the led suit; other suits never win."""
    hearts = parse_suit("H")
    assert trick_winner(tuple(cs("7D AS AC 8D")), hearts) == 3  # 8D beats 7D; A's off-suit
    assert trick_winner(tuple(cs("AD 7H JH 10D")), hearts) == 2
    assert trick_winner(tuple(cs("AD 10C KD JS")), None) == 0


def test_R2_play_moves_to_next_seat() -> None:
    """R2: play proceeds counterclockwise, always to next(s)."""
    state = sun_by_1()
    seen = []
    for card in ("QH", "JH", "AH", "KH"):
        seen.append(to_act(state))
        state = plays(state, card)
    assert seen == [1, 2, 3, 0]


def test_R28_round_is_eight_tricks_and_last_trick_adds_ten() -> None:
    """R28, R6: E99 is exactly eight tricks; trick 8 carries +10; abnat totals 162."""
    state = e99_playing()
    for trick in E99_TRICKS:
        state = plays(state, trick)
    log = state.history[-1]
    assert len(log.tricks) == 8
    assert log.tricks[-1].abnat == trick_abnat(log.tricks[-1].cards, parse_suit("H")) + 10
    assert sum(t.abnat for t in log.tricks) == 162


def test_play_is_refused_while_bidding_and_doubling() -> None:
    """record-format illegal_call: a play while bidding or doubling."""
    state = dealt(PLAIN_HANDS, recipient=1, face_up="KS")
    refused(state, 1, play("KS"), "illegal_call")
    state = calls(state, "1 hokum, 2 pass, 3 pass, 0 pass, 1 hokum")
    assert state.phase is Phase.DOUBLING
    refused(state, 2, play("QS"), "illegal_call")
