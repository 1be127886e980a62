"""Round scoring (rules.md R33-R41; examples E60-E72, E82-E90)."""

from __future__ import annotations

import pytest

from games.engine.bidding import Contract, Mode
from games.engine.cards import parse_card
from games.engine.moves import Call, Project
from games.engine.rulesets import GAMERULES
from games.engine.scoring import (
    RoundResult,
    card_points,
    hokum_card_points,
    score_round,
    sun_card_points,
)
from games.engine.state import GameState, Phase
from tests.engine.helpers import SWEEP_HANDS, calls, dealt, doubles, play_out, project

SUN, HOKUM = Mode.SUN, Mode.HOKUM
ORDER_D0 = (1, 2, 3, 0)


def contract(mode: Mode, declarer: int = 0, face_up: str = "7H") -> Contract:
    card = parse_card(face_up)
    kind = Call.HOKUM if mode is HOKUM else Call.SUN
    return Contract(kind, mode, card >> 3 if mode is HOKUM else None, declarer, declarer, 1, card)


def score(
    mode: Mode,
    abnat: tuple[int, int],
    *,
    declarer: int = 0,
    tricks: tuple[int, int] = (4, 4),
    declarations: tuple[tuple[int, tuple[Project, ...]], ...] = (),
    baloot_seat: int | None = None,
    multiplier: int = 1,
    gahwa: bool = False,
    face_up: str = "7H",
) -> RoundResult:
    return score_round(
        contract=contract(mode, declarer, face_up),
        ruleset=GAMERULES,
        abnat=abnat,
        trick_counts=tricks,
        declarations=declarations,
        order=ORDER_D0,
        baloot_seat=baloot_seat,
        multiplier=multiplier,
        gahwa=gahwa,
    )


E60 = [(0, 0), (4, 0), (5, 1), (6, 2), (14, 2), (15, 3), (16, 4), (25, 5), (54, 10), (55, 11),
       (56, 12), (64, 12), (65, 13), (66, 14), (105, 21), (109, 22), (130, 26)]  # fmt: skip


@pytest.mark.parametrize(("abnat", "points"), E60)
def test_E60_sun_conversion(abnat: int, points: int) -> None:
    """E60 (R33): Sun abnat -> points."""
    assert sun_card_points(abnat) == points


def test_E60_complementary_pairs_total_26() -> None:
    """E60 (R33): 25/105 -> 5/21; 64/66 -> 12/14; 55/75 -> 11/15; every split totals 26."""
    assert card_points((25, 105), SUN) == (5, 21)
    assert card_points((64, 66), SUN) == (12, 14)
    assert card_points((55, 75), SUN) == (11, 15)
    for x in range(131):
        assert sum(card_points((x, 130 - x), SUN)) == 26, x


def test_R33_formula_matches_round_to_nearest_ten_with_fives_exact() -> None:
    """R33: ...5 is exact (x*2/10); otherwise round to the nearest 10, then x2/10."""
    for x in range(131):
        nearest_ten = (x + 5) // 10 * 10
        expected = x * 2 // 10 if x % 10 == 5 else nearest_ten * 2 // 10
        assert sun_card_points(x) == expected, x


E61 = [(0, 0), (5, 0), (6, 1), (15, 1), (16, 2), (55, 5), (56, 6), (75, 7), (76, 8), (77, 8),
       (81, 8), (85, 8), (86, 9), (96, 10), (107, 11), (162, 16)]  # fmt: skip


@pytest.mark.parametrize(("abnat", "points"), E61)
def test_E61_hokum_per_team_rounding(abnat: int, points: int) -> None:
    """E61 (R34): per-team Hokum rounding, .5 goes down."""
    assert hokum_card_points(abnat) == points


@pytest.mark.parametrize(
    ("pair", "adjusted"),
    [((86, 76), (8, 8)), ((96, 66), (9, 7)), ((106, 56), (10, 6)), ((156, 6), (15, 1)),
     ((76, 86), (8, 8)), ((66, 96), (7, 9)), ((107, 55), (11, 5)), ((85, 77), (8, 8)),
     ((81, 81), (8, 8))],
)  # fmt: skip
def test_E62_hokum_pair_adjustment(pair: tuple[int, int], adjusted: tuple[int, int]) -> None:
    """E62 (R34): when both totals end in 6 the larger abnat loses 1; others unchanged."""
    assert card_points(pair, HOKUM) == adjusted


def test_R34_hokum_pairs_always_total_16() -> None:
    """R34: after the adjustment both teams always total 16."""
    for x in range(163):
        assert sum(card_points((x, 162 - x), HOKUM)) == 16, x


# E63-E72: (id, mode, abnat A/B, declarations, card points, failed, round score).
ROUNDS = [
    ("E63", SUN, (76, 54), (), (16, 10), False, (16, 10)),
    ("E64", SUN, (65, 65), (), (13, 13), True, (0, 26)),
    ("E65", SUN, (66, 64), (), (14, 12), False, (14, 12)),
    ("E66", SUN, (64, 66), (), (12, 14), True, (0, 26)),
    ("E67", SUN, (61, 69), ((0, ("sira", "AH KH QH")),), (12, 14), False, (16, 14)),
    ("E68", SUN, (55, 75), ((1, ("50", "AH KH QH JH")),), (11, 15), True, (0, 36)),
    ("E69", HOKUM, (107, 55), (), (11, 5), False, (11, 5)),
    ("E70", HOKUM, (85, 77), (), (8, 8), False, (8, 8)),
    ("E71", HOKUM, (81, 81), (), (8, 8), True, (0, 16)),
    ("E72", HOKUM, (86, 76), (), (8, 8), False, (8, 8)),
]


@pytest.mark.parametrize(
    ("example", "mode", "abnat", "declared", "pts", "failed", "points"),
    ROUNDS,
    ids=[r[0] for r in ROUNDS],
)
def test_E63_to_E72_round_scores(
    example: str,
    mode: Mode,
    abnat: tuple[int, int],
    declared: tuple[tuple[int, tuple[str, str]], ...],
    pts: tuple[int, int],
    failed: bool,
    points: tuple[int, int],
) -> None:
    """E63-E72 (R33-R38): bidder team A (declarer 0), x1; card points, success, round score."""
    declarations = tuple((seat, (project(*p),)) for seat, p in declared)
    result = score(mode, abnat, declarations=declarations)
    assert result.card_points == pts, example
    assert result.bidder_failed is failed, example
    assert result.points == points, example


def check_round(example: str) -> None:
    """One row of the E63-E72 table, by id."""
    row = next(r for r in ROUNDS if r[0] == example)
    test_E63_to_E72_round_scores(*row)


def test_E65_sun_14_12_succeeds() -> None:
    """E65 (R33, R36, R37): Sun 66/64 -> 14/12, success, 14/12."""
    check_round("E65")


def test_E66_sun_12_14_fails() -> None:
    """E66 (R36, R38): Sun 64/66 -> 12/14, failure, 0/26."""
    check_round("E66")


def test_E69_hokum_11_5() -> None:
    """E69 (R34, R37): Hokum 107/55 -> 11/5, success, 11/5."""
    check_round("E69")


def test_E72_hokum_adjusted_tie_decided_by_raw() -> None:
    """E72 (R34, R36): Hokum 86/76 -> 8/8 after adjustment; raw 86 > 76: success, 8/8."""
    check_round("E72")


def test_E63_sun_success_16_10() -> None:
    """E63 (R33, R36, R37): Sun, A x1, 76/54 -> 16/10, success, scores 16/10."""
    result = score(SUN, (76, 54))
    assert (result.card_points, result.bidder_failed, result.points) == ((16, 10), False, (16, 10))


def test_E64_sun_tie_with_raw_tie_fails() -> None:
    """E64 (R36, R38): 65/65 -> 13/13, raw tie -> khasara, 0/26."""
    assert score(SUN, (65, 65)).points == (0, 26)


def test_E67_awarded_sira_makes_the_bid() -> None:
    """E67 (R35, R36): 61/69 is 12/14, but A's sira (+4) makes T 16/14: success, 16/14."""
    result = score(SUN, (61, 69), declarations=((2, (project("sira", "AH KH QH"),)),))
    assert (result.project_points, result.points) == ((4, 0), (16, 14))


def test_E68_failure_gives_opponents_base_plus_all_projects() -> None:
    """E68 (R38): B awarded a 50; A fails; B scores 26 + 10 = 36."""
    result = score(
        SUN,
        (55, 75),
        declarations=((3, (project("50", "AH KH QH JH"),)),),
    )
    assert (result.bidder_failed, result.points) == (True, (0, 36))


def test_E70_E71_hokum_points_tie_goes_to_raw_abnat() -> None:
    """E70, E71 (R36): 85/77 at 8/8 succeeds (raw 85 > 77); 81/81 fails."""
    assert score(HOKUM, (85, 77)).points == (8, 8)
    assert score(HOKUM, (81, 81)).points == (0, 16)


def test_R36_raw_tie_break_counts_project_raw_abnat() -> None:
    """R36: Raw = card abnat + awarded project raw. Sun 70/60 for B as bidder: points 14/12;
    with A's sira (T 18/12) B fails; and a T tie is broken by Raw including projects."""
    result = score(SUN, (70, 60), declarer=1, declarations=((0, (project("sira", "AH KH QH"),)),))
    assert result.bidder_failed and result.points == (30, 0)
    # Hokum, bidder A: 75/87 -> 7/9; A's sira +2 -> T 9/9; Raw 75 + 20 = 95 > 87: success.
    tie = score(HOKUM, (75, 87), declarations=((0, (project("sira", "AD KD QD"),)),))
    assert tie.card_points == (7, 9)
    assert not tie.bidder_failed
    assert tie.points == (9, 9)


def test_R37_each_team_scores_own_T_and_own_baloot() -> None:
    """R37, R41: x1 success: each team its own T, plus its own Baloot (B's Baloot here)."""
    result = score(HOKUM, (107, 55), baloot_seat=3)
    assert result.points == (11, 5 + 2)


def test_R38_failure_gives_opponents_every_baloot() -> None:
    """R38, R41.1: A fails; B scores 16 + all projects + all Baloot, A's Baloot included."""
    result = score(
        HOKUM, (70, 92), baloot_seat=0, declarations=((0, (project("sira", "AD KD QD"),)),)
    )
    assert result.bidder_failed
    assert result.awarded_team == 0
    assert result.points == (0, 16 + 2 + 2)


def test_E82_sun_kaboot_44() -> None:
    """E82 (R39): Sun, bidder A takes all 8 tricks (130/0), face-up not an Ace: 44/0."""
    result = score(SUN, (130, 0), tricks=(8, 0), face_up="KH")
    assert (result.kaboot, result.points, result.bidder_failed) == (0, (44, 0), False)


def test_E83_sun_kaboot_on_ace_88() -> None:
    """E83 (R39): the same with a face-up Ace: 88/0."""
    assert score(SUN, (130, 0), tricks=(8, 0), face_up="AH").points == (88, 0)


def test_E84_hokum_kaboot_44() -> None:
    """E84 (R39): Hokum, bidder A takes all 8 (162/0): 44/0."""
    assert score(HOKUM, (162, 0), tricks=(8, 0)).points == (44, 0)


def test_R39_opponents_kaboot_takes_projects_and_baloot_times_m() -> None:
    """R39, R41.2: B sweeps A's Hokum at x2: B = (44 + all awarded projects) x 2 + all Baloot;
    the 88 applies only to the bidding team; the bidder counts as failed."""
    result = score(
        HOKUM,
        (0, 162),
        tricks=(0, 8),
        declarations=((0, (project("sira", "AD KD QD"),)),),
        baloot_seat=2,
        multiplier=2,
        face_up="AH",
    )
    assert result.kaboot == 1 and result.bidder_failed
    assert result.points == (0, (44 + 2) * 2 + 2)


def test_E88_hokum_x2_success_32_0() -> None:
    """E88 (R40): Hokum x2, A 100/62 success: 16 x 2 = 32/0."""
    assert score(HOKUM, (100, 62), multiplier=2).points == (32, 0)


def test_E89_hokum_x2_failure_0_32() -> None:
    """E89 (R40): Hokum x2, A 70/92, failure: 0/32."""
    result = score(HOKUM, (70, 92), multiplier=2)
    assert (result.bidder_failed, result.points) == (True, (0, 32))


def test_E90_hokum_x3_with_100_and_baloot_80_0() -> None:
    """E90 (R40, R41): x3, A 100/62, A awarded a 100 (10) and A's Baloot: (16+10)x3+2 = 80/0."""
    result = score(
        HOKUM,
        (100, 62),
        declarations=((0, (project("100", "KS KH KD KC"),)),),
        baloot_seat=2,
        multiplier=3,
    )
    assert result.points == (80, 0)


def test_R40_opponents_keep_own_baloot_when_bidder_wins_doubled() -> None:
    """R40, R41: x2 success: the opponents score 0 plus their own Baloot; never multiplied."""
    assert score(HOKUM, (100, 62), multiplier=2, baloot_seat=1).points == (32, 2)
    assert score(SUN, (80, 50), multiplier=4).points == (104, 0)


def test_R43_gahwa_round_adds_no_points_and_names_a_winner() -> None:
    """R43: kaboot team, else the bidder if it succeeded, else the opponents."""
    ok = score(HOKUM, (100, 62), multiplier=4, gahwa=True)
    assert (ok.gahwa_winner, ok.points) == (0, (0, 0))
    lost = score(HOKUM, (70, 92), multiplier=4, gahwa=True)
    assert lost.gahwa_winner == 1
    swept = score(HOKUM, (0, 162), tricks=(0, 8), multiplier=4, gahwa=True)
    assert swept.gahwa_winner == 1


# --- Kaboot through play: seat 1 holds all eight spades and leads every trick. -------------


def sweep(face_up: str, script: str) -> GameState:
    state = calls(dealt(SWEEP_HANDS, recipient=1, face_up=face_up), script)
    if state.phase is Phase.DOUBLING:
        state = doubles(state, "2 pass, 0 pass")
    return play_out(state)


def test_E82_E83_E84_kaboot_through_play() -> None:
    """E82, E83, E84 (R39, R41) through apply: seat 1 (team B) sweeps its own contract: Sun 44,
    Sun on a face-up Ace 88, Hokum 44 plus seat 1's Baloot (it holds the trump K+Q)."""
    sun = sweep("7S", "1 sun").history[-1].result
    assert (sun.abnat, sun.kaboot, sun.points) == ((0, 130), 1, (0, 44))
    ace = sweep("AS", "1 sun").history[-1].result
    assert ace.points == (0, 88)
    hokum = sweep("7S", "1 hokum, 2 pass, 3 pass, 0 pass, 1 hokum").history[-1].result
    assert (hokum.abnat, hokum.baloot, hokum.points) == ((0, 162), (1,), (0, 44 + 2))
