"""The inbox pages on its real order (issue 9: "the inbox cursor orders on a key DRF cannot
position on, so its pages shift while turns change").

``GET /me/matches`` orders by (my turn first, deadline, most recently updated, id). DRF's
cursor positioned on the first key only and counted an offset through its ties, so as soon as
a match changed between two pages, matches that did not change were skipped or listed twice.
The keyset cursor continues strictly after the last row's full key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from games.models import Match, MatchStatus, Seat
from games.services import state as services  # where the first dealer is drawn
from tests.support.api import API, match_url
from tests.support.players import Player, create_match

NO_DEADLINE = datetime(9999, 12, 31, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def walk(player: Player, page_size: int, between: Callable[[], None] | None = None) -> list[int]:
    """Every id the inbox lists, following ``next``; ``between`` runs after the first page."""
    ids: list[int] = []
    url: str | None = f"{API}/me/matches?page_size={page_size}"
    while url:
        response = player.client.get(url)
        assert response.status_code == 200, response.content
        page = response.json()
        assert len(page["results"]) <= page_size
        ids += [m["id"] for m in page["results"]]
        url = page["next"]
        if between is not None:
            between()
            between = None
    return ids


def expected_order(player: Player) -> list[int]:
    """The inbox order, computed here from the stored rows (not by the query under test)."""
    rows = []
    for seat in Seat.objects.filter(user=player.user).select_related("match"):
        match = seat.match
        mine = match.status == MatchStatus.ACTIVE and match.to_act == seat.index and not seat.away
        deadline = match.deadline or NO_DEADLINE
        rows.append(((-int(mine), deadline, -(match.updated_at - EPOCH), -match.pk), match.pk))
    return [pk for _, pk in sorted(rows)]


def _seat_others(match: dict[str, Any], others: list[Player]) -> None:
    for seat, other in enumerate(others, start=1):
        body: dict[str, Any] = {"seat": seat}
        if match.get("invite_code"):
            body["code"] = match["invite_code"]
        response = other.client.post(match_url(match["id"], "/join"), body, format="json")
        assert response.status_code == 200, response.content


@pytest.fixture
def busy_player(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> tuple[Player, list[Player]]:
    """A player in 12 matches in every inbox state: waiting, their turn with near and far
    deadlines, someone else's turn, a bot's turn, finished; with ties on every key."""
    me = make_player()
    others = [make_player() for _ in range(3)]
    dealer = {"seat": 0}
    # The first dealer decides who acts first: dealer 3 gives seat 0 (me) the first call.
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: dealer["seat"] % n)
    for _ in range(4):
        create_match(me)  # waiting: not my turn, no deadline
    for first_dealer, turn_seconds in [(3, 600), (3, 60), (3, 86400), (0, 600), (1, 600)]:
        dealer["seat"] = first_dealer
        _seat_others(create_match(me, turn_seconds=turn_seconds), others)
    for first_dealer in (3, 0):
        dealer["seat"] = first_dealer
        create_match(me, bots={"1": "easy", "2": "easy", "3": "normal"})
    dealer["seat"] = 3
    finished = create_match(me)
    _seat_others(finished, others)
    assert others[0].client.post(match_url(finished["id"], "/resign")).status_code == 200
    # Exact ties on the later keys too: two waiting matches updated at the same instant, and
    # two of my turns with the same deadline.
    waiting = list(Match.objects.filter(status=MatchStatus.WAITING).order_by("pk")[:2])
    Match.objects.filter(pk__in=[m.pk for m in waiting]).update(updated_at=waiting[0].updated_at)
    mine = [m for m in Match.objects.filter(status=MatchStatus.ACTIVE) if m.to_act == 0][:2]
    Match.objects.filter(pk__in=[m.pk for m in mine]).update(deadline=mine[0].deadline)
    return me, others


@pytest.mark.parametrize("page_size", [1, 2, 3, 5, 100])
def test_every_match_appears_once_in_the_inbox_order(
    busy_player: tuple[Player, list[Player]], page_size: int
) -> None:
    me, _ = busy_player
    expected = expected_order(me)
    assert len(expected) == 12
    states = set(Match.objects.values_list("status", flat=True))
    assert states == {"waiting", "active", "finished"}
    summaries = me.client.get(f"{API}/me/matches").json()["results"]
    assert sum(m["is_my_turn"] for m in summaries) == 4
    assert walk(me, page_size) == expected


def _joined_public_matches(
    make_player: Callable[..., Player], count: int
) -> tuple[Player, Player, list[int]]:
    """``me`` sits in ``count`` public waiting matches, joined in order: all tie on "my
    turn" and "deadline", so only the later keys order them (most recently joined first)."""
    host, me = make_player(), make_player()
    ids = []
    for _ in range(count):
        match = create_match(host, visibility="public")
        assert me.client.post(match_url(match["id"], "/join"), {}, format="json").status_code == 200
        ids.append(match["id"])
    return host, me, ids


def test_a_match_leaving_an_earlier_page_makes_no_later_match_skip(
    make_player: Callable[..., Player],
) -> None:
    _, me, ids = _joined_public_matches(make_player, 6)
    newest_first = ids[::-1]
    assert walk(me, 2) == newest_first

    def leave_the_first() -> None:
        assert me.client.post(match_url(newest_first[0], "/leave")).status_code == 200

    # DRF's cursor kept "offset 2 into the ties", which now starts one match later: it skipped
    # the third match. The keyset cursor continues after the second.
    assert walk(me, 2, between=leave_the_first) == newest_first[:2] + newest_first[2:]


def test_a_match_jumping_ahead_makes_no_other_match_repeat(
    make_player: Callable[..., Player],
) -> None:
    _, me, ids = _joined_public_matches(make_player, 6)
    newest_first = ids[::-1]
    oldest = newest_first[-1]
    latecomer = make_player()

    def someone_joins_the_oldest() -> None:
        join = latecomer.client.post(match_url(oldest, "/join"), {}, format="json")
        assert join.status_code == 200

    walked = walk(me, 2, between=someone_joins_the_oldest)
    # The joined match moved to the top (a refresh shows it); every other match is listed
    # exactly once, in order. DRF's cursor listed the second match again on page 2.
    assert len(walked) == len(set(walked)), walked
    assert [pk for pk in walked if pk != oldest] == newest_first[:-1]
    assert walk(me, 2)[0] == oldest


def test_a_turn_change_between_pages_skips_no_unchanged_match(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    me = make_player()
    others = [make_player() for _ in range(3)]
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: 0)  # seat 1 acts first
    ids = []
    for _ in range(5):
        match = create_match(me)
        _seat_others(match, others)
        ids.append(match["id"])
    before = expected_order(me)  # by deadline: the oldest match first

    def seat_one_passes_in_the_first_match() -> None:
        # Seat 1 passes in the match listed first: seat 2 is to act with a fresh deadline, so
        # that match moves from the first page to the end of the list.
        response = others[0].client.post(
            match_url(before[0], "/moves"), {"type": "bid", "call": "pass"}, format="json"
        )
        assert response.status_code == 201, response.content

    walked = walk(me, 2, between=seat_one_passes_in_the_first_match)
    # The moved match is listed again at its new place; every other match exactly once, in
    # order. DRF's cursor, still "offset 2 into the ties", skipped the third match.
    assert [pk for pk in walked if pk != before[0]] == before[1:], (walked, before)
    assert walked[-1] == before[0]
