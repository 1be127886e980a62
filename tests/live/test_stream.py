"""The match stream's content: per persona exactly what the HTTP views give (hidden
information keeps one path), declarations hidden until trick 1 is complete, resume with
``since`` and the player stream's inbox events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.support.api import HOKUM_BIDS, fix_deal, legal_step, match_url, play, state_of
from tests.support.live import Stream, ThreadServer
from tests.support.players import Player, create_match, player_register

pytestmark = pytest.mark.django_db(transaction=True)


def _cards_shown(view: dict[str, Any]) -> set[str]:
    """The cards a view offers as its caller's own: the hand and the legal moves."""
    rnd = view.get("round") or {}
    cards = set(rnd.get("hand") or [])
    for move in rnd.get("legal_moves") or []:
        if move.get("card"):
            cards.add(move["card"])
        for project in move.get("projects") or []:
            cards.update(project.get("cards") or [])
    return cards


def _log(player: Player, match_id: int, after: int) -> list[dict[str, Any]]:
    response = player.client.get(match_url(match_id, "/moves"), {"after": after})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["next"] is None
    return list(body["results"])


def test_every_message_to_every_persona_is_what_http_gives_that_persona(
    stream_server: ThreadServer, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A known deal: seat 2 buys Hokum hearts and holds a spade sira to declare in trick 1.
    fix_deal(monkeypatch)
    script = [(seat, {"type": "bid", "call": call}) for seat, call in HOKUM_BIDS]
    script += [(3, {"type": "double", "call": "pass"}), (1, {"type": "double", "call": "pass"})]
    view, players = table(visibility="public")
    match_id = view["id"]
    outsider = player_register()
    personas = [*players, outsider]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    streams = [Stream(url, p.token) for p in personas]
    for stream, persona in zip(streams, personas, strict=True):
        first = stream.until_view(view["version"])
        assert first[-1]["view"] == persona.client.get(match_url(match_id)).json()
    rng = random.Random(3)
    version = view["version"]
    # What each stream has shown up to: the match version for the seated, and for the
    # outsider the spectator's version, one complete trick behind (tests/live/
    # test_spectator_stream.py); its stream sends nothing until that one moves.
    shown = [version] * len(personas)
    hidden_seen = revealed_seen = 0
    # Per persona: the declarations (seq: version) its stream sent with their cards hidden.
    hidden_sent: list[dict[int, int]] = [{} for _ in personas]
    for step in range(36):
        if step < len(script):
            answer = play(players, match_id, *script[step])
        else:
            answer = legal_step(players, match_id, rng, declare_rate=1.0, declines_doubling=True)
        new = answer["version"]
        trick_one_open = not state_of(match_id).tricks
        http_views = [p.client.get(match_url(match_id)).json() for p in personas]
        for index, (stream, persona) in enumerate(zip(streams, personas, strict=True)):
            expected = http_views[index]["version"]
            assert expected == new or http_views[index]["my_seat"] is None
            if expected == shown[index]:
                continue
            got = stream.until_view(expected)
            mine = http_views[index]["my_seat"]
            *before, last = got
            moves = [m for m in before if m["type"] == "move"]
            reveals = [m for m in before if m["type"] == "reveal"]
            assert len(moves) + len(reveals) == len(before), before
            assert {m["match_id"] for m in got} == {match_id}
            assert [m["item"] for m in moves] == _log(persona, match_id, shown[index])
            # A reveal: declarations this stream sent hidden, as the HTTP log shows them now.
            now = {item["seq"]: item for item in _log(persona, match_id, 0)}
            for reveal in reveals:
                assert not trick_one_open and reveal["version"] <= expected
                for item in reveal["items"]:
                    assert item == now[item["seq"]] and item["seat"] != mine
                    assert hidden_sent[index].pop(item["seq"]) == item["version"]
                    revealed_seen += 1
            assert last["version"] == expected and last["view"] == http_views[index]
            shown[index] = expected
            if mine is None:
                assert not _cards_shown(last["view"])
            for other, other_view in enumerate(http_views[:4]):
                if other != mine:
                    assert not (_cards_shown(other_view) & _cards_shown(last["view"]))
            for move in moves:
                item = move["item"]
                if item["type"] == "declare" and item["seat"] != mine and trick_one_open:
                    assert all(p["cards"] is None for p in item["projects"]), item
                    hidden_seen += 1
                    hidden_sent[index][item["seq"]] = item["version"]
        version = new
    assert hidden_seen, "no declaration was made while trick 1 was open: pick another seed"
    # Every declaration sent hidden was revealed once trick 1 was complete, and no other.
    assert revealed_seen == hidden_seen and not any(hidden_sent), hidden_sent
    # Once trick 1 is over, a resumed stream shows declared cards like the HTTP log does.
    again = Stream(f"{url}?since=0", outsider.token).until_view(shown[-1])
    assert [m["item"] for m in again[:-1]] == _log(outsider, match_id, 0)


def test_since_resumes_with_no_gap_and_no_duplicate(
    stream_server: ThreadServer, table: Any
) -> None:
    view, players = table()
    match_id = view["id"]
    rng = random.Random(5)
    for _ in range(12):
        version = legal_step(players, match_id, rng)["version"]
    url = f"{stream_server.url}/ws/v1/matches/{match_id}"
    log = _log(players[1], match_id, 0)
    middle = log[5]["version"]
    got = Stream(f"{url}?since={middle}", players[1].token).until_view(version)
    assert [m["item"] for m in got[:-1]] == log[6:]
    # `since` at or past the present: no items, the view only.
    present = Stream(f"{url}?since={version}", players[1].token)
    assert [m["type"] for m in present.until_view(version)] == ["view"]
    # What a client sends is ignored, garbage included; the stream carries on.
    present.ws.send("{not json")
    new = legal_step(players, match_id, rng)["version"]
    assert [m["type"] for m in present.until_view(new)] == ["move", "view"]


def test_the_player_stream_tells_of_turns_starts_and_ends(
    stream_server: ThreadServer, make_player: Any
) -> None:
    players = [make_player() for _ in range(4)]
    inboxes = [Stream(f"{stream_server.url}/ws/v1/me", p.token) for p in players]
    created = create_match(players[0], visibility="public")
    for seat, player in enumerate(players[1:], start=1):
        answer = player.client.post(
            match_url(created["id"], "/join"), {"seat": seat}, format="json"
        )
        assert answer.status_code == 200
    view = players[0].client.get(match_url(created["id"])).json()
    to_act = view["round"]["to_act"]
    for seat, inbox in enumerate(inboxes):
        # The seat to act hears of its turn too (in the order the start emitted them).
        got = {m["event"]: m for m in (inbox.next() for _ in range(2 if seat == to_act else 1))}
        assert set(got) == ({"match_started", "your_turn"} if seat == to_act else {"match_started"})
        for event in got.values():
            assert event["type"] == "inbox" and event["match_id"] == created["id"]
        assert got["match_started"]["is_my_turn"] is False
        assert got["match_started"]["deadline"] is None
        if seat == to_act:
            turn = got["your_turn"]
            assert turn["is_my_turn"] is True and turn["version"] == view["version"]
            assert turn["deadline"] == view["round"]["deadline"]
    resigned = players[1].client.post(match_url(created["id"], "/resign"), format="json")
    assert resigned.status_code == 200, resigned.content
    for seat, inbox in enumerate(inboxes):
        if seat == to_act:
            continue
        assert inbox.next()["event"] == "match_finished"
    assert inboxes[to_act].next()["event"] == "match_finished"
