"""A TypeScript client, as a web or React Native team would build one: openapi-typescript
generates bindings from the live server's ``/api/schema/`` (with ``--array-length``, so that a
team pair is ``[number, number]``; docs/clients.md names the toolchain), the program
in tests/clients/ts/src (openapi-fetch over those bindings, nothing hand-typed) is compiled with
``tsc --strict`` and plays whole matches, and every answer it received is validated against the
schema by Ajv in strict mode. ``src/exact.ts`` is compiled with it and only compiled: it holds
the exact types (closed sets as literal unions, the same in requests and answers, team pairs as
tuples), and a schema that loosens one of them makes it fail to compile. Next to those
bindings, Modelina generates the types of every stream message from the live
``/api/asyncapi/`` (``stream-types.mjs``); they compile under the same ``tsc --strict``, and a
program typed by them (``src/streams.ts``) plays a match from the match streams alone, served
by uvicorn (ASGI: HTTP and WebSockets on one port).

The TypeScript side is installed by ``make test`` (``npm ci`` in tests/clients/ts). Nothing here
loosens the generator, the compiler or the validator: when one of them stumbles, the schema is
what needs fixing, and the failure message says where.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.live.test_asyncapi import _validator
from tests.support import tiers
from tests.support.live import ThreadServer
from tests.support.workers import WorkerProcess

pytestmark = pytest.mark.node

TS_CLIENT = Path(__file__).resolve().parents[1] / "clients" / "ts"
NODE_MODULES = TS_CLIENT / "node_modules"
TARGET = 1  # the lowest target the create serializer allows: one round decides the match
# The stream match: long enough for a few rounds and declarations in them.
STREAM_TARGET = 40


@dataclass
class Build:
    root: Path
    schema: Path
    tsc_ok: bool
    tsc_output: str = field(repr=False)

    def node(
        self, script: str, *args: str, timeout: float, flags: tuple[str, ...] = ()
    ) -> subprocess.CompletedProcess[str]:
        return _run(["node", *flags, str(self.root / "dist" / script), *args], self.root, timeout)


def _run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    tiers.require("node", "node")
    return subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.fixture(scope="module")
def ts_build(live_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Bindings generated from the live schema and the program compiled, in a scratch copy."""
    assert shutil.which("node"), "node is not installed"
    assert (NODE_MODULES / ".bin" / "tsc").exists(), (
        f"{NODE_MODULES} is missing: `make test` installs it (npm ci in {TS_CLIENT})"
    )
    root = _scratch(tmp_path_factory.mktemp("ts-client"))
    schema = root / "schema.json"
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as answer:
        schema.write_bytes(answer.read())
    asyncapi = root / "asyncapi.json"
    with urllib.request.urlopen(f"{live_server.url}/api/asyncapi/") as answer:
        asyncapi.write_bytes(answer.read())
    return _build(root, schema, asyncapi)


def _scratch(tmp: Path) -> Path:
    """A copy of the client's sources next to its installed packages."""
    tmp.mkdir(exist_ok=True)
    for name in ("package.json", "tsconfig.json", "stream-types.mjs"):
        shutil.copy(TS_CLIENT / name, tmp / name)
    shutil.copytree(TS_CLIENT / "src", tmp / "src")
    (tmp / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    return tmp


def _build(root: Path, schema: Path, asyncapi: Path) -> Build:
    """Bindings generated from ``schema`` and the stream messages' types from ``asyncapi``
    into ``root``/src, and everything compiled."""
    bin_dir = NODE_MODULES / ".bin"
    # --array-length: minItems = maxItems = 2 becomes [number, number].
    command = [str(bin_dir / "openapi-typescript"), str(schema), "--array-length"]
    generated = _run([*command, "-o", "src/schema.d.ts"], root, 120)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # The stream messages' types, from the AsyncAPI document, by Modelina.
    streams = _run(["node", "stream-types.mjs", str(asyncapi), "src/stream.d.ts"], root, 120)
    assert streams.returncode == 0, streams.stdout + streams.stderr
    # noEmitOnError is off, so the validator and the program exist even when the check fails;
    # the match tests refuse to run them unless the check passed.
    compiled = _run([str(bin_dir / "tsc"), "-p", ".", "--strict"], root, 300)
    return Build(
        root=root,
        schema=schema,
        tsc_ok=compiled.returncode == 0,
        tsc_output=compiled.stdout + compiled.stderr,
    )


def _require_compiled(build: Build) -> None:
    assert build.tsc_ok, "the TypeScript client does not compile:\n" + build.tsc_output


def _validate(build: Build, *recordings: Path) -> dict[str, Any]:
    result = build.node("validate.js", str(build.schema), *map(str, recordings), timeout=120)
    assert result.stdout, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    report["ok"] = result.returncode == 0
    return report


def _play(build: Build, scenario: str, base_url: str, seed: int) -> dict[str, Any]:
    _require_compiled(build)
    recording = build.root / f"{scenario}-recording.json"
    started = time.monotonic()
    result = build.node(
        "play.js", scenario, base_url, str(recording), str(TARGET), str(seed), timeout=300
    )
    elapsed = time.monotonic() - started
    assert recording.exists(), result.stdout + result.stderr
    played = json.loads(recording.read_text())
    # The answers are validated whether or not the match got to its end.
    report = _validate(build, recording)
    validation = json.dumps(report, indent=2)
    assert result.returncode == 0, (
        f"the {scenario} match failed after {elapsed:.1f}s:\n{played['failure'] or result.stderr}"
        f"\n--- strict validation of the {len(played['exchanges'])} answers received ---\n"
        + validation
    )
    outcome = played["outcome"]
    assert outcome["finished"], outcome
    assert report["ok"], "strict validation failed:\n" + validation
    assert report["validated"] == len(played["exchanges"]) - _bodiless(played["exchanges"])
    assert not outcome["findings"], "the contract (docs/rules/api.md) is not met:\n" + "\n".join(
        outcome["findings"]
    )
    return outcome


def _bodiless(exchanges: list[dict[str, Any]]) -> int:
    return sum(1 for exchange in exchanges if exchange["body"] == "")


def test_bindings_compile_under_tsc_strict(ts_build: Build) -> None:
    _require_compiled(ts_build)


def test_the_schema_compiles_under_a_strict_validator(ts_build: Build) -> None:
    report = _validate(ts_build)
    assert report["ok"], "the schema does not compile strictly:\n" + json.dumps(report, indent=2)


def test_four_humans_play_a_private_match_through_the_ts_client(
    ts_build: Build, live_server: Any, no_throttling: None
) -> None:
    outcome = _play(ts_build, "humans", live_server.url, seed=7)
    assert outcome["moves"] > 0


@pytest.mark.worker
def test_one_human_plays_three_bots_through_the_ts_client(
    ts_build: Build, live_server: Any, worker: WorkerProcess, no_throttling: None
) -> None:
    outcome = _play(ts_build, "bots", live_server.url, seed=11)
    assert outcome["moves"] > 0


def test_the_stream_types_cover_every_message_of_the_asyncapi_document(ts_build: Build) -> None:
    _require_compiled(ts_build)
    generated = (ts_build.root / "src" / "stream.d.ts").read_text()
    document = json.loads((ts_build.root / "asyncapi.json").read_text())
    for message in document["components"]["messages"].values():
        name = message["payload"]["$ref"].rsplit("/", 1)[-1]
        assert f"export interface {name} {{" in generated, name
    # The match channel's messages are one union, discriminated by `type`.
    assert (
        "export type Match = MoveMessage | RevealMessage | ViewMessage | ChatMessage;" in generated
    )
    # And the player stream's: inbox events, friends' presence and tournament events.
    assert "export type Me = InboxMessage | PresenceMessage | TournamentMessage;" in generated


@pytest.mark.django_db(transaction=True)
def test_four_humans_play_a_match_from_the_streams_with_the_generated_types(
    ts_build: Build, stream_server: ThreadServer, no_throttling: None
) -> None:
    _require_compiled(ts_build)
    out = ts_build.root / "streams-recording.json"
    result = ts_build.node(
        "streams.js",
        *(stream_server.http, stream_server.url, str(out), str(STREAM_TARGET), "5"),
        timeout=300,
        flags=("--experimental-websocket",),  # Node 20's WebSocket
    )
    assert out.exists(), result.stdout + result.stderr
    played = json.loads(out.read_text())
    assert result.returncode == 0, played["failure"] or played["outcome"] or result.stderr
    outcome = played["outcome"]
    assert outcome["finished"] and outcome["moves"] > 0 and not outcome["findings"], outcome
    # Each declaration a seat was sent hidden was shown again by a reveal.
    assert outcome["revealed"] >= outcome["hidden"], outcome
    # Every message each seat received is one the AsyncAPI document describes.
    document = json.loads((ts_build.root / "asyncapi.json").read_text())
    schemas = {
        kind: _validator(document, f"{kind.capitalize()}Message")
        for kind in ("move", "reveal", "view", "chat")
    }
    for messages in played["messages"]:
        assert messages
        for message in messages:
            schemas[message["type"]].validate(message)


REF = "#/components/schemas/"


def _loosen_ruleset(components: dict[str, Any]) -> str:
    components["MatchView"]["properties"]["ruleset"] = {"type": "string"}
    return "not assignable to type 'never'"  # the exhaustive switch over the view's ruleset


def _loosen_phrase(components: dict[str, Any]) -> str:
    components["ChatMessage"]["properties"]["phrase"] = {"type": "string"}
    return "Type 'string' is not assignable to type '\"hello\""  # a message's phrase


def _loosen_scores(components: dict[str, Any]) -> str:
    scores = components["MatchView"]["properties"]["scores"]
    del scores["minItems"], scores["maxItems"]
    return "not assignable to type 'Pair'"  # the destructured pair


@pytest.mark.parametrize("loosen", [_loosen_ruleset, _loosen_phrase, _loosen_scores])
def test_exact_types_do_not_compile_against_a_looser_schema(
    ts_build: Build, tmp_path: Path, loosen: Any
) -> None:
    # exact.ts is the client's check on the schema's precision: give it the live schema with
    # one field loosened back to what issue 26 found (a bare string, an unbounded array) and
    # the program must stop compiling, there and only there.
    document = json.loads(ts_build.schema.read_text())
    expected = loosen(document["components"]["schemas"])
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps(document))
    build = _build(_scratch(tmp_path / "client"), loose, ts_build.root / "asyncapi.json")
    assert not build.tsc_ok, f"{loosen.__name__}: exact.ts still compiles"
    errors = [line for line in build.tsc_output.splitlines() if ": error TS" in line]
    assert errors and all(line.startswith("src/exact.ts(") for line in errors), build.tsc_output
    assert expected in build.tsc_output, build.tsc_output
