"""Concurrency drill: many clients at once on several shared matches, with real commits.

Runs on the configured database (SQLite by default, PostgreSQL in CI, where it means the most:
there the match row lock serialises writers across real connections). Each wave fires, at the
same moment and in separate threads (one DB connection each):

- on every active match, for the seat to act: the same turn from two devices (two tokens of one
  user) sharing one ``Idempotency-Key``, the same turn from the second device under another key,
  a stale ``expected_version``, the wrong seat, and a reader;
- in the first wave, several players joining each of two waiting matches with one free seat.

After each wave: exactly one move per match and turn, every refusal a problem document with a
stable code, no 5xx. At the end: a retry of every stored key returns the stored answer, every
match's log replays to its snapshot with no gap in ``seq`` and no version used twice, and every
match can still be played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.services import token_issue
from games.models import Match, MatchStatus, Move, Round, Seat
from tests.support.api import PROBLEM
from tests.support.drills import race
from tests.support.logs import assert_log_is_whole
from tests.support.players import Player, create_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ACTIVE_MATCHES = 3
JOIN_MATCHES = 2
JOINERS = 5  # racing for one free seat: 3 take "any seat", 2 ask for the free one by number
WAVES = 14
API = "/api/v1/matches"


@dataclass
class Answer:
    status: int
    content_type: str
    body: dict[str, Any] | None
    who: str = ""

    @property
    def code(self) -> str | None:
        return (self.body or {}).get("code")


@dataclass
class Table:
    match_id: int
    tokens: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> two devices
    keys: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)


def _device(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _answer(response: Any, who: str) -> Answer:
    content_type = response.get("Content-Type", "")
    body = response.json() if "json" in content_type else None
    return Answer(response.status_code, content_type, body, who)


def _post(token: str, url: str, body: dict[str, Any], who: str, key: str | None = None) -> Answer:
    headers = {"Idempotency-Key": key} if key else {}
    return _answer(_device(token).post(url, body, format="json", headers=headers), who)


def _get(token: str, url: str, who: str) -> Answer:
    return _answer(_device(token).get(url), who)


def _assert_problem(answer: Answer, status: int, codes: set[str]) -> None:
    assert answer.status == status, (answer.who, answer.status, answer.body)
    assert answer.content_type.startswith(PROBLEM), (answer.who, answer.content_type)
    assert answer.body is not None and answer.body["status"] == status
    assert answer.code in codes, (answer.who, answer.body)


def _two_devices(player: Player) -> tuple[str, str]:
    return player.token, token_issue(user=player.user, device="second phone")


def _turn_contenders(table: Table, wave: int, rng: random.Random) -> list[Callable[[], Answer]]:
    match = Match.objects.get(pk=table.match_id)
    seat = match.to_act
    assert seat is not None
    phone, tablet = table.tokens[seat]
    url = f"{API}/{table.match_id}"
    view = _get(phone, url, "setup")
    assert view.status == 200 and view.body is not None
    assert view.body["version"] == match.version
    move = rng.choice(view.body["round"]["legal_moves"])
    current = {**move, "expected_version": match.version}
    key = f"m{table.match_id}-w{wave}"
    table.keys.append((seat, key, current))
    wrong = table.tokens[(seat + 1) % 4][0]
    partner = table.tokens[(seat + 2) % 4][1]
    moves = f"{url}/moves"
    return [
        partial(_post, phone, moves, current, "phone+key", key),
        partial(_post, tablet, moves, current, "tablet+key", key),
        partial(_post, tablet, moves, current, "tablet+other key", key + "-b"),
        partial(_post, phone, moves, {**move, "expected_version": match.version - 1}, "stale"),
        partial(_post, wrong, moves, current, "wrong seat"),
        partial(_get, partner, url, "reader"),
    ]


def _check_turn(table: Table, before: int, answers: list[Answer]) -> None:
    match = Match.objects.get(pk=table.match_id)
    # Exactly one of the three identical moves landed, whichever thread got the lock first.
    assert match.version == before + 1, [(a.who, a.status, a.code) for a in answers]
    assert Move.objects.filter(match=match, version=before + 1).count() == 1
    by_who = {a.who: a for a in answers}
    contenders = [by_who[w] for w in ("phone+key", "tablet+key", "tablet+other key")]
    won = [a for a in contenders if a.status == 201]
    for lost in (a for a in contenders if a.status != 201):
        _assert_problem(lost, 409, {"stale_version"})
        assert lost.body is not None and lost.body["current_version"] == before + 1
    if len(won) == 2:
        # Both devices that shared the key answered 201: the second is the stored replay.
        assert {a.who for a in won} == {"phone+key", "tablet+key"}, won
        assert won[0].body == won[1].body
    else:
        assert len(won) == 1, [(a.who, a.status, a.code) for a in contenders]
    assert all(a.body is not None and a.body["version"] == before + 1 for a in won)
    _assert_problem(by_who["stale"], 409, {"stale_version"})
    # The next seat, sending the same move for the same version: refused by the rules if it
    # got the lock first, stale (or the match over) if it came after the winner.
    wrong = by_who["wrong seat"]
    if wrong.status == 422:
        _assert_problem(wrong, 422, {"not_your_turn"})
    else:
        _assert_problem(wrong, 409, {"stale_version", "match_not_active"})
    assert by_who["reader"].status == 200, by_who["reader"]


def _join_contenders(
    match_id: int, free_seat: int, joiners: list[Player]
) -> list[Callable[[], Answer]]:
    url = f"{API}/{match_id}/join"
    return [
        partial(_post, p.token, url, {"seat": free_seat} if i % 2 else {}, f"joiner {p.user.pk}")
        for i, p in enumerate(joiners)
    ]


def _check_join(match_id: int, joiners: list[Player], answers: list[Answer]) -> Player:
    winners = [a for a in answers if a.status == 200]
    assert len(winners) == 1, [(a.who, a.status, a.code) for a in answers]
    for lost in (a for a in answers if a.status != 200):
        # The winner's join filled the table and started the match, so a loser finds it
        # full, its seat taken, or no longer waiting, depending on when it got the lock.
        _assert_problem(lost, 409, {"match_full", "seat_taken", "match_not_waiting"})
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.ACTIVE
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    users = [s.user_id for s in seats]
    assert None not in users and len(set(users)) == 4, users  # no seat given twice
    seated = [p for p in joiners if p.user.pk in users]
    assert len(seated) == 1, "more than one racer got the last seat"
    assert winners[0].who == f"joiner {seated[0].user.pk}"
    assert winners[0].body is not None and winners[0].body["status"] == "active"
    # Started exactly once: one Round 1, one deal, and the version of a single start.
    assert Round.objects.filter(match=match).count() == 1
    assert Round.objects.filter(match=match, number=1).count() == 1
    assert not Move.objects.filter(match=match).exists()
    return seated[0]


def test_many_clients_at_once_on_shared_matches(
    table: Callable[..., tuple[dict[str, Any], list[Player]]],
    make_player: Callable[..., Player],
) -> None:
    rng = random.Random(2024)
    tables: list[Table] = []
    for _ in range(ACTIVE_MATCHES):
        created, players = table()
        tables.append(Table(created["id"], {i: _two_devices(p) for i, p in enumerate(players)}))

    # Waiting public matches with seats 0, 1 and 3 taken; seat 2 is the last free one.
    waiting: list[tuple[int, dict[int, Player], list[Player]]] = []
    for _ in range(JOIN_MATCHES):
        seated = {0: make_player(), 1: make_player(), 3: make_player()}
        match_id = create_match(seated[0], visibility="public")["id"]
        for index in (1, 3):
            joined = seated[index].client.post(
                f"{API}/{match_id}/join", {"seat": index}, format="json"
            )
            assert joined.status_code == 200, joined.content
        waiting.append((match_id, seated, [make_player() for _ in range(JOINERS)]))

    statuses: Counter[int] = Counter()
    for wave in range(WAVES):
        live = [t for t in tables if Match.objects.get(pk=t.match_id).status == "active"]
        calls: list[Callable[[], Answer]] = []
        spans: list[tuple[Table, int, int, int]] = []
        for t in live:
            contenders = _turn_contenders(t, wave, rng)
            spans.append((t, Match.objects.get(pk=t.match_id).version, len(calls), len(contenders)))
            calls += contenders
        join_spans = []
        if wave == 0:
            for match_id, _, joiners in waiting:
                join_spans.append((len(calls), JOINERS))
                calls += _join_contenders(match_id, 2, joiners)
        answers = race(calls)
        for a in answers:
            assert isinstance(a, Answer), a  # no thread died
            assert a.status < 500, (a.who, a.status, a.body)
        statuses.update(a.status for a in answers)
        for t, before, start, n in spans:
            _check_turn(t, before, answers[start : start + n])
        for (match_id, seated, joiners), (start, n) in zip(
            waiting if join_spans else [], join_spans, strict=True
        ):
            winner = _check_join(match_id, joiners, answers[start : start + n])
            devices = {i: _two_devices(p) for i, p in seated.items()}
            devices[2] = _two_devices(winner)
            tables.append(Table(match_id, devices))

    assert len(tables) == ACTIVE_MATCHES + JOIN_MATCHES
    for t in tables:
        # A client that never saw its answer retries with the same key and body: it gets the
        # stored 201 if that key's move landed, and a 409 (nothing played) if it lost the race.
        url = f"{API}/{t.match_id}/moves"
        for seat, key, body in t.keys:
            before = Match.objects.get(pk=t.match_id).version
            retried = _post(t.tokens[seat][0], url, body, "retry", key)
            assert retried.status in (201, 409), retried
            if retried.status == 409:
                assert retried.code in ("stale_version", "match_not_active"), retried.body
            reused = _post(t.tokens[seat][1], url, {**body, "expected_version": 0}, "reuse", key)
            if retried.status == 201:
                _assert_problem(reused, 422, {"idempotency_key_reused"})
            assert Match.objects.get(pk=t.match_id).version == before  # retries play nothing
        assert_log_is_whole(t.match_id)

    # The matches carry on: the seat to act can still play.
    for t in tables:
        match = Match.objects.get(pk=t.match_id)
        if match.status != MatchStatus.ACTIVE:
            continue
        assert match.to_act is not None
        view = _get(t.tokens[match.to_act][1], f"{API}/{t.match_id}", "after")
        assert view.body is not None
        move = {**view.body["round"]["legal_moves"][0], "expected_version": match.version}
        played = _post(t.tokens[match.to_act][1], f"{API}/{t.match_id}/moves", move, "after")
        assert played.status == 201, played
        assert_log_is_whole(t.match_id)
    assert statuses[201] >= WAVES * ACTIVE_MATCHES
