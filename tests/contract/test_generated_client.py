"""A real client: openapi-python-client generates a Python package from the live server's own
``/api/schema/`` at test time, and whole matches are played through that generated code only
(its ``api`` functions and ``models``), as a mobile team's generated client would play them.

The generator must produce the client with no warnings (``--fail-on-warning``); if it stumbles,
the schema is what needs fixing. Every answer the generated client receives is validated
against the schema strictly (``tests.contract.strict``).
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.contract.strict import StrictSchema
from tests.support.workers import WorkerProcess, wait_for

PACKAGE = "baloot_generated_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


# The request member of the move union for each move type (api.md's move bodies).
MOVE_MEMBERS = {
    "bid": "BidMoveRequest",
    "double": "DoubleMoveRequest",
    "declare": "DeclareMoveRequest",
    "play": "PlayMoveRequest",
}


class Generated:
    """The generated package's modules, imported by name, and the strict check of every
    answer its clients receive."""

    def __init__(self, root: ModuleType, strict: StrictSchema) -> None:
        self.root = root
        self.strict = strict

    def http_args(self) -> dict[str, Any]:
        """httpx options for a generated client: each answer is checked as it arrives."""

        def check(response: Any) -> None:
            response.read()
            self.strict.check(
                response.request.method,
                str(response.request.url),
                response.status_code,
                response.headers.get("content-type"),
                {k.lower(): v for k, v in response.headers.items()},
                response.content,
            )

        return {"event_hooks": {"response": [check]}}

    def assert_strictly_valid(self) -> None:
        assert self.strict.validated > 0
        assert not self.strict.findings, "answers the schema does not describe:\n" + (
            self.strict.report()
        )

    def __getattr__(self, dotted: str) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.{dotted}")

    def api(self, tag: str, operation: str) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.api.{tag}.{operation}")

    @property
    def models(self) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.models")


@pytest.fixture
def generated(live_server: Any, tmp_path: Path, no_throttling: None) -> Any:
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as answer:
        schema = json.load(answer)
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    (tmp_path / "generator.yaml").write_text(
        f"package_name_override: {PACKAGE}\nproject_name_override: {PACKAGE}\npost_hooks: []\n"
        # The generator knows no image types: an avatar upload is bytes to it (docs/clients.md).
        "content_type_overrides:\n"
        "  image/jpeg: application/octet-stream\n"
        "  image/png: application/octet-stream\n"
    )
    result = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--output-path",
            str(tmp_path / "src" / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(tmp_path / "generator.yaml"),
            "--fail-on-warning",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(tmp_path / "src"))
    try:
        gen = Generated(importlib.import_module(PACKAGE), StrictSchema(schema))
        yield gen
        gen.assert_strictly_valid()
    finally:
        sys.path.remove(str(tmp_path / "src"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class Player:
    """One human, holding an AuthenticatedClient of the generated package."""

    def __init__(self, gen: Generated, base_url: str, name: str) -> None:
        self.gen = gen
        models = gen.models
        anonymous = gen.client.Client(
            base_url=base_url, raise_on_unexpected_status=True, httpx_args=gen.http_args()
        )
        answer = gen.api("auth", "auth_register").sync(
            client=anonymous,
            body=models.RegisterRequest(
                username=name, password="correct horse battery", display_name=name.title()
            ),
        )
        assert isinstance(answer, models.AuthAnswer), answer
        self.user_id = answer.user.id
        self.client = gen.client.AuthenticatedClient(
            base_url=base_url,
            token=answer.token,
            raise_on_unexpected_status=True,
            httpx_args=gen.http_args(),
        )

    def view(self, match_id: int) -> Any:
        view = self.gen.api("matches", "matches_retrieve").sync(match_id, client=self.client)
        assert isinstance(view, self.gen.models.MatchView), view
        return view

    def play(self, view: Any, rng: random.Random) -> Any:
        """Post one of the view's legal moves, as it is, through the generated models."""
        models = self.gen.models
        legal = rng.choice(view.round_.legal_moves).to_dict()
        # The union member of the same type, with the version the move was chosen at.
        member = getattr(models, MOVE_MEMBERS[legal["type"]])
        body = member.from_dict({**legal, "expected_version": view.version})
        answer = self.gen.api("matches", "matches_moves_create").sync(
            view.id, client=self.client, body=body
        )
        assert isinstance(answer, models.MatchView), answer.to_dict()
        assert answer.version > view.version
        return answer


def _finished_checks(gen: Generated, player: Player, match_id: int) -> None:
    models = gen.models
    view = player.view(match_id)
    assert view.status == models.MatchStatusEnum.FINISHED
    assert view.winner_team in (0, 1)
    assert view.end_reason == models.EndReasonEnum.TARGET_REACHED
    sheet = gen.api("matches", "matches_rounds_list").sync(match_id, client=player.client)
    assert isinstance(sheet, models.ScoreSheet)
    assert sheet.results and sheet.scores == view.scores
    record = gen.api("matches", "matches_record_retrieve").sync(match_id, client=player.client)
    assert isinstance(record, models.Record)
    assert record.result.winner_team == view.winner_team
    first = gen.api("matches", "matches_rounds_record_retrieve").sync(
        match_id, 1, client=player.client
    )
    assert isinstance(first, models.Record)
    assert len(first.rounds[0].deck) == 32 and first.rounds[0].salt
    log = gen.api("matches", "matches_moves_list").sync(match_id, client=player.client, after=0)
    assert isinstance(log, models.MoveLog)
    assert log.version == view.version
    inbox = gen.api("me", "me_matches_list").sync(client=player.client)
    assert isinstance(inbox, models.PaginatedInboxEntryList)
    assert match_id in {entry.id for entry in inbox.results}


def test_four_humans_play_a_whole_match_through_the_generated_client(
    generated: Generated, live_server: Any
) -> None:
    gen = generated
    models = gen.models
    players = [Player(gen, live_server.url, f"client{n}") for n in range(4)]

    created = gen.api("matches", "matches_create").sync(
        client=players[0].client,
        body=models.MatchCreateRequest(
            target=40, visibility=models.VisibilityEnum.PRIVATE, turn_seconds=3600
        ),
    )
    assert isinstance(created, models.MatchView), created
    assert created.status == models.MatchStatusEnum.WAITING
    assert created.invite_code
    for seat, player in enumerate(players[1:], start=1):
        joined = gen.api("matches", "matches_join").sync(
            created.id,
            client=player.client,
            body=models.MatchJoinRequest(seat=seat, code=created.invite_code),
        )
        assert isinstance(joined, models.MatchView), joined
        assert joined.my_seat == seat

    rng = random.Random(7)
    view = players[0].view(created.id)
    moves = 0
    while view.status == models.MatchStatusEnum.ACTIVE:
        actor = players[view.round_.to_act]
        view = actor.play(actor.view(created.id), rng)
        moves += 1
        assert moves < 5000, "the match never ended"
        if moves == 1:
            # A refusal comes back as the generated Problem model, not an exception.
            other = players[(view.round_.to_act + 1) % 4].view(created.id)
            assert not other.round_.legal_moves
            refused = gen.api("matches", "matches_moves_create").sync(
                created.id,
                client=players[(view.round_.to_act + 1) % 4].client,
                body=models.BidMoveRequest(type_="bid", call=models.BidCallEnum.PASS),
            )
            assert isinstance(refused, models.Problem), refused
            assert refused.code == models.ErrorCodeEnum.NOT_YOUR_TURN
            assert refused.status == 422

    _finished_checks(gen, players[0], created.id)


@pytest.mark.worker
def test_one_human_plays_three_bots_through_the_generated_client(
    generated: Generated, live_server: Any, worker: WorkerProcess
) -> None:
    gen = generated
    models = gen.models
    human = Player(gen, live_server.url, "soloist")
    created = gen.api("matches", "matches_create").sync(
        client=human.client,
        body=models.MatchCreateRequest(
            target=40,
            turn_seconds=600,
            bots=models.BotSeats(
                field_1=models.BotLevelEnum.EASY,
                field_2=models.BotLevelEnum.NORMAL,
                field_3=models.BotLevelEnum.EASY,
            ),
        ),
    )
    assert isinstance(created, models.MatchView), created
    assert created.status == models.MatchStatusEnum.ACTIVE
    assert [seat.bot for seat in created.seats[1:]] == [
        models.BotLevelEnum.EASY,
        models.BotLevelEnum.NORMAL,
        models.BotLevelEnum.EASY,
    ]

    def my_turn_or_over() -> Any:
        view = human.view(created.id)
        if view.status != models.MatchStatusEnum.ACTIVE or view.round_.legal_moves:
            return view
        return None

    rng = random.Random(11)
    human_moves = 0
    while True:
        view = wait_for(my_turn_or_over, timeout=60, worker=worker, what="the bots to answer")
        if view.status != models.MatchStatusEnum.ACTIVE:
            break
        assert view.round_.deadline is not None  # a human turn shows its clock
        human.play(view, rng)
        human_moves += 1
        assert human_moves < 2000, "the match never ended"

    assert human_moves > 0
    _finished_checks(gen, human, created.id)
    log = gen.api("matches", "matches_moves_list").sync(created.id, client=human.client)
    actors = {entry.actor for entry in log.results}
    assert models.ActorEnum.BOT in actors and models.ActorEnum.HUMAN in actors
