"""Contract fuzzing: Schemathesis drives every operation of the live server's own schema.

The server runs as pytest-django's ``live_server`` (a real HTTP server thread); the schema is
fetched from it at ``/api/schema/``. The fuzzing player sits in an active four-human match in
which the table keeps play moving to them, and path ids are steered to real matches (the active
one most of all) so the generated requests reach the interesting code, not only 404s.

Checks on every response: no 5xx, status code documented, content type documented (problem
details are ``application/problem+json``), body valid against the schema, headers documented,
schema-invalid input rejected with a 4xx, and every 4xx in the one problem shape.
"""

from __future__ import annotations

import json
import random
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from accounts.services import token_issue
from games.models import Match, MatchStatus, Seat
from tests.support.players import Player, create_match

MOVES = "POST /api/v1/matches/{id}/moves"
LOGOUT = "POST /api/v1/auth/logout"
# Schema-valid data is never a 400 (api.md): a 400 means the schema forbids the body. What the
# schema cannot know (the state of the match, the ruleset, the password, who the other player
# is) is refused with a 409 or a 422 and a specific code; anything else must be accepted, or be
# a 401/403/404/429. Every operation is held to it, the moves to the live match included.
POSITIVE_DATA_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]

# Minutes of generated requests, on PostgreSQL only by default (conftest.py says why).
pytestmark = pytest.mark.slow

schema = schemathesis.pytest.from_fixture("api_schema")


class World:
    """The fuzzing player and the matches the generated ids are steered to."""

    def __init__(self, make_player: Callable[..., Player]) -> None:
        self.make_player = make_player
        self.rng = random.Random(20240601)
        self.seen: Counter[tuple[str, int]] = Counter()
        self.fuzzer = make_player()
        self.token = self.fuzzer.token
        self.others = [make_player() for _ in range(3)]
        self.stranger = make_player()
        self.active = self._new_active()
        self.waiting_own = self._new_waiting_own()
        self.public_other = self._new_public_other()
        self.private_other = create_match(self.stranger)["id"]
        self.finished = self._new_finished()

    # --- the matches ---------------------------------------------------------------------------

    def _seat_table(self, match: dict[str, Any], players: list[Player]) -> None:
        for seat, player in enumerate(players[1:], start=1):
            body: dict[str, Any] = {"seat": seat}
            if match.get("invite_code"):
                body["code"] = match["invite_code"]
            response = player.client.post(
                f"/api/v1/matches/{match['id']}/join", body, format="json"
            )
            assert response.status_code == 200, response.content

    def _new_active(self, **options: Any) -> int:
        players = [self.fuzzer, *self.others]
        created = create_match(self.fuzzer, **options)
        self._seat_table(created, players)
        return created["id"]

    def _new_waiting_own(self) -> int:
        return create_match(self.fuzzer, visibility="public")["id"]

    def _new_public_other(self) -> int:
        return create_match(self.stranger, visibility="public")["id"]

    def _new_finished(self) -> int:
        """A match played to its end (target 1: the first complete round decides it)."""
        match_id = self._new_active(target=1)
        for _ in range(2000):
            if not self._step(match_id, include_fuzzer=True):
                break
        assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED
        return match_id

    # --- play --------------------------------------------------------------------------------

    def _player_at(self, match_id: int, seat: int) -> Player:
        user_id = Seat.objects.get(match_id=match_id, index=seat).user_id
        return next(p for p in (self.fuzzer, *self.others) if p.user.pk == user_id)

    def _step(self, match_id: int, *, include_fuzzer: bool) -> bool:
        """One legal move by the seat to act; False when nobody (else) is to act."""
        match = Match.objects.get(pk=match_id)
        if match.status != MatchStatus.ACTIVE or match.to_act is None:
            return False
        player = self._player_at(match_id, match.to_act)
        if player is self.fuzzer and not include_fuzzer:
            return False
        view = player.client.get(f"/api/v1/matches/{match_id}").json()
        moves = view["round"]["legal_moves"]
        if not moves:
            return False
        response = player.client.post(
            f"/api/v1/matches/{match_id}/moves", self.rng.choice(moves), format="json"
        )
        assert response.status_code == 201, response.content
        return True

    def legal_move_for_fuzzer(self) -> dict[str, Any] | None:
        view = self.fuzzer.client.get(f"/api/v1/matches/{self.active}").json()
        moves = view["round"]["legal_moves"] if view.get("round") else []
        return self.rng.choice(moves) if moves else None

    def prepare(self) -> None:
        """Keep the world playable: the active match active and waiting for the fuzzer."""
        if Match.objects.get(pk=self.active).status != MatchStatus.ACTIVE:
            self.active = self._new_active()
        for _ in range(12):
            if not self._step(self.active, include_fuzzer=False):
                break
        waiting = Match.objects.get(pk=self.waiting_own)
        if waiting.status != MatchStatus.WAITING or not waiting.seats.filter(user=self.fuzzer.user):
            self.waiting_own = self._new_waiting_own()
        if Match.objects.get(pk=self.public_other).status != MatchStatus.WAITING:
            self.public_other = self._new_public_other()

    def fresh_token(self) -> str:
        return token_issue(user=self.fuzzer.user, device="fuzz")

    # --- steering generated ids ----------------------------------------------------------------

    def match_id_for(self, generated: int) -> int:
        """Most generated ids become the active match; some the other real ones; a few stay
        as generated (almost always unknown: 404)."""
        targets = [
            self.active,
            self.active,
            self.active,
            self.active,
            self.waiting_own,
            self.public_other,
            self.private_other,
            self.finished,
            generated,
        ]
        return targets[generated % len(targets)]


_MOVE_FIELDS = {
    "bid": ("call", "suit"),
    "double": ("call",),
    "declare": ("projects",),
    "play": ("card",),
}
_CALLS = {"bid": ["pass", "hokum", "sun", "ashkal"], "double": ["pass", "double", "gahwa"]}
_SOME_CARDS = ["AS", "10H", "KD", "7C", "QS", "JH", "9D", "8C"]


def _tidy_move(body: Any, rng: random.Random) -> dict[str, Any] | None:
    """A generated move body reduced to the fields its ``type`` takes, with a real call: the
    rules engine then judges it (mostly 422: not your turn, card not held; sometimes 201)."""
    if not isinstance(body, dict) or body.get("type") not in _MOVE_FIELDS:
        return None
    kind = body["type"]
    out = {"type": kind}
    out.update({k: body[k] for k in _MOVE_FIELDS[kind] if body.get(k) is not None})
    if kind in _CALLS:
        out["call"] = rng.choice(_CALLS[kind])
    if kind == "play":
        out.setdefault("card", rng.choice(_SOME_CARDS))
    if kind == "declare":
        out.setdefault("projects", [{"kind": "sira", "cards": ["AH", "KH", "QH"]}])
    if rng.random() < 0.3 and "expected_version" in body:
        out["expected_version"] = body["expected_version"]  # mostly stale: 409
    return out


def _problem_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx is an RFC 9457 problem in the one shape, with a stable code."""
    if not 400 <= response.status_code < 500:
        return None
    content_type = response.headers.get("Content-Type", response.headers.get("content-type"))
    if isinstance(content_type, list):
        content_type = content_type[0]
    assert content_type and content_type.startswith("application/problem+json"), content_type
    body = response.json()
    assert isinstance(body, dict), body
    missing = {"type", "title", "status", "detail", "code"} - set(body)
    assert not missing, f"problem without {sorted(missing)}: {body}"
    assert body["status"] == response.status_code, body
    assert isinstance(body["code"], str) and body["code"], body
    assert body["type"].endswith("/" + body["code"]), body
    if response.status_code == 400:
        assert isinstance(body.get("errors"), list) and body["errors"], body
    return True


@pytest.fixture
def world(
    live_server: Any, make_player: Callable[..., Player], no_throttling: None
) -> Iterator[World]:
    world = World(make_player)
    yield world
    # The steering worked: the fuzzer's requests reached the live match, not only 404s.
    print("\nresponses by operation and status:")
    for (label, status), count in sorted(world.seen.items()):
        print(f"  {label:<52} {status} x{count}")
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as answer:
        paths = json.load(answer)["paths"]
    every = {f"{method.upper()} {path}" for path, ops in paths.items() for method in ops}
    assert every <= {label for label, _ in world.seen}, "an operation was never exercised"
    for wanted in (
        ("GET /api/v1/matches/{id}", 200),
        (MOVES, 201),
        (MOVES, 422),
        ("GET /api/v1/matches/{id}/moves", 200),
        ("GET /api/v1/matches/{id}/record", 200),
        ("GET /api/v1/matches/{id}/rounds/{number}/record", 200),
        ("POST /api/v1/matches/{id}/join", 200),
    ):
        assert world.seen[wanted], f"fuzzing never got {wanted[1]} from {wanted[0]}"


def _integer(value: Any) -> int | None:
    """A generated integer path value (the coverage phase sends them as strings); None for
    anything else, which is left alone to be refused."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.lstrip("-").isdigit():
        return int(value)
    return None


@pytest.fixture
def api_schema(live_server: Any, world: World) -> Any:
    config = schemathesis.Config.from_dict(
        {
            "seed": 20240601,
            "phases": {"stateful": {"enabled": False}},
            # DRF refuses NUL characters in every string field (400): not worth a pattern on
            # each string of the schema.
            "generation": {"mode": "all", "max-examples": 25, "allow-x00": False},
            "checks": {"positive_data_acceptance": {"expected-statuses": POSITIVE_DATA_STATUSES}},
        }
    )
    loaded = schemathesis.openapi.from_url(
        f"{live_server.url}/api/schema/?format=json", config=config
    )
    loaded.config.update(base_url=live_server.url)

    @loaded.hook
    def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
        if not path_parameters:
            return path_parameters
        generated = _integer(path_parameters.get("id"))
        if generated is not None:
            path_parameters["id"] = world.match_id_for(abs(generated))
        number = _integer(path_parameters.get("number"))
        if number is not None and number % 3:
            path_parameters["number"] = 1 + number % 2  # rounds 1 and 2: played, or not
        return path_parameters

    @loaded.auth(refresh_interval=None)
    class FuzzerToken:
        """The fuzzing player's bearer token, unless the case negates the credentials. Each
        logout gets a token of its own, so revoking it leaves the fuzzer signed in."""

        def get(self, case: Any, context: Any) -> str:
            return world.fresh_token() if case.operation.label == LOGOUT else world.token

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    return loaded


@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@schema.parametrize()
def test_every_operation_honours_the_contract(case: Any, world: World) -> None:
    world.prepare()
    if case.operation.label == MOVES and case.path_parameters.get("id") == world.active:
        # Random bodies mostly fail validation (400). Some moves sent to the live match are
        # its legal moves, so they are accepted (201) and the match moves on; some are tidied
        # into well-formed moves for the rules engine to refuse (422) or accept.
        draw = world.rng.random()
        if draw < 0.3 and (move := world.legal_move_for_fuzzer()):
            case.body = dict(move)
        elif draw < 0.7 and (tidy := _tidy_move(case.body, world.rng)):
            case.body = tidy
    response = case.call_and_validate(additional_checks=[_problem_shape])
    world.seen[case.operation.label, response.status_code] += 1
