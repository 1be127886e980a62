"""Lists: cursor pagination, the status filter, the lobby, the inbox's order, /me statistics,
and the per-user rate limits on moves and joins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from games import services
from games.models import Match
from tests.support.api import API, assert_problem, fingerprint, fix_deal, match_url, post_move
from tests.support.players import Player


def new_match(creator: Player, **options: Any) -> Match:
    return services.match_create(creator=creator.user, **options)


def seat_all(match: Match, players: dict[int, Player]) -> Match:
    """Fill the given seats (by index) through the join service."""
    for seat, player in players.items():
        services.match_join(match_id=match.pk, user=player.user, seat=seat, code=match.invite_code)
    match.refresh_from_db()
    return match


def ids(page: dict[str, Any]) -> list[int]:
    return [item["id"] for item in page["results"]]


# --- Pagination and the status filter --------------------------------------------------------


def test_matches_are_listed_newest_first_in_pages_linked_by_absolute_next_urls(
    make_player: Callable[..., Player],
) -> None:
    me = make_player()
    created = [new_match(me).pk for _ in range(5)]
    url: str | None = f"{API}/matches?page_size=2"
    seen: list[int] = []
    sizes = []
    while url:
        page = me.client.get(url).json()
        assert set(page) == {"results", "next"}
        sizes.append(len(page["results"]))
        seen += ids(page)
        url = page["next"]
        if url:
            assert url.startswith("http://testserver/api/v1/matches?")
    assert sizes == [2, 2, 1]
    assert seen == created[::-1]


def test_pages_hold_100_matches_by_default_and_at_most(make_player: Callable[..., Player]) -> None:
    me = make_player()
    for _ in range(101):
        new_match(me)
    default = me.client.get(f"{API}/matches").json()
    assert len(default["results"]) == 100
    assert default["next"] is not None
    capped = me.client.get(f"{API}/matches?page_size=500").json()
    assert len(capped["results"]) == 100
    rest = me.client.get(default["next"]).json()
    assert len(rest["results"]) == 1
    assert rest["next"] is None


def test_a_tampered_cursor_is_404(make_player: Callable[..., Player]) -> None:
    me = make_player()
    assert_problem(me.client.get(f"{API}/matches?cursor=bogus"), 404, "not_found")


def test_the_status_filter_lists_only_matches_in_that_status(
    make_player: Callable[..., Player],
) -> None:
    me, a, b, c = (make_player() for _ in range(4))
    waiting = new_match(me)
    active = seat_all(new_match(me), {1: a, 2: b, 3: c})
    finished = seat_all(new_match(me), {1: a, 2: b, 3: c})
    services.match_resign(match_id=finished.pk, user=a.user)
    aborted = new_match(me, visibility="public")  # once left, only public shows it to me
    services.match_leave(match_id=aborted.pk, user=me.user)
    expected = {
        "waiting": [waiting.pk],
        "active": [active.pk],
        "finished": [finished.pk],
        "aborted": [aborted.pk],
    }
    for status, wanted in expected.items():
        page = me.client.get(f"{API}/matches?status={status}").json()
        assert ids(page) == wanted, status
        assert {item["status"] for item in page["results"]} == {status}
    everything = me.client.get(f"{API}/matches").json()
    assert sorted(ids(everything)) == sorted(m.pk for m in (waiting, active, finished, aborted))


@pytest.mark.parametrize("status", ["playing", "ACTIVE", ""])
def test_an_unknown_status_filter_is_400(make_player: Callable[..., Player], status: str) -> None:
    me = make_player()
    assert_problem(me.client.get(f"{API}/matches?status={status}"), 400, "invalid")


def test_the_list_shows_my_matches_and_public_ones_but_not_others_private_ones(
    make_player: Callable[..., Player],
) -> None:
    me, other = make_player(), make_player()
    mine = new_match(me)
    public = new_match(other, visibility="public")
    hidden = new_match(other)
    seat_all(hidden, {1: me})  # joined with the code: now it is mine too
    secret = new_match(other)
    listed = ids(me.client.get(f"{API}/matches").json())
    assert sorted(listed) == sorted([mine.pk, public.pk, hidden.pk])
    assert secret.pk not in listed


def test_a_summary_carries_my_seat_turn_and_version(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table(visibility="public")
    summaries = {
        seat: players[seat].client.get(f"{API}/matches").json()["results"][0] for seat in range(4)
    }
    for seat, summary in summaries.items():
        assert summary["id"] == view["id"]
        assert summary["my_seat"] == seat
        assert summary["version"] == view["version"]
        assert summary["to_act"] == 1
        assert summary["is_my_turn"] is (seat == 1)
        assert (summary["deadline"] is not None) is (seat == 1)
    outsider = make_player().client.get(f"{API}/matches").json()["results"][0]
    assert outsider["my_seat"] is None
    assert outsider["is_my_turn"] is False
    assert outsider["deadline"] is None


# --- The lobby -------------------------------------------------------------------------------


def test_the_lobby_lists_only_public_waiting_matches_with_a_free_seat(
    make_player: Callable[..., Player],
) -> None:
    me, host, a, b, c = (make_player() for _ in range(5))
    open_public = new_match(host, visibility="public")
    with_bots = new_match(host, visibility="public", bots={1: "easy", 2: "normal"})
    new_match(host)  # private: joined by invitation only
    full = seat_all(new_match(host, visibility="public"), {1: a, 2: b, 3: c})  # started
    new_match(host, visibility="public", bots={1: "easy", 2: "easy", 3: "easy"})  # started
    abandoned = new_match(host, visibility="public")
    services.match_leave(match_id=abandoned.pk, user=host.user)
    lobby = me.client.get(f"{API}/matches/open").json()
    assert sorted(ids(lobby)) == sorted([open_public.pk, with_bots.pk])
    for item in lobby["results"]:
        assert item["status"] == "waiting"
        assert item["visibility"] == "public"
        assert any(seat["empty"] for seat in item["seats"])
    assert full.status == "active"


def test_the_lobby_pages_like_every_list(make_player: Callable[..., Player]) -> None:
    me, host = make_player(), make_player()
    created = [new_match(host, visibility="public").pk for _ in range(3)]
    first = me.client.get(f"{API}/matches/open?page_size=2").json()
    second = me.client.get(first["next"]).json()
    assert ids(first) + ids(second) == created[::-1]
    assert second["next"] is None


# --- The inbox -------------------------------------------------------------------------------


def test_the_inbox_lists_my_turns_first_then_by_deadline(
    monkeypatch: pytest.MonkeyPatch, make_player: Callable[..., Player]
) -> None:
    fix_deal(monkeypatch)  # seat 0 deals: seat 1 bids first in every match
    me = make_player()
    others = [make_player() for _ in range(3)]

    def active(my_seat: int, turn_seconds: int) -> Match:
        match = new_match(others[0], turn_seconds=turn_seconds)
        free = [seat for seat in (1, 2, 3) if seat != my_seat]
        return seat_all(match, {my_seat: me, free[0]: others[1], free[1]: others[2]})

    my_turn_later = active(1, 3600)
    my_turn_sooner = active(1, 600)
    their_turn_sooner = active(2, 120)
    their_turn_later = active(3, 7200)
    waiting = new_match(me)
    finished = active(2, 60)
    services.match_resign(match_id=finished.pk, user=me.user)
    new_match(others[0])  # not mine

    page = me.client.get(f"{API}/me/matches").json()
    assert ids(page) == [
        my_turn_sooner.pk,
        my_turn_later.pk,
        their_turn_sooner.pk,
        their_turn_later.pk,
        # no deadline: after every match that has one, the latest change first
        finished.pk,
        waiting.pk,
    ]
    by_id = {item["id"]: item for item in page["results"]}
    for match in (my_turn_sooner, my_turn_later):
        item = by_id[match.pk]
        assert item["is_my_turn"] is True
        assert item["deadline"] is not None
        assert item["my_seat"] == 1
        assert item["version"] == Match.objects.get(pk=match.pk).version
    for match in (their_turn_sooner, their_turn_later, waiting, finished):
        assert by_id[match.pk]["is_my_turn"] is False
        assert by_id[match.pk]["deadline"] is None
    walked: list[int] = []
    url: str | None = f"{API}/me/matches?page_size=2"
    while url:
        chunk = me.client.get(url).json()
        walked += ids(chunk)
        url = chunk["next"]
    assert walked == ids(page)  # the cursor keeps the same order across pages


def test_a_move_takes_a_match_off_the_top_of_my_inbox(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    assert players[1].client.get(f"{API}/me/matches").json()["results"][0]["is_my_turn"] is True
    assert post_move(players[1], view["id"], {"type": "bid", "call": "pass"}).status_code == 201
    mine = players[1].client.get(f"{API}/me/matches").json()["results"][0]
    assert mine["is_my_turn"] is False
    assert mine["version"] == view["version"] + 1
    assert players[2].client.get(f"{API}/me/matches").json()["results"][0]["is_my_turn"] is True


# --- /me statistics --------------------------------------------------------------------------


def test_me_counts_a_resignation_as_a_loss_for_the_resigning_team_and_a_win_for_the_other(
    table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = table()
    new_match(players[0])  # a waiting match is not played yet
    response = players[1].client.post(match_url(view["id"], "/resign"))
    assert response.status_code == 200
    for seat, player in enumerate(players):
        stats = player.client.get(f"{API}/me").json()["stats"]
        won = seat % 2 == 0
        assert stats == {
            "played": 1,
            "finished": 1,
            "won": int(won),
            "lost": int(not won),
            "resigned": int(not won),
            "abandoned": 0,
            "timeouts": 0,
        }, seat


# --- Rate limits -------------------------------------------------------------------------


@pytest.fixture
def tight_rates(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "moves": "3/min", "join": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    # The stubs type the rates as numbers; DRF's rates are strings like "3/min".
    assert api_settings.DEFAULT_THROTTLE_RATES["moves"] == "3/min"  # type: ignore[comparison-overlap]
    # ScopedRateThrottle copied the rates when its module was imported.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()


def assert_throttled(response: Any) -> None:
    assert_problem(response, 429, "throttled")
    wait = response["Retry-After"]
    assert wait.isdigit(), wait
    assert 1 <= int(wait) <= 60


def test_a_burst_of_moves_is_429_with_retry_after_and_changes_nothing(
    tight_rates: None, hokum_table: Callable[..., Any]
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    for _ in range(3):  # refused or not, every move counts against the caller's budget
        assert_problem(
            post_move(players[2], match_id, {"type": "bid", "call": "pass"}), 422, "not_your_turn"
        )
    before = fingerprint(match_id)
    assert_throttled(post_move(players[2], match_id, {"type": "bid", "call": "pass"}))
    assert fingerprint(match_id) == before
    # The limit is per user: the seat to act still moves, and reads are not moves.
    assert post_move(players[1], match_id, {"type": "bid", "call": "pass"}).status_code == 201
    assert players[2].client.get(match_url(match_id)).status_code == 200
    assert post_move(players[2], match_id, {"type": "bid", "call": "hokum"}).status_code == 429


def test_a_burst_of_joins_is_429_with_retry_after(
    tight_rates: None, make_player: Callable[..., Player]
) -> None:
    me, host = make_player(), make_player()
    matches = [new_match(host, visibility="public") for _ in range(3)]
    for match in matches[:2]:
        response = me.client.post(match_url(match.pk, "/join"), {}, format="json")
        assert response.status_code == 200, response.content
    before = fingerprint(matches[2].pk)
    assert_throttled(me.client.post(match_url(matches[2].pk, "/join"), {}, format="json"))
    assert fingerprint(matches[2].pk) == before
    other = make_player().client.post(match_url(matches[2].pk, "/join"), {}, format="json")
    assert other.status_code == 200
