"""The `saudi` ruleset's bidding, play, doubling and scoring (rules-saudi.md S1-S19, S27-S30),
with its worked examples SE02-SE50 as named tests."""

from __future__ import annotations

import pytest

from games.engine import GAMERULES, apply, legal_moves
from games.engine.bidding import Mode
from games.engine.cards import card_names, cards_of
from games.engine.codec.moves import move_from_dict, move_to_dict
from games.engine.errors import ALL_ILLEGAL_CODES, ILLEGAL_CODES, MalformedMove
from games.engine.moves import Bid, Call, Double, DoubleCall, Play, Project
from games.engine.play import legal_play_mask
from games.engine.rules import to_act
from games.engine.rulesets import RULESETS, SAUDI
from games.engine.scoring import RoundResult, score_round
from games.engine.state import Phase
from tests.engine.helpers import (
    PLAIN_HANDS,
    c,
    calls,
    cs,
    dealt,
    mask,
    plays,
    project,
    refused,
)
from tests.engine.saudi.common import (
    HOKUM_HANDS,
    dbl,
    hokum_contract,
    hokum_doubling,
    position,
    sun_by_1,
    sun_contract,
)

ORDER_D0 = (1, 2, 3, 0)


def legal_cards(state: object) -> set[str]:
    return {card_names([m.card])[0] for m in legal_moves(state) if isinstance(m, Play)}  # type: ignore[arg-type]


# --- S1, S2: selection and scope ---------------------------------------------------------


def test_S1_saudi_is_a_registered_ruleset_with_its_options() -> None:
    """S1: "saudi" names this ruleset; S.0's decisions are its options."""
    assert RULESETS["saudi"] is SAUDI
    assert SAUDI.compulsory_trumping and SAUDI.first_lead_dealer_right and SAUDI.sawa
    assert not SAUDI.ashkal_on_ace and SAUDI.kaboot_hokum_points == 25


def test_S2_gamerules_keeps_every_option_off_and_its_codes() -> None:
    """S2: gamerules has none of the Saudi behaviour; the record format's refusal list for it is
    unchanged and the new codes exist only beside it."""
    assert not GAMERULES.compulsory_trumping and not GAMERULES.sawa
    assert not GAMERULES.lock_chosen_by_caller and not GAMERULES.saudi_allocation
    assert "must_trump" not in ILLEGAL_CODES
    assert {"must_trump", "must_overtrump"} <= ALL_ILLEGAL_CODES


# --- S3: no Ashkal on an Ace ---------------------------------------------------------------


def test_SE02_S3_no_ashkal_on_a_face_up_ace() -> None:
    """SE02 (S3): face-up AH; 1 pass, 2 pass; seat 3 may pass, hokum or sun, not ashkal."""
    state = calls(dealt(PLAIN_HANDS, recipient=3, face_up="AH", ruleset=SAUDI), "1 pass, 2 pass")
    assert to_act(state) == 3
    assert legal_moves(state) == [Bid(Call.PASS), Bid(Call.HOKUM), Bid(Call.SUN)]
    refused(state, 3, Bid(Call.ASHKAL), "illegal_call")
    gamerules = calls(dealt(PLAIN_HANDS, recipient=3, face_up="AH"), "1 pass, 2 pass")
    assert Bid(Call.ASHKAL) in legal_moves(gamerules)


def test_S3_no_ashkal_on_an_ace_in_round_2_and_as_a_claim() -> None:
    """S3: nor in round 2, nor as the "before you" claim after a Sun."""
    state = dealt(PLAIN_HANDS, recipient=3, face_up="AH", ruleset=SAUDI)
    round2 = calls(state, "1 pass, 2 pass, 3 pass, 0 pass, 1 pass, 2 pass")
    assert to_act(round2) == 3 and Bid(Call.ASHKAL) not in legal_moves(round2)
    # 1 pass, 2 pass, 3 pass, 0 sun: the claimants are 1 and 3 (0's opponents before it).
    claim = calls(state, "1 pass, 2 pass, 3 pass, 0 sun, 1 pass")
    assert to_act(claim) == 3
    refused(claim, 3, Bid(Call.ASHKAL), "illegal_call")


def test_SE05_S3_ashkal_on_a_king_and_S4_dealers_right_leads() -> None:
    """SE05 (S3, S4): face-up KH; 1 pass, 2 pass, 3 ashkal, 2 pass: Ashkal, declarer 3,
    recipient 1, and seat 1 leads."""
    hands = {**PLAIN_HANDS, 0: PLAIN_HANDS[1], 1: PLAIN_HANDS[0]}
    state = calls(
        dealt(hands, recipient=1, face_up="KH", ruleset=SAUDI), "1 pass, 2 pass, 3 ashkal, 2 pass"
    )
    assert state.contract is not None
    assert state.contract.kind is Call.ASHKAL
    assert (state.contract.declarer, state.contract.recipient) == (3, 1)
    assert state.phase is Phase.PLAYING and to_act(state) == 1


# --- S4: first lead --------------------------------------------------------------------------


def test_SE06_S4_dealers_right_leads_a_hokum_by_seat_2() -> None:
    """SE06 (S4): Hokum by seat 2, no double: seat 1 leads; seat 2 playing is not_your_turn."""
    state = apply(apply(hokum_doubling(), 3, dbl("pass")), 1, dbl("pass"))
    assert state.phase is Phase.PLAYING and to_act(state) == 1
    refused(state, 2, Play(c("9S")), "not_your_turn")


# --- S5-S7: play in Hokum ------------------------------------------------------------------


def _hokum_playing() -> object:
    return apply(apply(hokum_doubling(), 3, dbl("pass")), 1, dbl("pass"))


def test_SE08_S6_void_must_trump() -> None:
    """SE08 (S6): 1 leads QH; seat 2, void in hearts, must trump: {9S, 8S, 7S}; AD is
    must_trump."""
    state = plays(_hokum_playing(), "QH")  # type: ignore[arg-type]
    assert legal_cards(state) == {"9S", "8S", "7S"}
    refused(state, 2, Play(c("AD")), "must_trump")


def test_SE10_S6_under_trumping_is_compulsory() -> None:
    """SE10 (S6): 2 trumps with 9S; seat 3, void in hearts, with only lower trumps, must still
    trump: {KS, QS, 10S}; KD is must_trump."""
    state = plays(_hokum_playing(), "QH 9S")  # type: ignore[arg-type]
    assert legal_cards(state) == {"KS", "QS", "10S"}
    refused(state, 3, Play(c("KD")), "must_trump")


def test_S6_over_trump_required_and_must_overtrump_code() -> None:
    """S6: seat 3 void in hearts holding JS and 8S behind an opponent's 9S: only JS;
    8S is must_overtrump, a heart-less plain card must_trump."""
    state = position(
        {0: "AH", 1: "QH KH", 2: "9S 7D", 3: "JS 8S AD"},
        leader=1,
        trick=(c("QH"), c("9S")),
    )
    assert legal_cards(state) == {"JS"}
    refused(state, 3, Play(c("8S")), "must_overtrump")
    refused(state, 3, Play(c("AD")), "must_trump")


def test_SE13_S5_trump_led_must_beat_the_opponent() -> None:
    """SE13 (S5b): 1 leads 10S (trump); seat 2 holds AS 9S 8S 7S: {AS, 9S}; 7S is
    must_overtrump."""
    state = position({0: "AH", 1: "10S", 2: "AS 9S 8S 7S AD", 3: "KH"}, leader=1)
    state = plays(state, "10S")
    assert legal_cards(state) == {"AS", "9S"}
    refused(state, 2, Play(c("7S")), "must_overtrump")
    refused(state, 2, Play(c("AD")), "must_follow_suit")


def test_S5_trump_led_partner_winning_any_trump() -> None:
    """S5(b): with the partner's trump winning, any trump (but still a trump)."""
    state = position({0: "AH", 1: "JS", 2: "KH", 3: "AS 7S AD"}, leader=1)
    state = plays(state, "JS KH")  # seat 2 holds no trump: anything
    assert legal_cards(state) == {"AS", "7S"}
    refused(state, 3, Play(c("AD")), "must_follow_suit")


def test_S5c_plain_suit_followed_freely_even_when_trumped() -> None:
    """S5(c): a plain suit led and trumped: a holder plays any card of that suit."""
    state = position({0: "AH 7H JS", 1: "10H", 2: "9S", 3: "KH"}, leader=1, trick=())
    state = plays(state, "10H 9S KH")
    assert legal_cards(state) == {"AH", "7H"}


def test_SE16_S7_partner_winning_frees_the_void_player() -> None:
    """SE16 (S7): 1 leads KH, 2 plays 7H; seat 3 (partner of 1), void in hearts with trumps,
    may play any card; V1b would have forced a trump."""
    state = position({0: "AH", 1: "KH", 2: "7H", 3: "9S 7S AD QC"}, leader=1)
    state = plays(state, "KH 7H")
    assert legal_cards(state) == {"9S", "7S", "AD", "QC"}


def test_S7_second_player_must_trump_third_behind_its_winning_partner_is_free() -> None:
    """S7: the partner is the card two plays earlier. 2nd in the trick (the leader an
    opponent) a void player with trumps must trump; 3rd, behind its partner's winning lead,
    it is free."""
    state = position({0: "7H", 1: "AS 7D", 2: "AH", 3: "QH"}, leader=2)
    state = plays(state, "AH")
    assert to_act(state) == 3 and legal_cards(state) == {"QH"}
    second = position({0: "7H", 1: "AS 7D", 2: "AH", 3: "QS 7C"}, leader=2)
    second = plays(second, "AH")
    assert legal_cards(second) == {"QS"}
    state = position({0: "KD 9S", 1: "QH", 2: "AH", 3: "10H"}, leader=2)
    state = plays(state, "AH 10H")
    assert legal_cards(state) == {"KD", "9S"}


def test_S5_S6_sun_keeps_R26() -> None:
    """S5-S7 apply in Hokum only: Sun keeps the free discard."""
    hand = mask("AS KD")
    assert legal_play_mask(hand, (c("QH"),), None, False, True) == hand


# --- S8-S12: doubling --------------------------------------------------------------------


def test_SE18_S10_hokum_double_listed_open_and_closed() -> None:
    """SE18 (S10, S11): seat 3's legal doubling calls: pass; double open; double closed."""
    state = hokum_doubling()
    assert to_act(state) == 3
    assert legal_moves(state) == [dbl("pass"), dbl("double", False), dbl("double", True)]
    assert [move_to_dict(m) for m in legal_moves(state)] == [
        {"type": "double", "call": "pass"},
        {"type": "double", "call": "double", "locked": False},
        {"type": "double", "call": "double", "locked": True},
    ]


def test_SE19_S10_closed_double_locks_the_round() -> None:
    """SE19 (S10): 3 doubles closed, 2 passes: x2 locked; seat 1 leading its trump AS while
    holding non-trumps is locked_trump_lead."""
    state = apply(apply(hokum_doubling(), 3, dbl("double", True)), 2, dbl("pass"))
    assert state.phase is Phase.PLAYING and state.multiplier == 2 and state.locked
    refused(state, 1, Play(c("AS")), "locked_trump_lead")


def test_SE20_S10_double_without_locked_is_open() -> None:
    """SE20 (S10): 3 doubles (no `locked`), 2 passes: x2 open; seat 1 may lead AS."""
    state = apply(apply(hokum_doubling(), 3, Double(DoubleCall.DOUBLE)), 2, dbl("pass"))
    assert state.multiplier == 2 and not state.locked
    assert state.actions[-2] == (3, dbl("double", False))  # kept as the open choice
    assert apply(state, 1, Play(c("AS"))).trick == (c("AS"),)


def test_S10_triple_open_four_chosen_gahwa_open() -> None:
    """S10: x3 is open whatever Double chose; Four's caller chooses again; Gahwa is open."""
    state = apply(apply(hokum_doubling(), 3, dbl("double", True)), 2, dbl("triple"))
    assert state.multiplier == 3 and not state.locked
    assert legal_moves(state) == [dbl("pass"), dbl("four", False), dbl("four", True)]
    four = apply(state, 3, dbl("four", True))
    assert four.locked and legal_moves(four) == [dbl("pass"), dbl("gahwa")]
    assert apply(four, 2, dbl("pass")).locked
    gahwa = apply(four, 2, dbl("gahwa"))
    assert gahwa.gahwa and not gahwa.locked
    open_four = apply(apply(state, 3, dbl("four", False)), 2, dbl("pass"))
    assert open_four.multiplier == 4 and not open_four.locked


def test_S11_locked_must_be_boolean_in_saudi_and_is_ignored_elsewhere() -> None:
    """S11: `locked` must be a boolean when present (saudi), is ignored on pass/triple/gahwa
    and in gamerules."""
    with pytest.raises(MalformedMove):
        move_from_dict({"type": "double", "call": "double", "locked": "yes"}, SAUDI)
    assert move_from_dict({"type": "double", "call": "double", "locked": "yes"}) == Double(
        DoubleCall.DOUBLE
    )
    assert move_from_dict({"type": "double", "call": "double", "locked": True}) == Double(
        DoubleCall.DOUBLE
    )
    state = apply(apply(hokum_doubling(), 3, dbl("double", True)), 2, dbl("triple", True))
    assert state.actions[-1] == (2, dbl("triple"))  # ignored, and not kept


def test_SE25_S8_S9_sun_double_only_with_its_boundary() -> None:
    """SE25 (S8, S9): Sun by seat 1 with B 101, A 100: doubling opens to 2 then 0, [pass,
    double]; a double ends the ladder at x2 and triple is illegal_call."""
    state = sun_by_1((100, 101))
    assert state.phase is Phase.DOUBLING and to_act(state) == 2
    assert legal_moves(state) == [dbl("pass"), dbl("double")]
    state = apply(state, 2, dbl("pass"))
    assert to_act(state) == 0 and legal_moves(state) == [dbl("pass"), dbl("double")]
    doubled = apply(state, 0, dbl("double", True))
    assert doubled.phase is Phase.PLAYING and doubled.multiplier == 2 and not doubled.locked
    refused(doubled, 1, dbl("triple"), "illegal_call")


@pytest.mark.parametrize(
    ("scores", "open_"),
    [((100, 101), True), ((99, 101), True), ((101, 101), False), ((50, 100), False)],
)
def test_S9_sun_eligibility_boundary(scores: tuple[int, int], open_: bool) -> None:
    """S9: declarer's team (B here) > 100 and opponents <= 100."""
    assert (sun_by_1(scores).phase is Phase.DOUBLING) is open_


def test_S9_hokum_has_no_condition_and_S12_gahwa_unchanged() -> None:
    """S9: Hokum doubling whatever the scores; S12: Gahwa still ends the match (R43)."""
    assert hokum_doubling((140, 10)).phase is Phase.DOUBLING
    state = hokum_doubling()
    for seat, move in ((3, dbl("double")), (2, dbl("triple")), (3, dbl("four")), (2, dbl("gahwa"))):
        state = apply(state, seat, move)
    assert state.gahwa and state.phase is Phase.PLAYING


# --- S13-S19: scoring ----------------------------------------------------------------------


def score(
    mode: Mode,
    abnat: tuple[int, int],
    *,
    tricks: tuple[int, int] = (4, 4),
    declarations: tuple[tuple[int, tuple[Project, ...]], ...] = (),
    baloot_seat: int | None = None,
    multiplier: int = 1,
    gahwa: bool = False,
    face_up: str = "8H",
) -> RoundResult:
    contract = hokum_contract("H", 0) if mode is Mode.HOKUM else sun_contract(0, face_up)
    return score_round(
        contract=contract,
        ruleset=SAUDI,
        abnat=abnat,
        trick_counts=tricks,
        declarations=declarations,
        order=ORDER_D0,
        baloot_seat=baloot_seat,
        multiplier=multiplier,
        gahwa=gahwa,
    )


def test_SE28_S14_sun_full_tie_is_a_split() -> None:
    """SE28 (S14): Sun x1, bidder A 65/65: 13/13, not failed (gamerules: 0/26)."""
    result = score(Mode.SUN, (65, 65))
    assert result.points == (13, 13) and not result.bidder_failed


def test_S14_hokum_full_tie_split_and_raw_decides_a_points_tie() -> None:
    """S14: Hokum 81/81 is 8/8; 85/77 (8/8 on points) succeeds, 77/85 fails."""
    assert score(Mode.HOKUM, (81, 81)).points == (8, 8)
    assert score(Mode.HOKUM, (85, 77)).points == (8, 8)
    failed = score(Mode.HOKUM, (77, 85))
    assert failed.bidder_failed and failed.points == (0, 16)


def test_SE33_S15_doubled_full_tie_lost_by_the_doubler() -> None:
    """SE33 (S15): Hokum x2, 81/81: the bidder wins 32/0."""
    result = score(Mode.HOKUM, (81, 81), multiplier=2)
    assert result.points == (32, 0) and not result.bidder_failed


def test_SE34_S15_tripled_full_tie_lost_by_the_bidder() -> None:
    """SE34 (S15): Hokum x3, 81/81: the bidder fails, 0/48."""
    result = score(Mode.HOKUM, (81, 81), multiplier=3)
    assert result.points == (0, 48) and result.bidder_failed


def test_S15_four_and_gahwa_full_ties() -> None:
    """S15: x4 full tie: the bidder succeeds (64/0); Gahwa full tie: the opponents win."""
    assert score(Mode.HOKUM, (81, 81), multiplier=4).points == (64, 0)
    gahwa = score(Mode.HOKUM, (81, 81), multiplier=4, gahwa=True)
    assert gahwa.gahwa_winner == 1 and gahwa.points == (0, 0)


def test_SE38_S16_failed_bidder_keeps_its_baloot() -> None:
    """SE38 (S16): Hokum x1, bidder A fails, seat 2 has Baloot: 2/16 (gamerules: 0/18)."""
    result = score(Mode.HOKUM, (70, 92), baloot_seat=2)
    assert result.bidder_failed and result.points == (2, 16)


def test_S16_baloot_never_multiplied_and_stays_with_the_opponents_too() -> None:
    """S16: x2 success with the opponents' Baloot: 32/2; x3 failure with A's: 2/48."""
    assert score(Mode.HOKUM, (100, 62), baloot_seat=1, multiplier=2).points == (32, 2)
    assert score(Mode.HOKUM, (60, 102), baloot_seat=0, multiplier=3).points == (2, 48)


def test_SE41_S17_hokum_kaboot_is_25() -> None:
    """SE41 (S17): Hokum, A sweeps: 25/0 (abnat 162/0)."""
    result = score(Mode.HOKUM, (162, 0), tricks=(8, 0))
    assert result.kaboot == 0 and result.points == (25, 0)


def test_SE43_S17_kaboot_with_own_projects() -> None:
    """SE43 (S17): A sweeps having declared the 100 QS-8S: 25 + 10 = 35/0."""
    decl = ((0, (project("100", "QS JS 10S 9S 8S"),)),)
    assert score(Mode.HOKUM, (162, 0), tricks=(8, 0), declarations=decl).points == (35, 0)


def test_SE44_S17_sun_kaboot_44_even_on_a_face_up_ace() -> None:
    """SE44 (S17): Sun, face-up AS, A sweeps: 44/0 (no 88)."""
    assert score(Mode.SUN, (130, 0), tricks=(8, 0), face_up="AS").points == (44, 0)


def test_S17_kaboot_is_flat_drops_the_swept_teams_projects_keeps_its_baloot() -> None:
    """S17: never multiplied; the swept team's projects are lost; its Baloot stays (S16);
    the opponents' sweep fails the bidder."""
    decl = ((1, (project("50", "AD KD QD JD"),)),)
    result = score(
        Mode.HOKUM, (0, 162), tricks=(0, 8), multiplier=2, declarations=decl, baloot_seat=0
    )
    assert result.points == (2, 25 + 5) and result.bidder_failed
    swept = score(Mode.HOKUM, (162, 0), tricks=(8, 0), declarations=decl, baloot_seat=1)
    assert swept.points == (25, 2)


def test_S18_gahwa_winner_by_kaboot_and_success() -> None:
    """S18: the Gahwa winner is the kaboot team, else the bidder if it succeeded."""
    assert score(Mode.HOKUM, (0, 162), tricks=(0, 8), multiplier=4, gahwa=True).gahwa_winner == 1
    assert score(Mode.HOKUM, (100, 62), multiplier=4, gahwa=True).gahwa_winner == 0


def test_SE50_S13_awarded_four_kings_absorb_baloot() -> None:
    """SE50 (S13): seat 2 holds KS KH KD KC QS, Hokum spades, declares four Kings, awarded:
    no Baloot; A gets +10 projects only."""
    decl = ((2, (project("100", "KS KH KD KC"),)),)
    contract = hokum_contract("S", 0)
    result = score_round(
        contract=contract,
        ruleset=SAUDI,
        abnat=(100, 62),
        trick_counts=(5, 3),
        declarations=decl,
        order=ORDER_D0,
        baloot_seat=2,
        multiplier=1,
        gahwa=False,
    )
    assert result.baloot == () and result.project_points == (10, 0)
    assert result.points == (10 + 10, 6)


def test_S13_baloot_kept_when_not_awarded_or_inside_a_sequence() -> None:
    """S13: the four-K 100 not awarded, or a Baloot inside a declared run, still scores."""
    kings = (2, (project("100", "KS KH KD KC"),))
    better = (1, (project("100", "AD KD QD JD 10D"),))
    lost = score(Mode.HOKUM, (100, 62), declarations=(kings, better), baloot_seat=2)
    assert lost.baloot == (2,)
    run = score(
        Mode.HOKUM, (100, 62), declarations=((2, (project("sira", "KH QH JH"),)),), baloot_seat=2
    )
    assert run.baloot == (2,)


def test_S19_card_points_unchanged() -> None:
    """S19: R33/R34 conversion as in gamerules (86/76 -> 8/8)."""
    assert score(Mode.HOKUM, (86, 76)).card_points == (8, 8)
    assert score(Mode.SUN, (25, 105)).card_points == (5, 21)


# --- S27-S30: features that do not apply ---------------------------------------------------


def test_S27_no_qayd_illegal_cards_are_refused_and_change_nothing() -> None:
    """S27: every illegal play is refused with its code; nothing can stand to be challenged."""
    state = plays(_hokum_playing(), "QH")  # type: ignore[arg-type]
    for card, code in (("AD", "must_trump"), ("KH", "card_not_held")):
        refused(state, 2, Play(c(card)), code)


def test_S28_S29_no_akka_and_no_kawesh_actions() -> None:
    """S28, S29: there is no Akka nor Kawesh action in the record format."""
    for data in ({"type": "akka"}, {"type": "kawesh"}, {"type": "bid", "call": "kawesh"}):
        with pytest.raises(MalformedMove):
            move_from_dict(data, SAUDI)


def test_S30_bidding_unchanged_before_you_claim() -> None:
    """S30: the bidding machine as gamerules, e.g. E32's "before you" claim."""
    state = calls(
        dealt(HOKUM_HANDS, recipient=2, face_up="8S", ruleset=SAUDI), "1 pass, 2 pass, 3 sun, 2 sun"
    )
    assert state.contract is not None and state.contract.declarer == 2
    assert cs("8S")[0] in cards_of(state.hands[2])
