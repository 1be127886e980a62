"""Quick chat (issue 12, point 9) through the API: the fixed phrases, sending to the table
(seated humans only, rate-limited per user and match, not a move), the log, blocks and
reports; every refusal answers the problem shape and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import Sanction, SanctionKind
from games.models import Match
from moderation.models import Report
from players.models import Block, ChatMessage
from tests.support.api import API, assert_problem, fingerprint, match_url
from tests.support.auth import assert_retry_after, set_rates
from tests.support.players import Player, create_match

Table = Callable[..., tuple[dict[str, Any], list[Player]]]


def send(player: Player, match_id: int, phrase: Any = "well_played", **extra: Any) -> Any:
    return player.client.post(
        match_url(match_id, "/chat"), {"phrase": phrase, **extra}, format="json"
    )


def log_of(player: Player, match_id: int, **params: Any) -> Any:
    return player.client.get(match_url(match_id, "/chat"), params)


@pytest.fixture
def relaxed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No burst budget, for tests that send several messages in a row."""
    set_rates(monkeypatch, chat_burst="1000/s", chat="1000/min")


def test_the_phrases_are_a_fixed_list_in_both_languages(
    make_player: Callable[..., Player], anon: Any
) -> None:
    body = make_player().client.get(f"{API}/chat/phrases").json()
    phrases = body["results"]
    assert len(phrases) >= 15
    ids = [p["id"] for p in phrases]
    assert len(set(ids)) == len(ids)
    assert {"hello", "well_played", "sorry", "hurry_please", "thanks", "laugh"} <= set(ids)
    for phrase in phrases:
        assert set(phrase) == {"id", "kind", "text"} and phrase["kind"] in ("phrase", "emote")
        assert set(phrase["text"]) == {"en", "ar"} and all(phrase["text"].values())
    assert {
        "id": "well_played",
        "kind": "phrase",
        "text": {"en": "Well played!", "ar": "أحسنت!"},
    } in phrases
    assert any(p["kind"] == "emote" for p in phrases)
    words = [p for p in phrases if p["kind"] == "phrase"]
    assert all(p["text"]["en"] != p["text"]["ar"] for p in words)
    assert anon.get(f"{API}/chat/phrases").status_code == 401


def test_a_seated_player_sends_a_phrase_to_the_table_without_changing_the_match(
    table: Table, relaxed: None
) -> None:
    view, players = table()
    match_id = view["id"]
    before = Match.objects.get(pk=match_id)
    answer = send(players[2], match_id, "good_luck")
    assert answer.status_code == 201, answer.content
    sent = answer.json()
    assert set(sent) == {"id", "match_id", "seat", "phrase", "created_at"}
    assert (sent["match_id"], sent["seat"], sent["phrase"]) == (match_id, 2, "good_luck")
    after = Match.objects.get(pk=match_id)
    assert (after.version, after.updated_at) == (before.version, before.updated_at)
    assert send(players[0], match_id, "thanks").status_code == 201
    for player in players:
        got = log_of(player, match_id).json()
        assert [(m["seat"], m["phrase"]) for m in got["results"]] == [
            (2, "good_luck"),
            (0, "thanks"),
        ]
        assert got["next"] is None


def test_a_waiting_match_and_a_match_just_ended_have_a_chat_an_old_one_does_not(
    table: Table, make_player: Callable[..., Player], relaxed: None
) -> None:
    creator = make_player()
    waiting = create_match(creator)
    assert send(creator, waiting["id"], "hello").status_code == 201
    view, players = table()
    match_id = view["id"]
    assert players[1].client.post(match_url(match_id, "/resign")).status_code == 200
    assert send(players[3], match_id, "good_game").status_code == 201
    Match.objects.filter(pk=match_id).update(finished_at=timezone.now() - timedelta(hours=1))
    state = fingerprint(match_id)
    count = ChatMessage.objects.count()
    assert_problem(send(players[3], match_id, "good_game"), 409, "chat_closed")
    assert (fingerprint(match_id), ChatMessage.objects.count()) == (state, count)
    # Its log stays readable by the table.
    assert len(log_of(players[0], match_id).json()["results"]) == 1


@pytest.mark.parametrize(
    ("persona", "status", "code"),
    [
        ("public_outsider", 403, "not_a_player"),
        ("private_outsider", 404, "not_found"),
        ("anonymous", 401, "not_authenticated"),
        ("revoked", 401, "authentication_failed"),
        ("sanctioned", 403, "account_banned"),
        ("unknown_phrase", 400, "unknown_phrase"),
        ("not_a_string", 400, "invalid"),
        ("extra_field", 400, "invalid"),
        ("missing_match", 404, "not_found"),
    ],
)
def test_refusals_to_send_change_nothing(
    persona: str,
    status: int,
    code: str,
    table: Table,
    make_player: Callable[..., Player],
    anon: Any,
) -> None:
    view, players = table(visibility="private" if persona == "private_outsider" else "public")
    match_id = view["id"]
    caller, extra = players[1], {}
    phrase: Any = "well_played"
    if persona.endswith("outsider"):
        caller = make_player()
    elif persona == "anonymous":
        caller = Player(user=None, token="", client=anon)
    elif persona == "revoked":
        assert caller.client.post(f"{API}/auth/logout").status_code in (200, 204)
    elif persona == "sanctioned":
        Sanction.objects.create(
            user=caller.user, kind=SanctionKind.BAN, reason="test", created_by=players[0].user
        )
    elif persona == "unknown_phrase":
        phrase = "you_are_bad"
    elif persona == "not_a_string":
        phrase = 7
    elif persona == "extra_field":
        extra = {"text": "free text is not a thing"}
    elif persona == "missing_match":
        match_id = 999999
    state = fingerprint(view["id"])
    body = assert_problem(send(caller, match_id, phrase, **extra), status, code)
    if persona == "unknown_phrase":
        assert body["errors"][0]["field"] == "phrase"
        assert body["errors"][0]["code"] == "unknown_phrase"
    assert ChatMessage.objects.count() == 0
    assert fingerprint(view["id"]) == state


@pytest.mark.parametrize(
    ("persona", "status", "code"),
    [
        ("public_outsider", 403, "not_a_player"),
        ("private_outsider", 404, "not_found"),
        ("anonymous", 401, "not_authenticated"),
    ],
)
def test_the_chat_log_is_the_tables_only(
    persona: str,
    status: int,
    code: str,
    table: Table,
    make_player: Callable[..., Player],
    anon: Any,
) -> None:
    view, players = table(visibility="private" if persona == "private_outsider" else "public")
    assert send(players[0], view["id"], "hello").status_code == 201
    client = anon if persona == "anonymous" else make_player().client
    answer = client.get(match_url(view["id"], "/chat"))
    body = assert_problem(answer, status, code)
    assert "hello" not in str(body)


def test_the_log_pages_with_after(table: Table, relaxed: None) -> None:
    view, players = table()
    match_id = view["id"]
    phrases = ["hello", "good_luck", "oops", "sorry", "laugh"]
    for i, phrase in enumerate(phrases):
        assert send(players[i % 4], match_id, phrase).status_code == 201
    first = log_of(players[0], match_id, page_size=2).json()
    assert [m["phrase"] for m in first["results"]] == phrases[:2]
    assert first["next"] is not None
    seen = list(first["results"])
    url = first["next"]
    while url:
        page = players[0].client.get(url).json()
        seen.extend(page["results"])
        url = page["next"]
    assert [m["phrase"] for m in seen] == phrases
    assert_problem(log_of(players[0], match_id, after="x"), 400, "invalid")


def test_one_message_per_two_seconds_and_ten_a_minute_per_user_and_match(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, players = table()
    match_id = view["id"]
    assert send(players[0], match_id, "hello").status_code == 201
    refused = send(players[0], match_id, "hello")
    assert_problem(refused, 429, "throttled")
    assert_retry_after(refused, 2)
    assert ChatMessage.objects.filter(match_id=match_id).count() == 1
    # Another player at the table has a budget of their own.
    assert send(players[1], match_id, "hello").status_code == 201
    # Ten a minute, whatever the pace.
    set_rates(monkeypatch, chat_burst="1000/s")
    for _ in range(10):
        assert send(players[2], match_id, "laugh").status_code == 201
    refused = send(players[2], match_id, "laugh")
    assert_problem(refused, 429, "throttled")
    assert_retry_after(refused, 60)
    assert ChatMessage.objects.filter(match_id=match_id, seat=2).count() == 10


def test_a_refused_message_costs_no_allowance(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, players = table()
    match_id = view["id"]
    now = [1_000_000.0]
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: now[0])
    set_rates(monkeypatch, chat_burst="1/2s", chat="2/min")
    # A phrase the service refuses, then a valid one at the same instant: the burst budget
    # (one per 2 s) was not spent by the refusal.
    assert_problem(send(players[0], match_id, "not_a_phrase"), 400, "unknown_phrase")
    assert send(players[0], match_id, "hello").status_code == 201
    # A message one budget refuses is not counted by the other: the burst's 429s leave the
    # minute's second message free.
    assert send(players[1], match_id, "hello").status_code == 201
    for _ in range(3):
        assert_problem(send(players[1], match_id, "hello"), 429, "throttled")
    now[0] += 3
    assert send(players[1], match_id, "thanks").status_code == 201
    now[0] += 3
    assert_problem(send(players[1], match_id, "thanks"), 429, "throttled")  # two a minute
    assert ChatMessage.objects.filter(match_id=match_id).count() == 3


def test_the_budget_is_per_match(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = make_player()
    first, second = create_match(player), create_match(player)
    assert send(player, first["id"], "hello").status_code == 201
    assert send(player, second["id"], "hello").status_code == 201
    assert_problem(send(player, first["id"], "hello"), 429, "throttled")


def test_a_blocked_senders_phrases_are_not_shown_to_the_blocker(
    table: Table, relaxed: None
) -> None:
    view, players = table()
    match_id = view["id"]
    Block.objects.create(blocker=players[1].user, blocked=players[0].user)
    assert send(players[0], match_id, "hurry_please").status_code == 201
    assert send(players[2], match_id, "sorry").status_code == 201
    assert [m["phrase"] for m in log_of(players[1], match_id).json()["results"]] == ["sorry"]
    assert [m["phrase"] for m in log_of(players[3], match_id).json()["results"]] == [
        "hurry_please",
        "sorry",
    ]
    # The blocked one still sees the blocker's phrases (a block hides only what you receive).
    assert send(players[1], match_id, "thanks").status_code == 201
    assert "thanks" in [m["phrase"] for m in log_of(players[0], match_id).json()["results"]]


def test_a_chat_message_can_be_reported_by_the_table_only(
    table: Table, make_player: Callable[..., Player], relaxed: None
) -> None:
    view, players = table(visibility="public")
    match_id = view["id"]
    message = send(players[1], match_id, "hurry_please").json()
    own = send(players[3], match_id, "sorry").json()
    url = match_url(match_id, "/reports")

    def report(player: Player, seat: int, chat_message: Any) -> Any:
        body = {"seat": seat, "reason": "other", "chat_message": chat_message}
        return player.client.post(url, body, format="json")

    # Another seat's message, a message of no table, an outsider: one answer, nothing stored.
    outsider = make_player()
    for player, seat, ref in [
        (players[0], 1, own["id"]),
        (players[0], 3, message["id"]),
        (players[0], 1, 999999),
        (outsider, 1, message["id"]),
    ]:
        body = assert_problem(report(player, seat, ref), 422, "chat_message_not_found")
        assert [e["field"] for e in body["errors"]] == ["chat_message"]
    assert Report.objects.count() == 0
    answer = report(players[0], 1, message["id"])
    assert answer.status_code == 201, answer.content
    assert answer.json()["chat_message"] == message["id"]
    stored = Report.objects.get()
    assert (stored.reported_id, stored.chat_message_id) == (players[1].id, message["id"])
    # A report without a message still works, and says so.
    plain = players[2].client.post(url, {"seat": 1, "reason": "stalling"}, format="json")
    assert plain.status_code == 201 and plain.json()["chat_message"] is None
