"""The tournament endpoints for every persona: anonymous, a player, the partner, a stranger,
staff; refusals carry their code and change nothing (api.md error contract)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.support.api import API, PROBLEM
from tests.support.players import Player, player_register
from tests.support.tournaments import TournamentDriver
from tournaments.models import Entry, Membership, Tournament

URL = f"{API}/tournaments"


def _body(cup: TournamentDriver, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Friday cup",
        "format": "knockout",
        "capacity": 8,
        "starts_at": (cup.clock.at + timedelta(hours=2)).isoformat(),
        "round_seconds": 3600,
    }
    body.update(fields)
    return body


def _problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    assert response.json()["code"] == code


def _state() -> tuple[int, int, list[Any]]:
    return (
        Entry.objects.count(),
        Membership.objects.count(),
        list(Entry.objects.order_by("pk").values_list("status", "partner_id")),
    )


def test_staff_create_public_tournaments_and_players_private_ones(
    cup: TournamentDriver, staff: Player, make_player: Any, anon: Any
) -> None:
    player = make_player()
    _problem(
        player.client.post(URL, _body(cup, public=True), format="json"),
        403,
        "public_tournament_staff_only",
    )
    _problem(anon.post(URL, _body(cup), format="json"), 401, "not_authenticated")
    assert not Tournament.objects.exists()
    public = staff.client.post(URL, _body(cup, public=True), format="json")
    assert public.status_code == 201, public.content
    assert public.json()["invite_code"] is None and public.json()["status"] == "registration"
    private = player.client.post(URL, _body(cup, format="swiss", swiss_rounds=3), format="json")
    assert private.status_code == 201, private.content
    code = private.json()["invite_code"]
    assert code
    # Anyone lists and reads the public one; the private one only its creator, or with its code.
    listed = anon.get(URL).json()["results"]
    assert [t["id"] for t in listed] == [public.json()["id"]]
    assert listed[0]["listed_as"] == "upcoming"
    assert {t["id"] for t in player.client.get(URL).json()["results"]} == {
        public.json()["id"],
        private.json()["id"],
    }
    stranger = make_player()
    _problem(stranger.client.get(f"{URL}/{private.json()['id']}"), 404, "tournament_not_found")
    _problem(anon.get(f"{URL}/{private.json()['id']}"), 404, "tournament_not_found")
    _problem(anon.get(f"{URL}/{private.json()['id']}?code=ك"), 404, "tournament_not_found")
    assert anon.get(f"{URL}/{private.json()['id']}/rounds?code={code}").status_code == 200
    seen = stranger.client.get(f"{URL}/{private.json()['id']}?code={code}")
    assert seen.status_code == 200 and seen.json()["invite_code"] is None
    _problem(anon.get(f"{URL}/nope"), 404, "tournament_not_found")
    _problem(anon.get(f"{URL}/\u0661"), 404, "tournament_not_found")  # an Arabic-Indic 1
    _problem(anon.get(f"{URL}?status=soon"), 400, "invalid")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"capacity": 1}, "capacity"),
        ({"round_seconds": 10}, "round_seconds"),
        ({"ruleset": "poker"}, "ruleset"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_creation_body_is_refused_naming_its_field(
    cup: TournamentDriver, staff: Player, fields: dict[str, Any], field: str
) -> None:
    response = staff.client.post(URL, _body(cup, **fields), format="json")
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"starts_at": "2000-01-01T00:00:00Z"}, "starts_at"),
        ({"format": "swiss"}, "swiss_rounds"),
        ({"swiss_rounds": 3}, "swiss_rounds"),
    ],
)
def test_a_setting_the_schema_allows_but_the_tournament_cannot_have_is_a_422(
    cup: TournamentDriver, staff: Player, fields: dict[str, Any], field: str
) -> None:
    response = staff.client.post(URL, _body(cup, **fields), format="json")
    _problem(response, 422, "setting_refused")
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert not Tournament.objects.exists()


def test_entering_with_a_partner_who_accepts(
    cup: TournamentDriver, staff: Player, make_player: Any, anon: Any
) -> None:
    tournament = staff.client.post(URL, _body(cup, capacity=2, public=True), format="json").json()
    entries = f"{URL}/{tournament['id']}/entries"
    a, b, c = make_player(), make_player(), make_player()
    _problem(anon.post(entries, {}, format="json"), 401, "not_authenticated")
    created = a.client.post(entries, {"partner": b.user.username}, format="json")
    assert created.status_code == 201, created.content
    entry = created.json()
    assert entry["status"] == "invited" and entry["partner"]["username"] == b.user.username
    # b sees the invitation; c may not accept it; b accepts once.
    detail = b.client.get(f"{URL}/{tournament['id']}").json()
    assert [e["id"] for e in detail["invitations"]] == [entry["id"]] and detail["my_entry"] is None
    accept = f"{entries}/{entry['id']}/accept"
    before = _state()
    _problem(c.client.post(accept), 403, "not_your_invitation")
    _problem(b.client.post(accept, {"x": 1}, format="json"), 400, "invalid")
    assert _state() == before
    accepted = b.client.post(accept)
    assert accepted.status_code == 200 and accepted.json()["status"] == "confirmed"
    _problem(b.client.post(accept), 409, "entry_not_invited")
    assert b.client.get(f"{URL}/{tournament['id']}").json()["my_entry"]["id"] == entry["id"]
    # The refusals of a second entry, each changing nothing.
    before = _state()
    _problem(a.client.post(entries, {}, format="json"), 409, "already_entered")
    _problem(
        c.client.post(entries, {"partner": a.user.username}, format="json"), 422, "partner_entered"
    )
    _problem(
        c.client.post(entries, {"partner": c.user.username}, format="json"),
        422,
        "cannot_partner_self",
    )
    _problem(
        c.client.post(entries, {"partner": "nobody-here"}, format="json"), 404, "user_not_found"
    )
    d = make_player()
    c.client.post(entries, {"partner": d.user.username}, format="json")  # the second team
    _problem(make_player().client.post(entries, {}, format="json"), 409, "tournament_full")
    assert _state()[0] == before[0] + 1
    _problem(c.client.post(f"{URL}/999999/entries", {}, format="json"), 404, "tournament_not_found")


def test_a_private_tournament_is_entered_with_its_code(
    cup: TournamentDriver, make_player: Any
) -> None:
    owner, guest = make_player(), make_player()
    created = owner.client.post(URL, _body(cup), format="json").json()
    entries = f"{URL}/{created['id']}/entries"
    _problem(guest.client.post(entries, {}, format="json"), 404, "tournament_not_found")
    _problem(
        guest.client.post(entries, {"code": "wrong"}, format="json"), 404, "tournament_not_found"
    )
    assert not Entry.objects.exists()
    ok = guest.client.post(entries, {"code": created["invite_code"]}, format="json")
    assert ok.status_code == 201 and ok.json()["status"] == "solo"
    # One solo entry is a team's place in the list and in the detail alike.
    listed = guest.client.get(URL).json()["results"]
    assert [t["teams"] for t in listed] == [1]
    # Holding a place, the guest sees it without the code, and sees the code.
    detail = guest.client.get(f"{URL}/{created['id']}").json()
    assert detail["invite_code"] == created["invite_code"]


def test_withdrawing_before_the_start_frees_both_places(
    cup: TournamentDriver, staff: Player
) -> None:
    tournament = cup.create(staff)
    a, b = cup.team(tournament)
    mine = f"{URL}/{tournament.pk}/entries/mine"
    response = b.client.delete(mine)
    assert response.status_code == 204
    assert not Membership.objects.exists()
    _problem(a.client.delete(mine), 404, "not_entered")
    again = a.client.post(
        f"{URL}/{tournament.pk}/entries", {"partner": b.user.username}, format="json"
    )
    assert again.status_code == 201


def test_after_the_start_entries_are_closed_and_the_rounds_show_the_matches(
    cup: TournamentDriver, staff: Player, make_player: Any, anon: Any
) -> None:
    tournament = cup.create(staff)
    teams = [cup.team(tournament) for _ in range(3)]
    cup.start(tournament)
    late = make_player()
    _problem(
        late.client.post(f"{URL}/{tournament.pk}/entries", {}, format="json"),
        409,
        "registration_closed",
    )
    rounds = anon.get(f"{URL}/{tournament.pk}/rounds").json()["rounds"]
    assert [r["number"] for r in rounds] == [1]
    pairings = rounds[0]["pairings"]
    assert [p["outcome"] for p in pairings] == ["bye", None]
    match_id = pairings[1]["match_id"]
    # The match is an ordinary one its four players see (and, in a public tournament, anyone).
    player = teams[0][0]
    assert player.client.get(f"{API}/matches/{match_id}").status_code == 200
    standings = anon.get(f"{URL}/{tournament.pk}/standings").json()
    assert [row["entry"]["seed"] for row in standings["standings"]][:1] == [1]
    assert standings["standings"][0]["points"] == 1  # the bye
    detail = anon.get(f"{URL}/{tournament.pk}").json()
    assert detail["status"] == "running" and detail["teams"] == 3
    listed = anon.get(f"{URL}?status=running").json()["results"]
    assert [(t["id"], t["teams"]) for t in listed] == [(tournament.pk, 3)]


def test_a_player_not_seated_there_is_a_stranger_to_the_invitation(
    cup: TournamentDriver, make_player: Any
) -> None:
    owner, partner = make_player(), make_player()
    created = owner.client.post(URL, _body(cup), format="json").json()
    entry = owner.client.post(
        f"{URL}/{created['id']}/entries", {"partner": partner.user.username}, format="json"
    ).json()
    # The partner of a private tournament sees it without the code, to accept.
    assert partner.client.get(f"{URL}/{created['id']}").status_code == 200
    accepted = partner.client.post(f"{URL}/{created['id']}/entries/{entry['id']}/accept")
    assert accepted.status_code == 200
    _problem(
        player_register().client.post(f"{URL}/{created['id']}/entries/x/accept"),
        404,
        "entry_not_found",
    )


def test_every_endpoint_for_every_persona(
    cup: TournamentDriver, staff: Player, make_player: Any, anon: Any
) -> None:
    """Who gets what on each path of a private tournament: anonymous, a stranger, a stranger
    with the code, an entrant, and staff (status codes only; the bodies are tested above)."""
    owner, partner, stranger = make_player(), make_player(), make_player()
    created = owner.client.post(URL, _body(cup), format="json").json()
    base, code = f"{URL}/{created['id']}", created["invite_code"]
    entry = owner.client.post(
        f"{base}/entries", {"partner": partner.user.username}, format="json"
    ).json()
    reads = ["", "/standings", "/rounds"]
    for tail in reads:
        assert anon.get(f"{base}{tail}").status_code == 404, tail
        assert stranger.client.get(f"{base}{tail}").status_code == 404, tail
        assert anon.get(f"{base}{tail}?code={code}").status_code == 200, tail
        assert owner.client.get(f"{base}{tail}").status_code == 200, tail
        assert partner.client.get(f"{base}{tail}").status_code == 200, tail
        assert staff.client.get(f"{base}{tail}").status_code == 200, tail
    accept = f"{base}/entries/{entry['id']}/accept"
    for client in (anon,):
        assert client.post(f"{base}/entries", {}, format="json").status_code == 401
        assert client.post(accept).status_code == 401
        assert client.delete(f"{base}/entries/mine").status_code == 401
    _problem(stranger.client.post(accept), 404, "tournament_not_found")
    _problem(stranger.client.delete(f"{base}/entries/mine"), 404, "not_entered")
    _problem(staff.client.post(accept), 403, "not_your_invitation")
    assert partner.client.post(accept).status_code == 200
    assert owner.client.delete(f"{base}/entries/mine").status_code == 204
