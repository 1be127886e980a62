"""The pairing rules against hand-worked examples (tournaments/pairing.py, docs/tournaments.md)."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing import (
    NoPairing,
    Result,
    bracket_size,
    had_bye,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    opponents,
    seed_order,
    standings,
    swiss_round,
)


def test_the_bracket_is_the_next_power_of_two() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 256)] == [2, 4, 4, 8, 8, 16, 256]
    assert [knockout_rounds(n) for n in (2, 3, 5, 256)] == [1, 2, 3, 8]
    with pytest.raises(ValueError):
        bracket_size(1)


def test_seeds_are_placed_so_the_top_two_meet_only_in_the_final() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_order(16)
    assert sorted(order) == list(range(1, 17))
    assert 1 in order[:8] and 2 in order[8:]  # different halves
    assert all(a + b == 17 for a, b in zip(order[::2], order[1::2], strict=True))


def test_a_field_of_five_gives_the_top_three_seeds_byes() -> None:
    # Bracket of 8: (1, 8) (4, 5) (2, 7) (3, 6); seeds 6, 7 and 8 are not there.
    pairs = knockout_first_round([10, 20, 30, 40, 50])
    assert pairs == [(10, None), (40, 50), (20, None), (30, None)]


def test_a_field_of_six_has_two_byes_that_never_meet_each_other() -> None:
    pairs = knockout_first_round([1, 2, 3, 4, 5, 6])
    assert pairs == [(1, None), (4, 5), (2, None), (3, 6)]
    # The winners in bracket order meet their neighbours: 1 against the 4-5 winner.
    assert knockout_next_round([1, 5, 2, 3]) == [(1, 5), (2, 3)]
    with pytest.raises(ValueError):
        knockout_next_round([1, 2, 3])


def test_a_full_bracket_of_256_has_no_bye_and_seeds_one_and_256_meet() -> None:
    pairs = knockout_first_round(list(range(1, 257)))
    assert len(pairs) == 128 and all(b is not None for _, b in pairs)
    assert pairs[0] == (1, 256)


def test_standings_rank_by_points_then_buchholz() -> None:
    results = [
        Result(1, 2, winner=1, score_a=152, score_b=80),
        Result(3, 4, winner=3, score_a=152, score_b=140),
        Result(1, 3, winner=1, score_a=160, score_b=100),
        Result(4, 2, winner=4, score_a=152, score_b=150),
    ]
    table = standings([1, 2, 3, 4], results)
    # Points 1:2, 3:1, 4:1, 2:0. Buchholz: 3 met 4 and 1 (1 + 2 = 3); 4 met 3 and 2 (1 + 0).
    assert [(s.team, s.points, s.buchholz, s.difference) for s in table] == [
        (1, 2, 1, 132),
        (3, 1, 3, -48),
        (4, 1, 1, -10),
        (2, 0, 3, -74),
    ]


def test_equal_points_and_buchholz_go_to_the_point_difference_then_the_seed() -> None:
    results = [
        Result(1, 2, winner=1, score_a=152, score_b=100),
        Result(3, 4, winner=3, score_a=152, score_b=70),
    ]
    table = standings([1, 2, 3, 4], results)
    assert [s.team for s in table] == [3, 1, 2, 4]  # +82 before +52; -52 before -82
    level = [
        Result(1, 2, winner=1, score_a=152, score_b=100),
        Result(3, 4, winner=3, score_a=152, score_b=100),
    ]
    assert [s.team for s in standings([1, 2, 3, 4], level)] == [1, 3, 2, 4]  # by seed


def test_a_bye_is_a_win_with_no_opponent_and_no_points_difference() -> None:
    results = [Result(1, 2, winner=2, score_a=90, score_b=152), Result(3, None, winner=3)]
    table = {s.team: s for s in standings([1, 2, 3], results)}
    assert (table[3].points, table[3].buchholz, table[3].difference) == (1, 0, 0)
    assert had_bye(results) == {3}
    assert opponents(results) == {frozenset((1, 2))}


def test_swiss_pairs_top_down() -> None:
    assert swiss_round([3, 1, 2, 4], {frozenset((1, 2)), frozenset((3, 4))}, set()) == [
        (3, 1),
        (2, 4),
    ]


def test_swiss_backtracks_rather_than_repeat_a_pairing() -> None:
    # 1 v 2 would leave 3 v 4, who have met: the search goes back and pairs 1 v 3, 2 v 4.
    assert swiss_round([1, 2, 3, 4], {frozenset((3, 4))}, set()) == [(1, 3), (2, 4)]


def test_an_odd_field_gives_the_bye_to_the_lowest_without_one() -> None:
    assert swiss_round([1, 2, 3, 4, 5], set(), set()) == [(1, 2), (3, 4), (5, None)]
    assert swiss_round([1, 2, 3, 4, 5], set(), {5}) == [(1, 2), (3, 5), (4, None)]


def test_the_bye_moves_up_when_the_lowest_would_leave_a_rematch() -> None:
    # Without 5 the rest can only pair 1-2, 3-4, which 3 and 4 played: 4 takes the bye.
    met = {frozenset((3, 4)), frozenset((1, 3)), frozenset((2, 3))}
    pairs = swiss_round([1, 2, 3, 4, 5], met, set())
    assert pairs[-1] == (4, None)
    assert not {frozenset(p) for p in pairs if p[1] is not None} & met


def test_a_field_that_has_met_everyone_cannot_be_paired() -> None:
    everyone = {frozenset((a, b)) for a in range(1, 5) for b in range(a + 1, 5)}
    with pytest.raises(NoPairing):
        swiss_round([1, 2, 3, 4], everyone, set())


def test_sixty_four_teams_play_six_rounds_without_a_rematch() -> None:
    rng = random.Random(7)
    seeds = list(range(1, 65))
    results: list[Result] = []
    for _ in range(6):
        ranked = [s.team for s in standings(seeds, results)]
        pairs = swiss_round(ranked, opponents(results), had_bye(results))
        assert sorted(t for p in pairs for t in p if t is not None) == seeds
        for a, b in pairs:
            assert b is not None
            assert frozenset((a, b)) not in opponents(results)
            results.append(Result(a, b, winner=rng.choice((a, b)), score_a=152, score_b=100))
    assert len(opponents(results)) == 6 * 32
