"""The OpenAPI contract generates cleanly and names what clients rely on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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


def test_swagger_ui_and_redoc_are_served(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"matches_moves_create" in response.content


# --- The published error codes ---------------------------------------------------------------

_SOURCES = ("core", "accounts", "games", "moderation", "baloot_site")


def _code_uses() -> tuple[set[str], set[str]]:
    """What the code base raises: the names of the classes it calls, and the strings it passes
    as arguments (``IllegalMove("illegal_call", ...)``, ``problem_response(413,
    "payload_too_large", ...)``, ``code=CODE``) or maps DRF's and Django's refusals to."""
    import ast

    called: set[str] = set()
    strings: set[str] = set()
    for package in _SOURCES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text())
            constants = {
                target.id: node.value.value
                for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                for target in node.targets
                if isinstance(target, ast.Name)
            }

            def value_of(node: ast.expr, constants: dict = constants) -> object:
                if isinstance(node, ast.Constant):
                    return node.value
                if isinstance(node, ast.Name):
                    return constants.get(node.id)
                return None

            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    func = node.func
                    called.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
                    args = [*node.args, *(k.value for k in node.keywords)]
                    strings.update(v for v in map(value_of, args) if isinstance(v, str))
                elif isinstance(node, ast.Dict):  # the DRF exception -> code mapping
                    values = [
                        value_of(e)
                        for v in node.values
                        for e in (v.elts if isinstance(v, ast.Tuple) else [v])
                    ]
                    strings.update(v for v in values if isinstance(v, str))
    return called, strings


def test_every_published_code_is_raised_somewhere() -> None:
    from baloot_site.errors import ERROR_CODES
    from core.errors import domain_error_classes

    called, strings = _code_uses()
    raised_classes = {cls.code for cls in domain_error_classes() if cls.__name__ in called}
    unraised = [code for code in ERROR_CODES if code not in raised_classes | strings]
    assert unraised == []


def test_every_published_code_is_in_the_schema(schema: dict) -> None:
    from baloot_site.errors import ERROR_CODES

    enum = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert enum == ERROR_CODES
    problem = schema["components"]["schemas"]["Problem"]["properties"]["code"]
    assert problem == {"$ref": "#/components/schemas/ErrorCodeEnum"}
