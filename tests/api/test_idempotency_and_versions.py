"""Safe retries (Idempotency-Key), match versions, ETags and the move log's catch-up reads."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.models import IdempotencyRecord, Match, Move
from tests.support.api import (
    assert_problem,
    bid_hokum_round,
    fingerprint,
    legal_step,
    match_url,
    play,
    post_move,
    state_of,
    to_act,
    view_of,
)
from tests.support.players import Player, create_match

PASS = {"type": "bid", "call": "pass"}


def keyed(player: Player, match_id: int, move: dict[str, Any], key: str) -> Any:
    return post_move(player, match_id, move, HTTP_IDEMPOTENCY_KEY=key)


# --- Idempotency ------------------------------------------------------------------------------


def test_the_same_key_and_body_returns_the_first_answer_and_plays_once(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    first = keyed(players[1], match_id, PASS, "retry-1")
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    again = keyed(players[1], match_id, PASS, "retry-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again["ETag"] == first["ETag"]
    assert Move.objects.filter(match_id=match_id).count() == 1
    assert Match.objects.get(pk=match_id).version == view["version"] + 1

    play(players, match_id, 2, {"type": "bid", "call": "hokum"})  # the match moves on
    later = keyed(players[1], match_id, PASS, "retry-1")
    assert later.status_code == 201
    assert later.json() == first.json()  # still the original answer, at the original version
    assert Move.objects.filter(match_id=match_id).count() == 2


def test_the_same_key_with_another_body_is_422_and_changes_nothing(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    assert keyed(players[1], match_id, PASS, "k").status_code == 201
    before = fingerprint(match_id)
    others = (
        {"type": "bid", "call": "hokum"},
        {**PASS, "expected_version": view["version"]},
        {"type": "play", "card": "8H"},
    )
    for body in others:
        assert_problem(keyed(players[1], match_id, body, "k"), 422, "idempotency_key_reused")
    assert fingerprint(match_id) == before


def test_keys_are_scoped_to_the_caller(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    assert keyed(players[1], match_id, PASS, "shared").status_code == 201
    second = keyed(players[2], match_id, {"type": "bid", "call": "hokum"}, "shared")
    assert second.status_code == 201
    assert "Idempotent-Replayed" not in second
    assert second.json()["my_seat"] == 2
    assert Move.objects.filter(match_id=match_id).count() == 2


def test_keys_are_scoped_to_the_match(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table()
    other = create_match(players[0])
    for seat in (1, 2, 3):
        body = {"seat": seat, "code": other["invite_code"]}
        assert (
            players[seat]
            .client.post(match_url(other["id"], "/join"), body, format="json")
            .status_code
            == 200
        )
    for match_id in (view["id"], other["id"]):
        response = keyed(players[1], match_id, PASS, "same-key")
        assert response.status_code == 201, response.content
        assert "Idempotent-Replayed" not in response
        assert response.json()["id"] == match_id
    assert Move.objects.filter(match_id__in=[view["id"], other["id"]]).count() == 2


def test_a_refused_move_is_not_stored_so_the_fixed_retry_plays(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    match_id = view["id"]
    refusals = (
        ({"type": "bid", "call": "ashkal"}, 422, "illegal_call"),
        ({"type": "bid", "call": "pass", "expected_version": 1}, 409, "stale_version"),
        ({"type": "bid"}, 400, "invalid"),
    )
    for body, status, code in refusals:
        assert_problem(keyed(players[1], match_id, body, "fix-me"), status, code)
    assert not IdempotencyRecord.objects.exists()
    fixed = keyed(players[1], match_id, PASS, "fix-me")
    assert fixed.status_code == 201
    assert "Idempotent-Replayed" not in fixed
    assert IdempotencyRecord.objects.get().key == "fix-me"


def test_a_replay_is_answered_even_after_the_match_has_finished(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    first = keyed(players[1], view["id"], PASS, "late")
    players[3].client.post(match_url(view["id"], "/resign"))
    again = keyed(players[1], view["id"], PASS, "late")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert_problem(keyed(players[1], view["id"], PASS, "new"), 409, "match_not_active")


# --- ETag and If-None-Match ----------------------------------------------------------------


def test_if_none_match_answers_304_until_the_match_changes(
    hokum_table: Callable[..., Any],
) -> None:
    view, players = hokum_table()
    url = match_url(view["id"])
    first = players[0].client.get(url)
    etag = first["ETag"]
    assert etag
    for header in (etag, f'W/"other", {etag}'):
        cached = players[0].client.get(url, HTTP_IF_NONE_MATCH=header)
        assert cached.status_code == 304
        assert cached["ETag"] == etag
        assert cached.content == b""
    play(players, view["id"], 1, PASS)
    changed = players[0].client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert changed.json()["version"] == first.json()["version"] + 1


def test_the_etag_is_per_caller_and_a_moves_etag_matches_the_next_read(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table(visibility="public")
    url = match_url(view["id"])
    tags = {players[s].client.get(url)["ETag"] for s in range(4)}
    outsider = make_player().client
    tags.add(outsider.get(url)["ETag"])
    assert len(tags) == 5  # each seat sees a different match, and so does an outsider
    seat0 = players[0].client.get(url)["ETag"]
    assert players[1].client.get(url, HTTP_IF_NONE_MATCH=seat0).status_code == 200

    posted = post_move(players[1], view["id"], PASS)
    assert posted.status_code == 201
    assert posted["ETag"]
    assert players[1].client.get(url, HTTP_IF_NONE_MATCH=posted["ETag"]).status_code == 304
    assert players[1].client.get(url)["ETag"] == posted["ETag"]


def test_a_refused_move_keeps_the_etag_valid(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    url = match_url(view["id"])
    etag = players[2].client.get(url)["ETag"]
    assert_problem(post_move(players[2], view["id"], PASS), 422, "not_your_turn")
    assert players[2].client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


# --- Versions ----------------------------------------------------------------------------


@pytest.mark.slow
def test_every_state_change_bumps_the_version_by_exactly_one(
    make_player: Callable[..., Player],
) -> None:
    players = [make_player() for _ in range(4)]
    # A target no three rounds reach; doubling is declined below, so no Gahwa ends it early.
    created = create_match(players[0], target=10_000)
    match_id = created["id"]
    version = created["version"]

    def check(response: Any) -> None:
        nonlocal version
        assert response.status_code in (200, 201), response.content
        assert response.json()["version"] == version + 1
        assert Match.objects.get(pk=match_id).version == version + 1
        version += 1

    code = {"code": created["invite_code"]}
    check(players[1].client.post(match_url(match_id, "/join"), code, format="json"))
    check(players[1].client.post(match_url(match_id, "/leave")))
    for seat in (1, 2, 3):  # the third join fills the table and deals: still one step
        check(
            players[seat].client.post(
                match_url(match_id, "/join"), {**code, "seat": seat}, format="json"
            )
        )
    assert Match.objects.get(pk=match_id).status == "active"

    rng = random.Random(3)
    rounds_seen = {state_of(match_id).round_no}
    while len(rounds_seen) < 3:  # across two round ends (each end deals the next round)
        answer = legal_step(players, match_id, rng, declines_doubling=True)
        assert answer["version"] == version + 1
        version += 1
        rounds_seen.add(state_of(match_id).round_no)
    check(players[0].client.post(match_url(match_id, "/resign")))
    versions = list(Move.objects.filter(match_id=match_id).values_list("version", flat=True))
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert versions[-1] == version - 1  # the resignation was the last change


# --- The move log ------------------------------------------------------------------------


def test_the_move_log_after_a_version_lists_the_later_moves_in_order(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table(visibility="public")
    match_id = view["id"]
    start = view["version"]
    bid_hokum_round(players, match_id, [(3, "pass"), (1, "pass")])
    full = players[0].client.get(match_url(match_id, "/moves")).json()
    assert full["version"] == start + 8
    assert [e["version"] for e in full["results"]] == list(range(start + 1, start + 9))
    first = full["results"][0]
    assert first["round"] == 1
    assert first["seat"] == 1
    assert first["actor"] == "human"
    assert first["type"] == "bid"
    assert first["call"] == "pass"
    assert first["created_at"]
    assert [(e["seat"], e["type"], e["call"]) for e in full["results"][-2:]] == [
        (3, "double", "pass"),
        (1, "double", "pass"),
    ]
    # A seated reader: a spectator sees no call before trick 1 is complete
    # (tests/api/test_spectating.py).
    later = players[3].client.get(match_url(match_id, f"/moves?after={start + 5}")).json()
    assert later["results"] == full["results"][5:]
    assert later["next"] is None
    up_to_date = players[2].client.get(match_url(match_id, f"/moves?after={start + 8}")).json()
    assert up_to_date["results"] == []


def test_the_move_log_pages_with_an_absolute_next_link(hokum_table: Callable[..., Any]) -> None:
    view, players = hokum_table()
    bid_hokum_round(players, view["id"], [(3, "pass"), (1, "pass")])
    url = match_url(view["id"], "/moves?page_size=3")
    seen: list[int] = []
    pages = 0
    while url:
        page = players[0].client.get(url).json()
        assert len(page["results"]) <= 3
        seen += [e["version"] for e in page["results"]]
        url = page["next"]
        if url:
            assert url.startswith("http://testserver/api/v1/matches/")
        pages += 1
    assert pages == 3
    assert seen == list(range(view["version"] + 1, view["version"] + 9))


def test_declared_cards_stay_out_of_other_seats_logs_until_trick_1_is_complete(
    hokum_table: Callable[..., Any], make_player: Callable[..., Player]
) -> None:
    view, players = hokum_table(visibility="public")
    match_id = view["id"]
    outsider = make_player()
    bid_hokum_round(players, match_id, [(3, "pass"), (1, "pass")])
    sira = [{"kind": "sira", "cards": ["AS", "KS", "QS"]}]
    play(players, match_id, 2, {"type": "declare", "projects": sira})

    def logged(client: Any) -> list[list[dict[str, Any]]]:
        entries = client.get(match_url(match_id, "/moves")).json()["results"]
        return [e["projects"] for e in entries if e["type"] == "declare"]

    assert logged(players[2].client) == [sira]
    for client in (players[0].client, players[1].client, players[3].client):
        assert logged(client) == [[{"kind": "sira", "cards": None}]]
    # A spectator sees trick 1, its declarations included, only once trick 2 is complete
    # (tests/api/test_spectating.py).
    assert logged(outsider.client) == []
    for seat, card in ((2, "AS"), (3, "8S"), (0, "10S")):
        play(players, match_id, seat, {"type": "play", "card": card})
    assert logged(players[0].client) == [[{"kind": "sira", "cards": None}]]
    play(players, match_id, 1, {"type": "play", "card": "JS"})  # trick 1 is complete
    for client in (p.client for p in players):
        assert logged(client) == [sira]
    assert logged(outsider.client) == []
    while len(state_of(match_id).tricks) < 2:
        seat = to_act(match_id)
        legal = view_of(players[seat], match_id)["round"]["legal_moves"]
        play(players, match_id, seat, next(m for m in legal if m["type"] == "play"))
    assert logged(outsider.client) == [sira]
