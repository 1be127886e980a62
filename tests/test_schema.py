"""The OpenAPI contract generates cleanly and names what clients rely on."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("schema") / "schema.yaml"
    # A subprocess, exactly as a developer or CI would run it.
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--file",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(out.read_text())


def test_schema_validates_without_warnings(schema: dict) -> None:
    assert schema["openapi"].startswith("3.")


def test_operation_ids_are_stable_and_readable(schema: dict) -> None:
    ids = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert {
        "auth_register",
        "auth_login",
        "auth_logout",
        "me_retrieve",
        "me_matches_list",
        "matches_create",
        "matches_list",
        "matches_open_list",
        "matches_retrieve",
        "matches_join",
        "matches_leave",
        "matches_resign",
        "matches_moves_create",
        "matches_moves_list",
        "matches_rounds_list",
        "matches_rounds_record_retrieve",
        "matches_record_retrieve",
    } <= ids


def test_every_operation_documents_its_errors_in_the_problem_shape(schema: dict) -> None:
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            errors = {code for code in op["responses"] if code.startswith(("4", "5"))}
            assert errors, f"{method} {path} documents no errors"
            for code in errors:
                content = op["responses"][code]["content"]
                ref = next(iter(content.values()))["schema"]["$ref"]
                assert ref.endswith("/Problem"), (method, path, code, ref)


def test_enums_are_named_components(schema: dict) -> None:
    components = schema["components"]["schemas"]
    for name in (
        "MatchStatusEnum",
        "VisibilityEnum",
        "EndReasonEnum",
        "BotLevelEnum",
        "ActorEnum",
        "CardEnum",
        "SuitEnum",
        "PhaseEnum",
        "ErrorCodeEnum",
    ):
        assert name in components, name
    assert "stale_version" in components["ErrorCodeEnum"]["enum"]
    assert "must_follow_suit" in components["ErrorCodeEnum"]["enum"]


def test_every_bot_level_is_in_the_schema_wherever_a_level_is_named(schema: dict) -> None:
    components = schema["components"]["schemas"]
    assert components["BotLevelEnum"]["enum"] == ["easy", "normal", "hard"]
    level = {"$ref": "#/components/schemas/BotLevelEnum"}
    assert components["BotSeats"]["properties"] == dict.fromkeys(("1", "2", "3"), level)
    assert components["BotAddRequest"]["properties"]["level"]["allOf"] == [level]
    assert level in components["SeatView"]["properties"]["bot"]["oneOf"]
    examples = schema["paths"]["/api/v1/matches"]["post"]["requestBody"]["content"][
        "application/json"
    ]["examples"]
    assert any("hard" in example["value"].get("bots", {}).values() for example in examples.values())


def test_swagger_ui_and_redoc_are_served(client: Client) -> None:
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"matches_moves_create" in response.content


# --- The published error codes ---------------------------------------------------------------
# That each is raised somewhere is a source check: error-codes in scripts/check_source.py.


def test_every_published_code_is_in_the_schema(schema: dict) -> None:
    from baloot_site.errors import ERROR_CODES

    enum = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert enum == ERROR_CODES
    problem = schema["components"]["schemas"]["Problem"]["properties"]["code"]
    assert problem == {"$ref": "#/components/schemas/ErrorCodeEnum"}


# --- The contract, exact (issue 10 item 9) ---------------------------------------------------


def _walk(node: object, at: str = "#") -> Iterator[tuple[str, dict[Any, Any]]]:
    if isinstance(node, dict):
        yield at, node
        for key, child in node.items():
            yield from _walk(child, f"{at}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _walk(child, f"{at}/{index}")


def test_no_nullable_keyword_and_no_doubled_component_names(schema: dict) -> None:
    assert schema["openapi"].startswith("3.1")
    assert [at for at, node in _walk(schema) if "nullable" in node] == []
    names = schema["components"]["schemas"]
    assert [n for n in names if n.endswith("RequestRequest")] == []
    assert {"MoveRequest", "MatchCreateRequest", "MatchJoinRequest", "RegisterRequest"} <= set(
        names
    )


def test_request_schemas_state_defaults_in_words_not_as_default(schema: dict) -> None:
    # A `default` makes openapi-typescript require the field, so `{}` would not compile.
    for name, component in schema["components"]["schemas"].items():
        if name.endswith("Request"):
            for prop, spec in component.get("properties", {}).items():
                assert "default" not in spec, (name, prop)
    create = schema["components"]["schemas"]["MatchCreateRequest"]
    assert "required" not in create
    assert "86400" in create["properties"]["turn_seconds"]["description"]


MEMBERS = {
    "bid": ({"type", "call"}, {"suit"}),
    "double": ({"type", "call"}, {"locked"}),  # `locked`: saudi Hokum only (S11)
    "declare": ({"type", "projects"}, set()),
    "sawa": ({"type"}, set()),  # saudi only (S20)
    "play": ({"type", "card"}, set()),
}


def _members(schema: dict, union: str) -> dict[str, dict]:
    components = schema["components"]["schemas"]
    out = {}
    for ref in components[union]["oneOf"]:
        member = components[ref["$ref"].rsplit("/", 1)[1]]
        out[member["properties"]["type"]["const"]] = member
    return out


def test_moves_are_a_union_on_type_in_the_request_legal_moves_and_the_log(schema: dict) -> None:
    components = schema["components"]["schemas"]
    body = schema["paths"]["/api/v1/matches/{id}/moves"]["post"]["requestBody"]["content"]
    assert body["application/json"]["schema"] == {"$ref": "#/components/schemas/MoveRequest"}
    legal = components["RoundView"]["properties"]["legal_moves"]["items"]
    assert legal == {"$ref": "#/components/schemas/LegalMove"}
    logged = components["MoveLog"]["properties"]["results"]["items"]
    assert logged == {"$ref": "#/components/schemas/MoveLogEntry"}
    log_fields = {"seq", "version", "round", "seat", "actor", "created_at"}
    for union, extra_required, extra_optional in (
        ("MoveRequest", set(), {"expected_version"}),
        ("LegalMove", set(), set()),
        ("MoveLogEntry", log_fields, set()),
    ):
        members = _members(schema, union)
        assert set(members) == set(MEMBERS), union
        for move_type, member in members.items():
            required, optional = MEMBERS[move_type]
            if union == "MoveLogEntry" and move_type == "sawa":
                required = required | {"revealed_hands"}  # the round ends: hands shown (S24)
            assert set(member["required"]) == required | extra_required, (union, move_type)
            assert set(member["properties"]) == required | optional | extra_required | (
                extra_optional
            ), (union, move_type)
    for move_type, member in _members(schema, "MoveRequest").items():
        assert member["additionalProperties"] is False, move_type
    bid = _members(schema, "MoveRequest")["bid"]["properties"]["call"]
    assert bid == {"$ref": "#/components/schemas/BidCallEnum"}


def test_calls_kinds_suits_and_cards_are_enums_wherever_they_appear(schema: dict) -> None:
    components = schema["components"]["schemas"]
    ref = "#/components/schemas/"
    assert components["CallView"]["properties"]["type"] == {"$ref": ref + "CallTypeEnum"}
    assert components["CallView"]["properties"]["call"] == {"$ref": ref + "CallEnum"}
    kinds = components["PublicProjects"]["properties"]["kinds"]["items"]
    assert kinds == {"$ref": ref + "ProjectKindEnum"}
    for name in ("LoggedProject", "DeclaredProject", "ProjectView", "ProjectRequest"):
        assert components[name]["properties"]["kind"] == {"$ref": ref + "ProjectKindEnum"}, name
    action = components["RecordAction"]["properties"]
    assert action["type"] == {"$ref": ref + "MoveTypeEnum"}
    assert action["call"] == {"$ref": ref + "CallEnum"}
    assert action["suit"] == {"$ref": ref + "SuitEnum"}
    assert action["card"] == {"$ref": ref + "CardEnum"}


VIEW_ANSWERS = [
    ("/api/v1/matches", "post", "201"),
    ("/api/v1/matches/{id}", "get", "200"),
    ("/api/v1/matches/{id}", "get", "304"),
    ("/api/v1/matches/{id}/join", "post", "200"),
    ("/api/v1/matches/{id}/leave", "post", "200"),
    ("/api/v1/matches/{id}/resign", "post", "200"),
    ("/api/v1/matches/{id}/back", "post", "200"),
    ("/api/v1/matches/{id}/moves", "post", "201"),
    ("/api/v1/me/matches", "get", "200"),
    ("/api/v1/me/matches", "get", "304"),
]


def test_etag_if_none_match_retry_after_and_415_are_declared(schema: dict) -> None:
    paths = schema["paths"]
    for path, method, status in VIEW_ANSWERS:
        assert "ETag" in paths[path][method]["responses"][status].get("headers", {}), (
            path,
            method,
            status,
        )
    for path in ("/api/v1/matches/{id}", "/api/v1/me/matches"):
        names = {p["name"] for p in paths[path]["get"]["parameters"] if p["in"] == "header"}
        assert "If-None-Match" in names, path
    for path, operations in paths.items():
        for method, op in operations.items():
            if "429" in op["responses"]:
                assert "Retry-After" in op["responses"]["429"]["headers"], (method, path)
            if "requestBody" in op:
                assert "415" in op["responses"], (method, path)


def test_every_example_is_valid_against_the_schema_it_illustrates(schema: dict) -> None:
    # jsonschema ships no type information, and types-jsonschema is not a dev dependency.
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    root = "https://schema.invalid/openapi.json"
    registry = Registry().with_resource(root, DRAFT202012.create_resource(schema))
    checked = []
    for at, node in _walk(schema["paths"]):
        if "schema" in node and "examples" in node:
            # The node's own references (at the top, or inside an array) point into the root.
            anchored = json.loads(json.dumps(node["schema"]).replace('"#/', f'"{root}#/'))
            validator = Draft202012Validator(anchored, registry=registry)
            for name, example in node["examples"].items():
                errors = [e.message for e in validator.iter_errors(example["value"])]
                assert errors == [], (at, name, errors[:3])
                checked.append((at, name))
    bodies = [
        op["requestBody"]["content"]
        for operations in schema["paths"].values()
        for op in operations.values()
        if "requestBody" in op
    ]
    for content in bodies:
        # Every JSON body is illustrated; a picture (PUT /me/avatar) is bytes.
        assert all(
            media.get("examples") for kind, media in content.items() if kind.endswith("json")
        ), content
    assert len(checked) > 20


def test_servers_commitment_and_the_client_guide_are_in_the_description(schema: dict) -> None:
    assert schema["servers"]
    description = schema["info"]["description"]
    assert 'salt + ":" + ",".join(deck)' in description
    assert "docs/clients.md" in description
    assert (ROOT / "docs" / "clients.md").is_file()


def test_the_readme_is_a_front_page_that_names_the_two_commands() -> None:
    # The README is what a newcomer reads first: short, with the two commands (CI runs the
    # README's test command, `make test`) and the way into docs/; the rest lives in docs/.
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    assert "make run" in text and "make test" in text
    assert "(docs/README.md)" in text


def test_the_readme_the_guide_and_the_schema_point_only_inside_the_repository(
    schema: dict,
) -> None:
    import json
    import re

    texts = {
        "README.md": (ROOT / "README.md").read_text(),
        "docs/clients.md": (ROOT / "docs" / "clients.md").read_text(),
        "schema": json.dumps(schema),
    }
    # The contracts they rely on are in this repository (docs/rules/), not in a folder beside it.
    for name, text in texts.items():
        assert "../" not in text, name
        assert "shared/" not in text, name
    # Markdown links to files resolve inside the repository.
    for name in ("README.md", "docs/clients.md"):
        base = (ROOT / name).parent
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", texts[name]):
            if "://" in target:
                continue
            assert (base / target).resolve().is_relative_to(ROOT), (name, target)
            assert (base / target).exists(), (name, target)


# --- Exact types (issue 26): one named enum per closed set, pairs of two, cards by reference ----
# These walk the whole document, so a field added later is held to the same rules: a closed set
# written inline or as a bare string, a team pair without its two-item bounds or a card list
# spelled out fails here whatever the field is called.

REF = "#/components/schemas/"


def _is_null(schema: dict, node: dict) -> bool:
    return node == {"type": "null"} or node.get("$ref") == REF + "NullEnum"


def _typed_by(schema: dict, node: dict) -> str | None:
    """The named enum a schema is typed by ("RulesetEnum"; "[]CardEnum" for a list of cards;
    "const" for a literal), whatever wraps it (allOf, a nullable oneOf, a named list such as
    Hand); None for anything else, an inline enum included."""
    components = schema["components"]["schemas"]
    if "$ref" in node:
        name = node["$ref"].removeprefix(REF)
        target = components[name]
        if "enum" in target:
            return name
        return _typed_by(schema, target) if target.get("type") == "array" else None
    if "const" in node:
        return "const"
    for key in ("allOf", "oneOf", "anyOf"):
        if key in node:
            found = {_typed_by(schema, m) for m in node[key] if not _is_null(schema, m)}
            return found.pop() if len(found) == 1 else None
    kind = node.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):
        inner = _typed_by(schema, node.get("items", {}))
        return None if inner is None else "[]" + inner
    return None


def _fields(schema: dict) -> Iterator[tuple[str, str, dict]]:
    """(where, name, schema) of every property of every component, and of every parameter."""
    for component, body in schema["components"]["schemas"].items():
        for at, node in _walk(body, component):
            for name, spec in (node.get("properties") or {}).items():
                yield f"{at}.{name}", name, spec
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            for parameter in op.get("parameters", []):
                where = f"{method.upper()} {path} {parameter['in']} {parameter['name']}"
                yield where, parameter["name"], parameter["schema"]


# Names that mean different closed sets in different places (the values differ, so each is its
# own enum): a match's, a ticket's, an invitation's... status; a move's or a call's type; a
# project's or a phrase's kind; a bid's, a double's or any call; a device union member's
# platform (one value each) and the device's.
# "avatar": a built-in avatar's id in PATCH /me, whether a report is about a picture, and the
# avatar shown (an object) in answers.
HOMONYMS = {"status", "type", "kind", "call", "platform", "avatar"}
# Names that are a closed set in one place and open in another, and why.
OPEN_ELSEWHERE = {
    # Quick play offers four speeds (TurnSecondsEnum); a table takes any 2..604800 seconds.
    "turn_seconds",
    # A problem's code (ErrorCodeEnum); an invite code; a field error's code (DRF's and the
    # parsers' validation codes, not a list the API publishes).
    "code",
    # A phrase's id (PhraseEnum); every other id is an integer.
    "id",
}


def test_no_enum_is_written_inline(schema: dict) -> None:
    # An inline enum is a type of its own in every generated client: each closed set is a
    # named component, referred to wherever it is used (core.docs.reference_named_enums).
    inline = []
    for component, body in schema["components"]["schemas"].items():
        inline += [at for at, node in _walk(body, component) if "enum" in node and at != component]
    # The one inline enum left is a header's single value (`Idempotent-Replayed: true`).
    inline += [
        at for at, node in _walk(schema["paths"]) if "enum" in node and "/headers/" not in at
    ]
    assert inline == []


def test_each_closed_set_is_one_named_enum(schema: dict) -> None:
    enums = {n: c for n, c in schema["components"]["schemas"].items() if "enum" in c}
    by_values: dict[frozenset[Any], list[str]] = {}
    for name, component in enums.items():
        by_values.setdefault(frozenset(component["enum"]), []).append(name)
    assert [names for names in by_values.values() if len(names) > 1] == []
    # A name means one closed set wherever it is used, requests and answers alike.
    typed: dict[str, set[str]] = {}
    for _, name, spec in _fields(schema):
        found = _typed_by(schema, spec)
        if found is not None and found != "const" and name not in HOMONYMS:
            typed.setdefault(name, set()).add(found)
    assert {name: types for name, types in typed.items() if len(types) > 1} == {}
    # And a field typed by an enum somewhere is never a bare string or integer elsewhere.
    bare = [
        where
        for where, name, spec in _fields(schema)
        if name in typed and name not in OPEN_ELSEWHERE and _typed_by(schema, spec) is None
    ]
    assert bare == []
    assert {"ruleset", "phrase", "suit", "phase", "visibility", "language"} <= set(typed)


def test_the_fields_of_issue_26_are_typed_by_their_enums(schema: dict) -> None:
    components = schema["components"]["schemas"]
    with_ruleset = {name for name, c in components.items() if "ruleset" in c.get("properties", {})}
    assert with_ruleset >= {
        "InboxEntry",
        "Invitation",
        "Leaderboard",
        "LiveMatch",
        "MatchSummary",
        "MatchView",
        "PlayerRating",
        "Record",
        "Ticket",
        "MatchCreateRequest",
        "TicketRequest",
    }
    for name in with_ruleset:
        assert _typed_by(schema, components[name]["properties"]["ruleset"]) == "RulesetEnum", name
    leaderboard = schema["paths"]["/api/v1/leaderboards/{ruleset}"]["get"]["parameters"]
    assert {"$ref": REF + "RulesetEnum"} in [p["schema"] for p in leaderboard]
    for name in ("ChatMessage", "ChatSendRequest"):
        assert _typed_by(schema, components[name]["properties"]["phrase"]) == "PhraseEnum"
    assert _typed_by(schema, components["Phrase"]["properties"]["id"]) == "PhraseEnum"
    for name in ("Ticket", "TicketRequest"):
        speeds = components[name]["properties"]["turn_seconds"]
        assert _typed_by(schema, speeds) == "TurnSecondsEnum", name
    assert components["TurnSecondsEnum"] == {"enum": [15, 30, 60, 86400], "type": "integer"}
    created = components["MatchCreateRequest"]["properties"]["turn_seconds"]
    assert (created["minimum"], created["maximum"]) == (2, 604800)
    assert components["Record"]["properties"]["format"] == {
        "type": "string",
        "const": "baloot-record/1",
    }


# One number per team, team 0's first. Every other list of integers is a list of seats.
TEAM_PAIRS = {"scores", "scores_after", "abnat", "card_points", "points", "totals", "trick_counts"}
PER_SEAT = {"card_counts"}
SEAT_LISTS = {"baloot", "accepted_seats", "waiting_for_seats"}


def _is_array(spec: dict) -> bool:
    kind = spec.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def test_team_pairs_are_two_item_arrays(schema: dict) -> None:
    # minItems = maxItems = 2: openapi-typescript's --array-length makes it [number, number].
    pairs, per_seat, open_lists = [], [], []
    for where, name, spec in _fields(schema):
        if not (_is_array(spec) and spec.get("items") == {"type": "integer"}):
            continue
        bounds = (spec.get("minItems"), spec.get("maxItems"))
        if name in TEAM_PAIRS:
            pairs.append(where)
            assert bounds == (2, 2), where
        elif name in PER_SEAT:
            per_seat.append(where)
            assert bounds == (4, 4), where
        else:
            # A new list of integers is either a pair or per seat (and bounded), or a list of
            # seats named here.
            assert name in SEAT_LISTS, where
            open_lists.append(where)
    assert len(pairs) >= 17 and per_seat and open_lists
    # A trick's abnat is one number, not a pair.
    assert schema["components"]["schemas"]["TrickView"]["properties"]["abnat"] == {
        "type": "integer"
    }


# Every field that holds cards, and its type: a card, a list of cards, a list per seat.
CARD_FIELDS = {
    "card": "CardEnum",
    "face_up": "CardEnum",
    "cards": "[]CardEnum",
    "hand": "[]CardEnum",
    "deck": "[]CardEnum",
    "revealed_hands": "[][]CardEnum",
}


def test_cards_are_card_enum_references(schema: dict) -> None:
    components = schema["components"]["schemas"]
    cards = frozenset(components["CardEnum"]["enum"])
    assert len(cards) == 32
    spelled_out = [at for at, node in _walk(schema) if frozenset(node.get("enum", ())) == cards]
    assert spelled_out == ["#/components/schemas/CardEnum"]
    seen = set()
    for where, name, spec in _fields(schema):
        if name in CARD_FIELDS:
            assert _typed_by(schema, spec) == CARD_FIELDS[name], where
            seen.add(name)
    assert seen == set(CARD_FIELDS)
    # A Sawa's four hands are four references: --array-length gives [Hand, Hand, Hand, Hand].
    for name in ("RoundView", "FinishedRound", "SawaLogEntry"):
        hands = components[name]["properties"]["revealed_hands"]
        assert hands["items"] == {"$ref": REF + "Hand"}, name
        assert (hands["minItems"], hands["maxItems"]) == (4, 4), name
    assert components["Hand"]["items"] == {"$ref": REF + "CardEnum"}
