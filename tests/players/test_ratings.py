"""Ratings move in the transaction that finishes a rated match (openskill, per ruleset): the
winners gain, the losers lose, one history row each; tables with bots and aborted matches are
unrated; a seat handed to a bot still counts for the human who started in it.

Every match here is created rated and has a round played out before it ends: a casual table,
or one that ends before its first round, rates no one (tests/security/test_rating_farming.py)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.models import Match
from moderation import services as moderation
from players.models import RatedSeat, Rating, RatingChange, WeeklyGain
from players.models.ratings import DEFAULT_MU, DEFAULT_SIGMA
from players.services import ratings as rating_service
from tests.support.api import match_url, play_a_round_out
from tests.support.players import Player, create_match

PRIOR = DEFAULT_MU - 3 * DEFAULT_SIGMA
Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def resign(player: Player, match_id: int) -> None:
    response = player.client.post(match_url(match_id, "/resign"), format="json")
    assert response.status_code == 200, response.content


def rating(player: Player, ruleset: str = "gamerules") -> Rating:
    return Rating.objects.get(user=player.user, ruleset=ruleset)


def test_a_finished_all_human_match_moves_every_rating(table: Table) -> None:
    view, players = table(rated=True)
    assert view["rated"] is True
    play_a_round_out(players, view["id"])
    resign(players[1], view["id"])  # team 1 resigns: team 0 (seats 0 and 2) wins
    winners, losers = [players[0], players[2]], [players[1], players[3]]
    for p in winners:
        r = rating(p)
        assert r.ordinal > PRIOR and r.mu > DEFAULT_MU and r.rated_matches == 1
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
    for p in losers:
        r = rating(p)
        assert r.ordinal < PRIOR and r.mu < DEFAULT_MU and r.rated_matches == 1
    changes = RatingChange.objects.filter(match_id=view["id"])
    assert changes.count() == 4
    for change in changes:
        assert change.won == (change.user_id in {p.id for p in winners})
        assert change.ordinal_before == pytest.approx(PRIOR)
        assert change.ordinal_after == pytest.approx(rating_of(change.user_id).ordinal)
        assert change.ruleset == "gamerules"


def rating_of(user_id: int) -> Rating:
    return Rating.objects.get(user_id=user_id, ruleset="gamerules")


def test_the_next_match_starts_from_the_ratings_the_last_one_left(table: Table) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    resign(players[1], view["id"])
    after_first = {p.id: rating(p).ordinal for p in players}
    created = create_match(players[0], rated=True)
    for seat, p in enumerate(players[1:], start=1):
        body = {"seat": seat, "code": created["invite_code"]}
        joined = p.client.post(match_url(created["id"], "/join"), body, format="json")
        assert joined.status_code == 200, joined.content
    play_a_round_out(players, created["id"])
    resign(players[0], created["id"])  # now team 1 wins
    for change in RatingChange.objects.filter(match_id=created["id"]):
        assert change.ordinal_before == pytest.approx(after_first[change.user_id])
    assert rating(players[0]).rated_matches == 2
    assert rating(players[1]).ordinal > after_first[players[1].id]
    gains = WeeklyGain.objects.get(user=players[1].user, ruleset="gamerules")
    deltas = [c.delta for c in RatingChange.objects.filter(user=players[1].user)]
    assert gains.matches == 2 and gains.gained == pytest.approx(sum(deltas))


def test_a_table_with_a_bot_at_the_start_is_unrated(make_player: Callable[..., Player]) -> None:
    players = [make_player() for _ in range(3)]
    created = create_match(players[0], bots={"3": "easy"}, rated=True)
    for seat, p in enumerate(players[1:], start=1):
        body = {"seat": seat, "code": created["invite_code"]}
        joined = p.client.post(match_url(created["id"], "/join"), body, format="json")
        assert joined.status_code == 200, joined.content
    started = Match.objects.get(pk=created["id"])
    # Asked rated, but a bot sits at it: casual from the start, and says so.
    assert started.status == "active" and started.rated is False
    assert players[0].client.get(match_url(created["id"])).json()["rated"] is False
    resign(players[1], created["id"])
    assert Match.objects.get(pk=created["id"]).status == "finished"
    assert not Rating.objects.filter(user__in=[p.user for p in players]).exists()
    assert not RatingChange.objects.exists() and not RatedSeat.objects.exists()


def test_an_aborted_match_is_unrated(table: Table, make_player: Callable[..., Player]) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    staff = make_player()
    moderation.match_abort(moderator=staff.user, match_id=view["id"], reason="server fault")
    assert Match.objects.get(pk=view["id"]).status == "aborted"
    assert not Rating.objects.filter(user__in=[p.user for p in players]).exists()
    assert not RatingChange.objects.exists()


def test_a_seat_handed_to_a_bot_still_loses_for_its_human(
    table: Table, make_player: Callable[..., Player]
) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    staff = make_player()
    moderation.match_seat_to_bot(
        moderator=staff.user, match_id=view["id"], seat=3, reason="left the table"
    )
    moderation.match_adjudicate(
        moderator=staff.user, match_id=view["id"], winner_team=0, reason="abandoned"
    )
    assert Match.objects.get(pk=view["id"]).seats.get(index=3).user_id is None
    gone = rating(players[3])
    assert gone.rated_matches == 1 and gone.ordinal < PRIOR
    assert RatingChange.objects.get(match_id=view["id"], user=players[3].user).won is False
    assert rating(players[0]).ordinal > PRIOR


def test_provisional_until_ten_rated_matches(table: Table) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    for p, done in zip(players, (8, 9, 0, 30), strict=True):
        Rating.objects.create(user=p.user, ruleset="gamerules", rated_matches=done)
    resign(players[1], view["id"])
    provisional = {}
    for p in players:
        body = p.client.get(f"/api/v1/players/{p.user.username}").json()
        (entry,) = body["ratings"]
        provisional[p.id] = (entry["rated_matches"], entry["provisional"])
    assert [provisional[p.id] for p in players] == [(9, True), (10, False), (1, True), (31, False)]


def test_a_failing_rating_update_rolls_back_the_finish(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, players = table(rated=True)
    play_a_round_out(players, view["id"])
    version = Match.objects.get(pk=view["id"]).version

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("ratings down")

    monkeypatch.setattr(rating_service, "_weekly_add", broken)
    with pytest.raises(RuntimeError):
        players[1].client.post(match_url(view["id"], "/resign"), format="json")
    match = Match.objects.get(pk=view["id"])
    assert (match.status, match.winner_team, match.version) == ("active", None, version)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not WeeklyGain.objects.exists()


def _seated(players: list[Player], order: list[int]) -> int:
    """A new active rated match of these four players, ``order[i]`` in seat i, with a round
    played out."""
    created = create_match(players[order[0]], rated=True)
    for seat, index in enumerate(order[1:], start=1):
        body = {"seat": seat, "code": created["invite_code"]}
        joined = players[index].client.post(match_url(created["id"], "/join"), body, format="json")
        assert joined.status_code == 200, joined.content
    play_a_round_out([players[i] for i in order], created["id"])
    return int(created["id"])


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_matches_ending_at_once_with_the_same_players_lose_no_update(
    make_player: Callable[..., Player],
) -> None:
    players = [make_player() for _ in range(4)]
    orders = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]]
    match_ids = [_seated(players, order) for order in orders]
    barrier = threading.Barrier(len(match_ids))
    statuses: list[int] = [0] * len(match_ids)

    def finish(i: int) -> None:
        try:
            barrier.wait()
            resigner = players[orders[i][1]]
            url = match_url(match_ids[i], "/resign")
            statuses[i] = resigner.client.post(url, format="json").status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(len(match_ids))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200, 200, 200]
    for p in players:
        r = rating(p)
        assert r.rated_matches == 3
        # Each change starts where the one before it ended: no update was lost to a race.
        chain = list(RatingChange.objects.filter(user=p.user).order_by("id"))
        assert len(chain) == 3
        assert chain[0].ordinal_before == pytest.approx(PRIOR)
        for earlier, later in itertools.pairwise(chain):
            assert later.mu_before == pytest.approx(earlier.mu_after)
            assert later.sigma_before == pytest.approx(earlier.sigma_after)
        assert chain[-1].ordinal_after == pytest.approx(r.ordinal)
