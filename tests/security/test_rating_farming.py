"""Issue 23, "Ratings can be farmed": four colluding accounts at a private table, one team
resigning before a card was played, were rated every time; after four such matches one of
them led both the all-time and the weekly leaderboard. Each finding replayed:

- a match that ends before its first round is played out (resigned, adjudicated, aborted;
  a redeal is not a round played out) rates no one, and the boards do not move;
- a private table is casual unless created with ``rated: true``; quick play is rated; a
  rematch is what its original was;
- two accounts on opposite teams meet in at most ``RATED_MEETINGS_PER_DAY`` (3) rated
  matches in a rolling 24 hours: the next table of theirs starts casual (``rated: false``
  in its view) and moves no rating, whoever their partners are;
- an account beating the same opponent in ``ONE_SIDED_FLAG_WINS`` (5) rated matches and
  ``ONE_SIDED_FLAG_SHARE`` (80%) of their meetings within ``ONE_SIDED_FLAG_DAYS`` (7) days
  raises one moderation flag, those matches as evidence, and the same results never raise a
  second one; a farm that throws a match now and then is flagged all the same.

Time is the injected clock (``core.clock``): matches start at ``clock.now()``, and the
windows are counted from the starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match
from moderation import services as moderation
from moderation.models import Flag, FlagEvidence, FlagKind
from players.models import Rating, RatingChange, WeeklyGain
from players.selectors.ratings import week_of
from tests.support.api import API, match_url, play_a_round_out, view_of
from tests.support.clock import FakeClock
from tests.support.players import Player, create_match

Table = Callable[..., tuple[dict[str, Any], list[Player]]]
DAY = 24 * 3600


@pytest.fixture(autouse=True)
def _clock(clock: FakeClock) -> FakeClock:
    return clock


def seat(players: list[Player], **options: Any) -> dict[str, Any]:
    """A private table of these four (``players[i]`` in seat i), started; its creator's view."""
    created = create_match(players[0], **options)
    for index, player in enumerate(players[1:], start=1):
        body = {"seat": index, "code": created["invite_code"]}
        joined = player.client.post(match_url(created["id"], "/join"), body, format="json")
        assert joined.status_code == 200, joined.content
    view = view_of(players[0], created["id"])
    assert view["status"] == "active"
    return view


def resign(player: Player, match_id: int) -> dict[str, Any]:
    response = player.client.post(match_url(match_id, "/resign"), format="json")
    assert response.status_code == 200, response.content
    return dict(response.json())


def boards() -> tuple[Any, Any]:
    anon = APIClient()
    week = anon.get(f"{API}/leaderboards/gamerules?period=week")
    every = anon.get(f"{API}/leaderboards/gamerules?period=all")
    assert week.status_code == every.status_code == 200
    return every.json(), week.json()


def seed_board(make_player: Callable[..., Player]) -> None:
    """Two honest players already on both boards, so a farmer would have someone to pass."""
    for name, ordinal, gained in (("honest1", 12.0, 4.0), ("honest2", 8.0, 2.5)):
        player = make_player(name)
        Rating.objects.create(
            user=player.user,
            ruleset="gamerules",
            mu=ordinal + 25,
            ordinal=ordinal,
            rated_matches=20,
        )
        WeeklyGain.objects.create(
            user=player.user,
            ruleset="gamerules",
            week=week_of(timezone.now()),
            gained=gained,
            matches=2,
        )


def rated_change_count() -> int:
    return RatingChange.objects.count()


# --- 1. No round played out, no rating --------------------------------------------------------


def test_four_accounts_resigning_before_a_card_is_played_move_no_rating(
    make_player: Callable[..., Player],
) -> None:
    seed_board(make_player)
    before = boards()
    ratings_before = list(Rating.objects.order_by("pk").values_list("user_id", "ordinal"))
    farm = [make_player() for _ in range(4)]
    for n in range(4):
        view = seat(farm, rated=True)
        # Asked rated, four humans: rated when it starts, until these opponents have started
        # their three rated matches of the day (every rated start counts toward it).
        assert view["rated"] is (n < 3)
        assert view["round"]["phase"] == "bidding" and view["round"]["tricks_played"] == 0
        resign(farm[1], view["id"])  # team 1 gives the match away before a card is played
        match = Match.objects.get(pk=view["id"])
        assert (match.status, match.winner_team, match.end_reason) == ("finished", 0, "resigned")
        assert not RatingChange.objects.filter(match_id=view["id"]).exists()
    assert not Rating.objects.filter(user__in=[p.user for p in farm]).exists()
    assert list(Rating.objects.order_by("pk").values_list("user_id", "ordinal")) == ratings_before
    assert not WeeklyGain.objects.filter(user__in=[p.user for p in farm]).exists()
    assert boards() == before


def test_a_staff_adjudication_or_abort_before_the_first_round_rates_no_one(
    make_player: Callable[..., Player],
) -> None:
    farm = [make_player() for _ in range(4)]
    staff = make_player()
    view = seat(farm, rated=True)
    moderation.match_adjudicate(
        moderator=staff.user, match_id=view["id"], winner_team=0, reason="asked to"
    )
    view = seat(farm, rated=True)
    moderation.match_abort(moderator=staff.user, match_id=view["id"], reason="asked to")
    assert rated_change_count() == 0 and not Rating.objects.exists()


def test_a_redeal_is_not_a_round_played_out(make_player: Callable[..., Player]) -> None:
    farm = [make_player() for _ in range(4)]
    view = seat(farm, rated=True)
    match_id = view["id"]
    while view_of(farm[0], match_id)["round"]["number"] == 1:  # everybody passes: a redeal
        to_act = view_of(farm[0], match_id)["round"]["to_act"]
        move = {"type": "bid", "call": "pass"}
        response = farm[to_act].client.post(match_url(match_id, "/moves"), move, format="json")
        assert response.status_code == 201, response.content
    resign(farm[1], match_id)
    assert rated_change_count() == 0


# --- 2. Casual by default, quick play rated, rematches as their original ----------------------


def test_a_private_table_is_casual_by_default(table: Table) -> None:
    view, players = table()
    assert view["rated"] is False
    listed = players[0].client.get(f"{API}/matches").json()["results"]
    assert [m["rated"] for m in listed] == [False]
    play_a_round_out(players, view["id"])
    assert resign(players[1], view["id"])["rated"] is False
    assert rated_change_count() == 0 and not Rating.objects.exists()


def test_rated_must_be_a_boolean(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    response = creator.client.post(f"{API}/matches", {"rated": "yes"}, format="json")
    assert response.status_code == 400, response.content
    assert not Match.objects.exists()


def test_quick_play_is_rated(make_player: Callable[..., Player]) -> None:
    players = [make_player() for _ in range(4)]
    body: dict[str, Any] = {}
    for player in players:
        answer = player.client.post(
            f"{API}/matchmaking",
            {"ruleset": "gamerules", "turn_seconds": 30, "bots_after_seconds": None},
            format="json",
        )
        assert answer.status_code == 201, answer.content
        body = answer.json()
    match_id = body["match_id"]
    assert match_id is not None and view_of(players[0], match_id)["rated"] is True
    by_user = {p.id: p for p in players}
    match = Match.objects.get(pk=match_id)
    by_seat = [by_user[s.user_id] for s in match.seat_list() if s.user_id is not None]
    play_a_round_out(by_seat, match_id)
    resign(by_seat[1], match_id)
    assert RatingChange.objects.filter(match_id=match_id).count() == 4


@pytest.mark.parametrize("rated", [True, False])
def test_a_rematch_is_rated_as_its_original(
    make_player: Callable[..., Player], rated: bool
) -> None:
    players = [make_player() for _ in range(4)]
    view = seat(players, rated=rated)
    resign(players[1], view["id"])
    answer: Any = None
    for player in players:
        answer = player.client.post(match_url(view["id"], "/rematch"), format="json")
        assert answer.status_code in (200, 201), answer.content
    new_id = answer.json()["new_match_id"]
    assert view_of(players[0], new_id)["rated"] is rated
    play_a_round_out(players, new_id)
    resign(players[0], new_id)
    assert RatingChange.objects.filter(match_id=new_id).count() == (4 if rated else 0)


# --- 3. Rated meetings of the same opponents, per rolling day ---------------------------------


def play_rated(players: list[Player], *, loser_seat: int = 1) -> dict[str, Any]:
    """A rated table of these four (seat i = players[i]), a round played out, then the team of
    ``loser_seat`` resigns; the view it started with."""
    view = seat(players, rated=True)
    play_a_round_out(players, view["id"])
    resign(players[loser_seat], view["id"])
    return view


@pytest.mark.slow
def test_the_fourth_rated_match_of_the_same_opponents_in_a_day_is_casual(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    farm = [make_player() for _ in range(4)]
    for _ in range(3):
        assert play_rated(farm)["rated"] is True
        clock.advance(3600)
    assert rated_change_count() == 12
    ratings = {r.user_id: r.ordinal for r in Rating.objects.all()}
    board = boards()

    view = seat(farm, rated=True)
    assert view["rated"] is False  # asked rated; the limit makes it casual from the start
    assert Match.objects.get(pk=view["id"]).rated is False
    play_a_round_out(farm, view["id"])
    resign(farm[1], view["id"])
    assert not RatingChange.objects.filter(match_id=view["id"]).exists()
    assert {r.user_id: r.ordinal for r in Rating.objects.all()} == ratings
    assert boards() == board

    # A rolling day: 24 hours after the first match started, its meeting no longer counts.
    clock.advance(DAY - 3 * 3600 + 1)
    assert play_rated(farm)["rated"] is True
    assert rated_change_count() == 16


@pytest.mark.slow
def test_new_partners_do_not_reset_the_opponents_limit(
    make_player: Callable[..., Player],
) -> None:
    a, b, c, d, e, f = (make_player() for _ in range(6))
    for _ in range(3):
        play_rated([a, c, b, d])  # a and b against c and d
    # New partners for a and c, still opponents: casual. Strangers to each other: rated.
    assert seat([a, c, e, f], rated=True)["rated"] is False
    assert seat([e, a, f, b], rated=True)["rated"] is True  # a and b are partners there


@pytest.mark.slow
def test_a_table_past_the_limit_that_started_rated_is_not_rated_at_the_end(
    make_player: Callable[..., Player],
) -> None:
    """Two tables of the same opponents started in the same instant on PostgreSQL do not see
    each other's start: the finish checks again, counting only the earlier starts."""
    farm = [make_player() for _ in range(4)]
    for _ in range(3):
        play_rated(farm)
    view = seat(farm, rated=True)
    Match.objects.filter(pk=view["id"]).update(rated=True)  # as if it had raced the others
    play_a_round_out(farm, view["id"])
    resign(farm[1], view["id"])
    assert not RatingChange.objects.filter(match_id=view["id"]).exists()
    assert rated_change_count() == 12


# --- 4. One-sided results flagged to the moderators -------------------------------------------


@pytest.mark.slow
def test_repeated_one_sided_results_raise_one_flag_with_the_matches(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    farm = [make_player() for _ in range(4)]  # seats 0 and 2 always win
    match_ids = []
    for day in range(2):
        for _ in range(3 if day == 0 else 2):
            match_ids.append(play_rated(farm)["id"])
            clock.advance(600)
            if len(match_ids) < 5:
                assert not Flag.objects.exists()
        clock.advance(DAY)
    (flag,) = Flag.objects.all()
    assert flag.kind == FlagKind.ONE_SIDED_RESULTS and flag.status == "open"
    assert flag.match_id == match_ids[-1] and flag.ruleset == "gamerules"
    evidence = set(FlagEvidence.objects.filter(flag=flag).values_list("match_id", flat=True))
    assert evidence == set(match_ids)
    pairs = set(FlagEvidence.objects.values_list("winner_id", "loser_id"))
    winners, losers = (farm[0].id, farm[2].id), (farm[1].id, farm[3].id)
    assert pairs == {(w, lo) for w in winners for lo in losers}

    # One more win: the same wins and one new match, not a second flag.
    match_ids.append(play_rated(farm)["id"])
    assert Flag.objects.count() == 1

    # A moderator settles it; the log records it.
    staff = make_player()
    moderation.flag_settle(moderator=staff.user, flag_id=flag.pk, upheld=False, reason="friends")
    flag.refresh_from_db()
    assert flag.status == "dismissed" and flag.resolved_by == staff.user


@pytest.mark.slow
def test_a_farm_that_throws_a_match_now_and_then_is_flagged_all_the_same(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    """Tried as an attacker would: W W W, then a day later L W W, then W W: 7 wins of 8 and,
    with a rule of an unbroken streak, no flag ever."""
    farm = [make_player() for _ in range(4)]  # seats 0 and 2 win but for one match
    days = [[1, 1, 1], [0, 1, 1], [1, 1]]
    wins = []
    for day in days:
        for seats_0_and_2_win in day:
            match_id = play_rated(farm, loser_seat=1 if seats_0_and_2_win else 0)["id"]
            if seats_0_and_2_win:
                wins.append(match_id)
            clock.advance(600)
        clock.advance(DAY)
    (flag,) = Flag.objects.all()
    # Raised by the fifth win (five of six meetings), those five wins its evidence.
    assert flag.match_id == wins[4]
    evidence = set(FlagEvidence.objects.filter(flag=flag).values_list("match_id", flat=True))
    assert evidence == set(wins[:5])


@pytest.mark.slow
def test_alternating_results_raise_no_flag(
    make_player: Callable[..., Player], clock: FakeClock
) -> None:
    farm = [make_player() for _ in range(4)]
    for n in range(6):
        play_rated(farm, loser_seat=n % 2)
        clock.advance(DAY // 2)
    assert rated_change_count() == 24 and not Flag.objects.exists()
