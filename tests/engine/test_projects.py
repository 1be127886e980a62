"""Projects and Baloot (rules.md R7, R29-R32, examples E54-E56, E58)."""

from __future__ import annotations

import pytest

from games.engine import to_act
from games.engine.bidding import Contract, Mode
from games.engine.errors import IllegalMove
from games.engine.moves import Call, Project
from games.engine.projects import (
    available_projects,
    awarded_team,
    best_declaration,
    is_valid_project,
    project_points,
    project_strength,
    validate_declaration,
)
from games.engine.rulesets import GAMERULES
from games.engine.scoring import score_round
from games.engine.state import GameState, Phase
from tests.engine.helpers import (
    c,
    calls,
    dealt,
    declare,
    mask,
    play,
    play_out,
    plays,
    project,
    refused,
)
from tests.engine.helpers import (
    run as run_moves,
)

SUN, HOKUM = Mode.SUN, Mode.HOKUM
ORDER_D0 = (1, 2, 3, 0)

# Dealer 0; seat 1 calls SUN at once and leads. Seat 1 holds E56's hand.
PROJECT_HANDS = {
    1: "AS KS QS JS JH JD JC 7D",
    2: "10S 9S 8S AH 10H 8D QC 7C",
    3: "AD KD QD 10D 9D 7S KH 8H",
    0: "QH 9H 7H AC KC 10C 9C 8C",
}


def sun_by_1() -> GameState:
    state = calls(dealt(PROJECT_HANDS, recipient=1, face_up="7D"), "1 sun")
    assert state.phase is Phase.PLAYING and to_act(state) == 1
    return state


def points_of(projects: tuple[Project, ...], mode: Mode) -> int:
    return sum(project_points(p, mode) for p in projects)


# E54: (hand, Sun (kind, points) or None, Hokum (kind, points) or None).
E54_ROWS = [
    ("AH KH QH", ("sira", 4), ("sira", 2)),
    ("KD QD JD 10D", ("50", 10), ("50", 5)),
    ("QS JS 10S 9S 8S", ("100", 20), ("100", 10)),
    ("AH 10H KH", None, None),
    ("KH QH JH 10H 9H 8H", ("100", 20), ("100", 10)),
    ("KS KH KD KC", ("100", 20), ("100", 10)),
    ("AS AH AD AC", ("400", 40), ("100", 10)),
    ("9S 9H 9D 9C", None, None),
]


@pytest.mark.parametrize(("hand", "sun", "hokum"), E54_ROWS, ids=[r[0] for r in E54_ROWS])
def test_E54_detection(
    hand: str, sun: tuple[str, int] | None, hokum: tuple[str, int] | None
) -> None:
    """E54 (R29, R7): the best project in each hand, by mode; a 6-run is one 100."""
    for mode, expected in ((SUN, sun), (HOKUM, hokum)):
        best = best_declaration(mask(hand), mode)
        if expected is None:
            assert best == ()
            assert available_projects(mask(hand), mode) == []
        else:
            assert len(best) == 1
            assert (best[0].kind.value, project_points(best[0], mode)) == expected
            assert set(best[0].cards) <= {c(x) for x in hand.split()}
            # The whole pattern (the 6-run too) is one project of that kind.
            whole = project(expected[0], hand)
            assert whole in available_projects(mask(hand), mode)
            assert is_valid_project(whole, mode)


def test_E55_four_kings_alone_and_no_shared_card() -> None:
    """E55 (R30): four Kings (100) is best; KH-QH-JH as a sira is valid alone; declaring both
    is rejected because KH would be in two projects."""
    hand = mask("KS KH KD KC QH JH 8C 7C")
    kings = project("100", "KS KH KD KC")
    sira = project("sira", "KH QH JH")
    assert best_declaration(hand, SUN) == (kings,)
    validate_declaration(hand, (kings,), SUN)
    validate_declaration(hand, (sira,), SUN)
    with pytest.raises(IllegalMove) as info:
        validate_declaration(hand, (kings, sira), SUN)
    assert info.value.code == "invalid_project"


def test_E56_sira_plus_four_jacks_is_best() -> None:
    """E56 (R30): option 1, the 50 alone, is 10 Sun points; option 2, sira AS-KS-QS + four
    Jacks, is 4 + 20 = 24; both legal, option 2 best."""
    hand = mask("AS KS QS JS JH JD JC 7D")
    fifty = (project("50", "AS KS QS JS"),)
    option2 = (project("sira", "AS KS QS"), project("100", "JS JH JD JC"))
    validate_declaration(hand, fifty, SUN)
    validate_declaration(hand, option2, SUN)
    assert points_of(fifty, SUN) == 10
    assert points_of(option2, SUN) == 24
    best = best_declaration(hand, SUN)
    assert set(best) == set(option2)
    assert points_of(best, SUN) == 24


def test_E56_declared_through_apply_and_awarded_at_round_end() -> None:
    """E56, R30, R31, R35 through apply: every seat declares on its first turn of trick 1;
    team B's best (seat 1's four Jacks) beats A's siras, so B is awarded all of its projects,
    both partners' (4 + 20 + 4 = 28), and A's score nothing."""
    state = sun_by_1()
    e56 = declare(project("sira", "AS KS QS"), project("100", "JS JH JD JC"))
    state = run_moves(state, [(1, e56), (1, play("7D"))])
    state = run_moves(state, [(2, declare(project("sira", "10S 9S 8S"))), (2, play("8D"))])
    state = run_moves(state, [(3, declare(project("sira", "AD KD QD"))), (3, play("9D"))])
    state = run_moves(state, [(0, declare(project("sira", "10C 9C 8C"))), (0, play("QH"))])
    state = play_out(state)
    result = state.history[-1].result
    assert [seat for seat, _ in result.declared] == [1, 2, 3, 0]
    assert result.declared[0][1] == e56.projects
    assert result.awarded_team == 1
    assert result.project_points == (0, 28)


def test_R7_sequences_use_natural_order_without_wrap() -> None:
    """R7: K-A-7 is no sequence, A-10-K is none; J-10-9 of trump is a sira in Hokum."""
    assert not is_valid_project(project("sira", "KS AS 7S"), SUN)
    assert not is_valid_project(project("sira", "AS 10S KS"), HOKUM)
    assert is_valid_project(project("sira", "JH 10H 9H"), HOKUM)
    assert is_valid_project(project("sira", "9D 8D 7D"), SUN)
    assert not is_valid_project(project("sira", "9D 8D 7C"), SUN)  # suits differ
    assert not is_valid_project(project("sira", "8S 7S AH"), SUN)  # no wrap across suits


def test_R29_patterns_by_kind() -> None:
    """R29: sira = 3 in a row, 50 = 4, 100 = 5+ in a row or four 10s/Js/Qs/Ks (four As in
    Hokum), 400 = four Aces in Sun only; four 9s/8s/7s nothing; a kind must match its cards."""
    assert is_valid_project(project("100", "AS KS QS JS 10S 9S 8S 7S"), SUN)
    assert is_valid_project(project("100", "10S 10H 10D 10C"), HOKUM)
    assert is_valid_project(project("100", "AS AH AD AC"), HOKUM)
    assert not is_valid_project(project("100", "AS AH AD AC"), SUN)
    assert not is_valid_project(project("400", "AS AH AD AC"), HOKUM)
    assert is_valid_project(project("400", "AS AH AD AC"), SUN)
    for rank in ("9", "8", "7"):
        four = " ".join(f"{rank}{s}" for s in "SHDC")
        assert not is_valid_project(project("100", four), SUN)
    assert not is_valid_project(project("sira", "KD QD JD 10D"), SUN)
    assert not is_valid_project(project("50", "KD QD JD"), SUN)
    assert not is_valid_project(project("50", "KD QD JD 10D 9D"), SUN)
    assert not is_valid_project(project("100", "KD QD JD 10D"), SUN)
    assert not is_valid_project(project("100", "KS KH KD"), SUN)


def test_R30_declared_cards_need_not_be_maximal() -> None:
    """R30: from A-K-Q-J a sira A-K-Q may be declared; an 8-run may be two 50s, which never
    scores more than the whole run."""
    hand = mask("AS KS QS JS 9H 8D 7C 10H")
    validate_declaration(hand, (project("sira", "AS KS QS"),), SUN)
    validate_declaration(hand, (project("sira", "KS QS JS"),), HOKUM)
    run = mask("AS KS QS JS 10S 9S 8S 7S")
    halves = (project("50", "AS KS QS JS"), project("50", "10S 9S 8S 7S"))
    whole = (project("100", "AS KS QS JS 10S 9S 8S 7S"),)
    for mode in (SUN, HOKUM):
        validate_declaration(run, halves, mode)
        validate_declaration(run, whole, mode)
        assert points_of(halves, mode) <= points_of(whole, mode)


@pytest.mark.parametrize(
    ("projects", "reason"),
    [
        ((), "empty"),
        ((project("sira", "AS KS QS"),) * 3, "more than 2"),
        ((project("sira", "KH QH JH"),), "not held"),
        ((project("50", "AS KS QS"),), "wrong pattern"),
        ((project("sira", "AS KS QS"), project("50", "AS KS QS JS")), "card twice"),
        ((Project(project("sira", "AS").kind, (c("AS"), c("AS"), c("KS"))),), "card twice"),
    ],
)
def test_R30_validation_refuses(projects: tuple[Project, ...], reason: str) -> None:
    """R30: one or two valid projects of held cards, no card used twice."""
    with pytest.raises(IllegalMove) as info:
        validate_declaration(mask("AS KS QS JS JH JD JC 7D"), projects, SUN)
    assert info.value.code == "invalid_project", reason


def test_R30_declaration_window_is_own_first_turn_of_trick_one() -> None:
    """R30: a seat declares only on its own first turn of trick 1, before playing, once."""
    state = sun_by_1()
    refused(state, 2, declare(project("sira", "10S 9S 8S")), "not_your_turn")
    sira = declare(project("sira", "AS KS QS"))
    state = run_moves(state, [(1, sira)])
    refused(state, 1, declare(project("100", "JS JH JD JC")), "invalid_project")  # second
    state = plays(state, "JD")
    state = run_moves(state, [(2, declare(project("sira", "10S 9S 8S")))])
    state = plays(state, "8D AD QH")  # seat 3's AD wins; seat 0 had no diamond
    assert state.tricks[0].winner == 3
    # Trick 2: seat 3 leads, but its first turn of trick 1 is gone.
    refused(state, 3, declare(project("sira", "KD QD 10D")), "invalid_project")


def test_R30_undeclared_projects_score_nothing() -> None:
    """R30: projects held but not declared score nothing."""
    state = play_out(sun_by_1())
    result = state.history[-1].result
    assert result.declared == ()
    assert result.awarded_team is None
    assert result.project_points == (0, 0)


# E58 rows: (declarations as (seat, projects), mode, awarded team).
E58_ROWS = [
    ("50 beats sira", [(0, ("50", "KD QD JD 10D")), (1, ("sira", "AH KH QH"))], SUN, 0),
    ("higher top", [(0, ("sira", "QS JS 10S")), (1, ("sira", "KH QH JH"))], SUN, 1),
    ("run beats four", [(0, ("100", "QS QH QD QC")), (1, ("100", "JH 10H 9H 8H 7H"))], SUN, 1),
    ("kings over jacks", [(0, ("100", "KS KH KD KC")), (1, ("100", "JS JH JD JC"))], SUN, 0),
    ("400", [(0, ("400", "AS AH AD AC")), (1, ("100", "AH KH QH JH 10H"))], SUN, 0),
    ("tie by order", [(2, ("sira", "AS KS QS")), (1, ("sira", "AH KH QH"))], SUN, 1),
]


@pytest.mark.parametrize(("why", "rows", "mode", "team"), E58_ROWS, ids=[r[0] for r in E58_ROWS])
def test_E58_comparison(
    why: str, rows: list[tuple[int, tuple[str, str]]], mode: Mode, team: int
) -> None:
    """E58 (R31): the team with the better best project is awarded."""
    declarations = tuple((seat, (project(*p),)) for seat, p in rows)
    assert awarded_team(declarations, ORDER_D0) == team, why


def contract(mode: Mode, declarer: int = 0, face_up: str = "7H") -> Contract:
    trump = c(face_up) >> 3 if mode is HOKUM else None
    kind = Call.HOKUM if mode is HOKUM else Call.SUN
    return Contract(kind, mode, trump, declarer, declarer, 1, c(face_up))


def test_E58_losing_team_scores_none_of_its_projects() -> None:
    """E58 (R31): seat 0 sira + seat 2 50 (top K) vs seat 3 50 (top A): B is awarded; A's sira
    and 50 both score 0; B's 50 scores 10 in Sun."""
    declarations = (
        (0, (project("sira", "QS JS 10S"),)),
        (2, (project("50", "KH QH JH 10H"),)),
        (3, (project("50", "AD KD QD JD"),)),
    )
    result = score_round(
        contract=contract(SUN),
        ruleset=GAMERULES,
        abnat=(65, 65),
        trick_counts=(4, 4),
        declarations=declarations,
        order=ORDER_D0,
        baloot_seat=None,
        multiplier=1,
        gahwa=False,
    )
    assert result.awarded_team == 1
    assert result.project_points == (0, 10)


def test_E58_baloot_alone_does_not_compete() -> None:
    """E58 (R31, R32, R41): A has only Baloot, B a sira: B is awarded the sira; A still scores
    its Baloot 2. (Hokum, A bids, 100/62: A 10 + 2, B 6 + 2.)"""
    result = score_round(
        contract=contract(HOKUM),
        ruleset=GAMERULES,
        abnat=(100, 62),
        trick_counts=(5, 3),
        declarations=((1, (project("sira", "AD KD QD"),)),),
        order=ORDER_D0,
        baloot_seat=2,
        multiplier=1,
        gahwa=False,
    )
    assert result.awarded_team == 1
    assert result.baloot == (2,)
    assert not result.bidder_failed
    assert result.points == (10 + 2, 6 + 2)


def test_R31_strength_order_details() -> None:
    """R31: a 6-run headed by K loses to a 5-run headed by A; four Aces (Hokum) beat four
    Kings; equal best projects go to the seat earlier in bidding order (dealer 2: order
    3, 0, 1, 2), and the awarded team takes all its declared projects."""
    k6 = project("100", "KH QH JH 10H 9H 8H")
    a5 = project("100", "AS KS QS JS 10S")
    assert project_strength(a5) > project_strength(k6)
    assert awarded_team(((0, (k6,)), (1, (a5,))), ORDER_D0) == 1
    aces = project("100", "AS AH AD AC")
    kings = project("100", "KS KH KD KC")
    assert project_strength(aces) > project_strength(kings)
    order_d2 = (3, 0, 1, 2)
    tie = ((1, (project("sira", "AH KH QH"),)), (0, (project("sira", "AS KS QS"),)))
    assert awarded_team(tie, order_d2) == 0  # seat 0 is earlier than seat 1 for dealer 2
    assert awarded_team(tie, ORDER_D0) == 1
    assert awarded_team((), ORDER_D0) is None
    assert awarded_team(((3, (project("sira", "9C 8C 7C"),)),), ORDER_D0) == 1


def test_R32_baloot_split_between_partners_or_in_sun_is_nothing() -> None:
    """R32: Baloot needs one player holding the trump K and Q; never in Sun; worth 2 points
    on top of any declared project using those cards."""
    split = calls(
        dealt(PROJECT_HANDS, recipient=3, face_up="KH"), "1 pass, 2 pass, 3 hokum, 0 pass"
    )
    state = calls(split, "1 pass, 2 pass, 3 hokum")
    assert state.contract is not None and state.contract.trump == c("KH") >> 3
    assert state.baloot_seat is None  # KH is seat 3's, QH seat 0's
    sun = score_round(
        contract=contract(SUN),
        ruleset=GAMERULES,
        abnat=(70, 60),
        trick_counts=(4, 4),
        declarations=(),
        order=ORDER_D0,
        baloot_seat=0,
        multiplier=1,
        gahwa=False,
    )
    assert sun.baloot == ()
    hokum = score_round(
        contract=contract(HOKUM, face_up="7H"),
        ruleset=GAMERULES,
        abnat=(100, 62),
        trick_counts=(5, 3),
        declarations=((0, (project("sira", "KH QH JH"),)),),
        order=ORDER_D0,
        baloot_seat=0,
        multiplier=1,
        gahwa=False,
    )
    assert hokum.baloot == (0,)
    assert hokum.points == (10 + 2 + 2, 6)  # card points + sira + Baloot
