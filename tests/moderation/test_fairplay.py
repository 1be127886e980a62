"""Fair-play signals in the service (issue 28 part 2): an analysis that commits runs the
checks; a pair whose decisions fit each other's hands, or a player at the engine's level,
opens one flag for the moderators with its statistic, its accounts and its matches; the same
evidence never opens a second; only a person's own turns count (not a bot's after a
timeout), opponents are not a pair, and players never see any of it.

The matches are real (four accounts bid a round and one resigns); their analyses' decisions
are written here, so each test decides what the signal reads (``moderation.fairplay`` has the
statistics' own tests, and the simulated populations theirs).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client

from games import tasks as game_tasks
from games.models import Actor, AnalysisStatus, MatchAnalysis, Move
from moderation import services as moderation
from moderation.models import Flag, FlagKind
from moderation.services import fairplay
from tests.support.api import bid_hokum_round, fix_deal, match_url
from tests.support.players import Player, create_match

Commit = Callable[[], AbstractContextManager[Any]]

# A decision of each kind the signals read: (loss, partner_loss, trick).
FITS_PARTNER = (2.0, 0.0, 3)  # off by the fair search, the best knowing the partner's hand
FITS_FAIR = (0.0, 2.0, 3)
ENGINE_BEST = (0.0, 0.0, 6)  # the best, late in the round
LATE_MISS = (3.0, 3.0, 6)


@pytest.fixture
def four(make_player: Callable[..., Player]) -> list[Player]:
    return [make_player() for _ in range(4)]


@pytest.fixture
def finish(monkeypatch: pytest.MonkeyPatch, commit: Commit) -> Callable[..., int]:
    """A match of ``players`` (seat i = players[i]) whose round 1 is bid (every seat calls),
    then resigned: finished, its analysis pending."""

    def make(players: list[Player]) -> int:
        fix_deal(monkeypatch)
        created = create_match(players[0])
        for seat, player in enumerate(players[1:], start=1):
            body = {"seat": seat, "code": created.get("invite_code")}
            response = player.client.post(match_url(created["id"], "/join"), body, format="json")
            assert response.status_code == 200, response.content
        bid_hokum_round(players, created["id"], doubling=[])
        with commit():
            response = players[0].client.post(match_url(created["id"], "/resign"), format="json")
        assert response.status_code == 200, response.content
        return int(created["id"])

    return make


def valued(match_id: int, per_seat: dict[int, list[tuple[float, float, int]]]) -> None:
    """Mark the match's analysis ready with these decisions, each on a call the seat made."""
    first_call: dict[int, tuple[int, int]] = {}
    for index, move in enumerate(Move.objects.filter(match_id=match_id).order_by("seq")):
        first_call.setdefault(move.seat, (move.round_number, index))
    call = {"type": "bid", "call": "pass"}  # what is shown to players: any move will do
    rows = []
    for seat, decisions in per_seat.items():
        number, action = first_call[seat]
        for loss, partner_loss, trick in decisions:
            rows.append(
                [number, action, seat, "bid", call, call, -loss, 0.0, 3, partner_loss, trick]
            )
    MatchAnalysis.objects.filter(match_id=match_id).update(
        status=AnalysisStatus.READY, decisions=rows
    )


def honest_seats(count: int = 30) -> dict[int, list[tuple[float, float, int]]]:
    mixed = [FITS_PARTNER, FITS_FAIR, LATE_MISS] * (count // 3)
    return {seat: list(mixed) for seat in range(4)}


def test_a_pair_whose_play_fits_each_others_hands_is_flagged_once_with_its_evidence(
    four: list[Player], finish: Callable[..., int], settings: Any
) -> None:
    settings.BALOOT = {**settings.BALOOT, "FAIRPLAY_SHARED_MIN_TRIALS": 100}
    ids, checks = [], []
    for _ in range(2):
        match_id = finish(four)
        seats = honest_seats()
        seats[0] = seats[2] = [FITS_PARTNER] * 25 + [FITS_FAIR] * 2
        valued(match_id, seats)
        ids.append(match_id)
        checks.append(fairplay.fairplay_check(match_id))

    assert checks[0] == []  # 54 trials after one match: too few to say
    flags = checks[1]

    assert [f.kind for f in flags] == [FlagKind.SHARED_HANDS]
    flag = flags[0]
    assert set(flag.subjects.values_list("pk", flat=True)) == {four[0].user.pk, four[2].user.pk}
    assert set(flag.matches.values_list("pk", flat=True)) == set(ids)
    assert flag.match_id == ids[1] and flag.status == "open"
    stat = flag.statistic
    assert (stat["hits"], stat["trials"], stat["matches"]) == (100, 108, 2)
    assert stat["p_value"] < settings.BALOOT["FAIRPLAY_ALPHA"] < stat["baseline"]
    # The other pair, honest, is not; the same evidence does not flag twice.
    assert fairplay.fairplay_check(ids[1]) == []
    assert Flag.objects.count() == 1


def test_honest_pairs_and_players_raise_nothing(
    four: list[Player], finish: Callable[..., int]
) -> None:
    for _ in range(3):
        match_id = finish(four)
        valued(match_id, honest_seats(60))
        assert fairplay.fairplay_check(match_id) == []
    assert not Flag.objects.exists()


def test_a_player_at_the_engines_level_is_flagged(
    four: list[Player], finish: Callable[..., int], settings: Any
) -> None:
    settings.BALOOT = {**settings.BALOOT, "FAIRPLAY_ENGINE_MIN_TRIALS": 150}
    ids = []
    for _ in range(2):
        match_id = finish(four)
        seats = honest_seats()
        seats[3] = [ENGINE_BEST] * 100
        valued(match_id, seats)
        ids.append(match_id)
        flags = fairplay.fairplay_check(match_id)  # after the first: 100 trials, too few
    assert [(f.kind, list(f.subjects.values_list("pk", flat=True))) for f in flags] == [
        (FlagKind.ENGINE_HELP, [four[3].user.pk])
    ]
    assert flags[0].statistic["hits"] == flags[0].statistic["trials"] == 200


def test_a_bots_turns_do_not_count_for_the_person(
    four: list[Player], finish: Callable[..., int]
) -> None:
    ids = []
    for _ in range(2):
        match_id = finish(four)
        seats = honest_seats()
        seats[3] = [ENGINE_BEST] * 200
        valued(match_id, seats)
        # The seat's call was played for it (a timeout): the bot's, not the person's.
        Move.objects.filter(match_id=match_id, seat=3).update(actor=Actor.TIMEOUT)
        ids.append(match_id)
    assert fairplay.fairplay_check(ids[1]) == []


def test_opponents_are_not_a_pair(four: list[Player], finish: Callable[..., int]) -> None:
    # Two accounts whose play "fits each other's hands" in two matches as opponents (seats 0
    # and 1), then partners in an honest one: only the match as partners is the pair's.
    for _ in range(2):
        match_id = finish(four)
        seats = honest_seats()
        seats[0] = seats[1] = [FITS_PARTNER] * 60
        valued(match_id, seats)
    together = finish([four[0], four[2], four[1], four[3]])
    valued(together, honest_seats())
    assert fairplay.fairplay_check(together) == []


def test_the_analysis_commit_runs_the_checks_in_the_analysis_worker(
    four: list[Player],
    finish: Callable[..., int],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    match_id = finish(four)
    checked: list[int] = []
    monkeypatch.setattr(fairplay, "fairplay_check", checked.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert game_tasks.analyse_match(match_id) is True
    assert checked == []  # not inside the analysis's transaction
    for callback in callbacks:
        callback()
    assert checked == [match_id]
    # The analysis stored the two figures the signals read, for the cards and calls it valued.
    stored = MatchAnalysis.objects.get(match_id=match_id).decisions
    assert stored and all(len(d) == 11 for d in stored)
    assert all(d[9] is None and d[10] is None for d in stored if d[3] == "bid")


def test_players_never_see_the_signals_figures(
    four: list[Player], finish: Callable[..., int]
) -> None:
    match_id = finish(four)
    seats = honest_seats()
    seats[0] = seats[2] = [FITS_PARTNER] * 60
    valued(match_id, seats)
    assert fairplay.fairplay_check(match_id)
    for player in four:
        body = player.client.get(match_url(match_id, "/analysis")).json()
        text = str(body)
        assert body["status"] == "ready", body
        assert "partner" not in text and "trick" not in text and "flag" not in text
        for row in body["players"]:
            for decision in row["worst"]:
                assert set(decision) == {
                    "round",
                    "action",
                    "seat",
                    "kind",
                    "chosen",
                    "best",
                    "chosen_value",
                    "best_value",
                    "loss",
                    "options",
                }


def test_the_flag_page_shows_the_statistic_the_accounts_and_the_replays(
    four: list[Player], finish: Callable[..., int], mod_client: Client
) -> None:
    match_id = finish(four)
    seats = honest_seats()
    seats[0] = seats[2] = [FITS_PARTNER] * 60
    valued(match_id, seats)
    (flag,) = fairplay.fairplay_check(match_id)
    page = mod_client.get(f"/admin/moderation/flag/{flag.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert four[0].user.username in html and four[2].user.username in html
    assert f"/admin/games/match/{match_id}/rounds/1/replay/" in html
    assert "p = " in html and f"{flag.statistic['hits']} of {flag.statistic['trials']}" in html
    listing = mod_client.get("/admin/moderation/flag/?kind=shared_hands").content.decode()
    assert f"/admin/moderation/flag/{flag.pk}/change/" in listing


def test_an_open_flag_holds_the_next_and_a_settled_one_starts_a_new_window(
    four: list[Player], finish: Callable[..., int], moderator: Player
) -> None:
    def peeking_match() -> int:
        match_id = finish(four)
        seats = honest_seats()
        seats[0] = seats[2] = [FITS_PARTNER] * 60
        valued(match_id, seats)
        return match_id

    first = peeking_match()
    (flag,) = fairplay.fairplay_check(first)
    second = peeking_match()
    assert fairplay.fairplay_check(second) == []  # the queue has the question already
    moderation.flag_settle(moderator=moderator.user, flag_id=flag.pk, upheld=False, reason="ok")
    # Settled: the next window starts after the newest match the flag held, so it reads the
    # second match only, and the first is never evidence twice.
    (again,) = fairplay.fairplay_check(second)
    assert list(again.matches.values_list("pk", flat=True)) == [second]
    assert again.statistic["matches"] == 1


def test_only_the_turns_a_person_played_are_read(
    four: list[Player], finish: Callable[..., int]
) -> None:
    match_id = finish(four)
    moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
    # The fifth call of the round (seat 1's second) was played for it after a timeout.
    Move.objects.filter(pk=moves[4].pk).update(actor=Actor.TIMEOUT)
    human = fairplay._human_actions([match_id])[match_id]
    assert human == {(1, i) for i in range(len(moves))} - {(1, 4)}
    row = MatchAnalysis.objects.get(match_id=match_id)
    row.status = AnalysisStatus.READY
    row.decisions = [
        [1, i, m.seat, "bid", {}, {}, 0.0, 0.0, 2, None, None] for i, m in enumerate(moves)
    ]
    row.save()
    read = fairplay._decisions_of(row, [1], human)
    assert [m.seat for m in moves].count(1) == 2 and len(read.decisions) == 1
