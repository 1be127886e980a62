"""The event contract: ``GET /api/asyncapi/`` is a valid AsyncAPI 3 document (the official
parser, run by node), its schemas are the OpenAPI components, and real stream messages
validate against it. And the ASGI app still serves the API's static assets."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from live import asyncapi
from tests.support import tiers
from tests.support.live import Stream, ThreadServer
from tests.support.players import create_match, player_register

CHECKER = Path(__file__).resolve().parents[1] / "clients" / "asyncapi"


@pytest.fixture
def document(client: Any) -> dict[str, Any]:
    response = client.get("/api/asyncapi/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return dict(response.json())


@pytest.mark.node
def test_the_official_parser_finds_no_error(document: dict[str, Any], tmp_path: Path) -> None:
    node = shutil.which("node")
    # Node.js is one of make test's requirements (the README says so): missing, it fails.
    assert node is not None, "node is not installed; make test needs Node.js 20 with npm"
    assert (CHECKER / "node_modules" / "@asyncapi" / "parser").is_dir(), (
        "run `npm ci` in tests/clients/asyncapi (make test does)"
    )
    path = tmp_path / "asyncapi.json"
    path.write_text(json.dumps(document))
    tiers.require("node", "node")
    run = subprocess.run(
        [node, str(CHECKER / "validate.mjs"), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["valid"] and not report["errors"] and not report["warnings"], report
    assert report["channels"] == ["/ws/v1/matches/{match_id}", "/ws/v1/me"]
    assert sorted(report["messages"]) == [
        "chat",
        "inbox",
        "move",
        "presence",
        "reveal",
        "tournament",
        "view",
    ]


def test_it_describes_every_message_close_code_and_way_in(
    document: dict[str, Any], client: Any
) -> None:
    assert document["asyncapi"] == "3.0.0"
    openapi = client.get("/api/schema/?format=json").json()
    # The view and the move item are the REST contract's own components.
    schemas = document["components"]["schemas"]
    for name in ("MatchView", "MoveLogEntry"):
        assert name in openapi["components"]["schemas"]
        assert schemas[name] == asyncapi._openapi_as_json_schema(
            openapi["components"]["schemas"][name]
        )
    text = json.dumps(document)
    for needle in ("4401", "4403", "4404", "4429", "since", "ws-ticket", "Bearer"):
        assert needle in text
    assert set(schemas["InboxEventEnum"]["enum"]) == {
        "your_turn",
        "match_started",
        "match_finished",
        "invitation",
        "seat_to_bot",
        "rematch_cancelled",
        "analysis_ready",
    }
    assert "/api/v1/auth/ws-ticket" in openapi["paths"]
    # A chat message is the chat log's item with its type: its own id, no version.
    chat = schemas["ChatMessage"]
    log_item = openapi["components"]["schemas"]["ChatMessage"]
    assert set(chat["properties"]) == {"type", *log_item["properties"]}
    assert set(chat["required"]) == set(chat["properties"])
    assert "id" in chat["properties"] and "version" not in chat["properties"]
    ticket = openapi["paths"]["/api/v1/auth/ws-ticket"]["post"]
    assert {"201", "401", "403", "429"} <= set(ticket["responses"])


def test_its_server_is_the_host_and_scheme_the_document_was_asked_on(
    client: Any, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["play.example", "127.0.0.1"]
    plain = client.get("/api/asyncapi/", HTTP_HOST="127.0.0.1:8123").json()
    assert plain["servers"] == {
        "api": {**plain["servers"]["api"], "host": "127.0.0.1:8123", "protocol": "ws"}
    }
    behind_tls = client.get("/api/asyncapi/", HTTP_HOST="play.example", secure=True).json()
    assert behind_tls["servers"]["api"]["host"] == "play.example"
    assert behind_tls["servers"]["api"]["protocol"] == "wss"
    # Only the server is the request's: the rest is the one document built per process.
    assert {**plain, "servers": None} == {**behind_tls, "servers": None}
    # A host the settings do not allow is refused, as everywhere else.
    assert client.get("/api/asyncapi/", HTTP_HOST="evil.example").status_code == 400


def test_both_channels_document_the_authorization_header(document: dict[str, Any]) -> None:
    for name in ("match", "me"):
        ws = document["channels"][name]["bindings"]["ws"]
        assert "Authorization" in ws["headers"]["properties"], name
        assert "ticket" in ws["query"]["properties"], name


def test_closed_sets_are_named_enums_the_rest_contract_shares(
    document: dict[str, Any], client: Any
) -> None:
    # A generator gives a named enum one type; an enum written inline inside a message gets a
    # type of its own that a client cannot pass where the REST type is wanted.
    schemas = document["components"]["schemas"]

    def inline_enums(node: Any, path: str) -> list[str]:
        if isinstance(node, dict):
            found = [path] if "enum" in node else []
            for key, value in node.items():
                found += inline_enums(value, f"{path}/{key}")
            return found
        if isinstance(node, list):
            return [p for i, item in enumerate(node) for p in inline_enums(item, f"{path}/{i}")]
        return []

    inline = [
        p for name, schema in schemas.items() for p in inline_enums(schema, name) if p != name
    ]
    assert inline == []
    chat = schemas["ChatMessage"]["properties"]["phrase"]
    assert chat["$ref"] == "#/components/schemas/PhraseEnum"
    rest = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    assert schemas["PhraseEnum"]["enum"] == rest["PhraseEnum"]["enum"]
    assert schemas["InboxMessage"]["properties"]["event"]["$ref"].endswith("/InboxEventEnum")
    # A friend's presence on the stream is GET /me/friends' own enum.
    presence = schemas["PresenceMessage"]["properties"]["presence"]
    assert presence["$ref"] == "#/components/schemas/PresenceEnum"
    assert schemas["PresenceEnum"]["enum"] == rest["PresenceEnum"]["enum"]
    assert rest["PresenceEnum"]["enum"] == ["online", "in_match", "offline"]


def _validator(document: dict[str, Any], name: str) -> Any:
    resource = Resource.from_contents(document, default_specification=DRAFT7)
    registry: Registry[Any] = Registry().with_resource("urn:asyncapi", resource)
    return jsonschema.Draft7Validator(
        {"$ref": f"urn:asyncapi#/components/schemas/{name}"}, registry=registry
    )


@pytest.mark.django_db(transaction=True)
def test_real_messages_validate_against_the_document(
    stream_server: ThreadServer, table: Any
) -> None:
    document = asyncapi.document()
    view, players = table()
    match_id = view["id"]
    legal = view["round"]["legal_moves"]
    seat = view["round"]["to_act"]
    inbox = Stream(f"{stream_server.url}/ws/v1/me", players[(seat + 1) % 4].token)
    stream = Stream(f"{stream_server.url}/ws/v1/matches/{match_id}", players[0].token)
    stream.until_view(view["version"])
    move = players[seat].client.post(
        f"/api/v1/matches/{match_id}/moves",
        legal[0]
        if seat == 0
        else players[seat]
        .client.get(f"/api/v1/matches/{match_id}")
        .json()["round"]["legal_moves"][0],
        format="json",
    )
    assert move.status_code == 201, move.content
    got = stream.until_view(move.json()["version"])
    assert [m["type"] for m in got] == ["move", "view"]
    _validator(document, "MoveMessage").validate(got[0])
    _validator(document, "ViewMessage").validate(got[1])
    _validator(document, "InboxMessage").validate(inbox.next())


@pytest.mark.django_db(transaction=True)
def test_asgi_serves_swagger_ui_the_admin_assets_and_the_api(stream_server: ThreadServer) -> None:
    for path in ("/api/docs/", "/static/admin/css/base.css", "/api/asyncapi/", "/admin/login/"):
        with urllib.request.urlopen(stream_server.http + path, timeout=10) as answer:
            assert answer.status == 200, path
            assert answer.read()
    # Served on a port of its own, the document names that host and port as its server.
    with urllib.request.urlopen(stream_server.http + "/api/asyncapi/", timeout=10) as answer:
        served = json.load(answer)
    assert served["servers"]["api"]["host"] == f"127.0.0.1:{stream_server.port}"
    player = player_register()
    match = create_match(player)
    assert (
        Stream(f"{stream_server.url}/ws/v1/matches/{match['id']}", player.token).next()["type"]
        == "view"
    )
