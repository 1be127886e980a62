"""Shared OpenAPI documentation: every operation lists the errors it can answer with.

Errors are documented under the media type they are served with, ``application/problem+json``
(RFC 9457), so a client generated from the schema and a contract checker both see the truth.
Response keys are ``(status, media type)`` pairs, as drf-spectacular accepts them.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from core.problems import PROBLEM_CONTENT_TYPE
from core.problems import problem as problem_body
from core.serializers import ProblemSerializer

ErrorResponses = dict[tuple[int, str], OpenApiResponse]

# The example's code: the first one a description names in parentheses ("Bad `page_size`
# (`invalid`)."), else the first one it names ("`stale_version` (with `current_version`)").
_CODE_IN_PARENTHESES = re.compile(r"\(`([a-z][a-z0-9_]*)`")
_CODE = re.compile(r"`([a-z][a-z0-9_]*)`")


def problem(description: str, status: int | None = None) -> OpenApiResponse:
    examples = []
    code = _CODE_IN_PARENTHESES.search(description) or _CODE.search(description)
    if status is not None and code is not None:
        examples.append(problem_example(status, code.group(1)))
    return OpenApiResponse(response=ProblemSerializer, description=description, examples=examples)


def problem_example(status: int, code: str) -> OpenApiExample:
    value = problem_body(status, code, "A sentence for people; clients switch on `code`.")
    if status == 400:
        value["errors"] = [
            {"field": "card", "code": "invalid", "detail": "Required for a play move."}
        ]
    if code == "stale_version":
        value["current_version"] = 18
    return OpenApiExample(code, value=value, response_only=True, status_codes=[status])


def problem_key(status: int) -> tuple[int, str]:
    return (status, PROBLEM_CONTENT_TYPE)


SANCTIONED = "Your account is suspended or banned (`account_suspended`, `account_banned`)."
AUTH_ERRORS: ErrorResponses = {
    problem_key(401): problem(
        "Not authenticated (`not_authenticated`, `authentication_failed`).", 401
    ),
    problem_key(403): problem(SANCTIONED, 403),
    problem_key(429): problem("Too many requests (`throttled`); see `Retry-After`.", 429),
    problem_key(503): problem("The database is unavailable (`service_unavailable`); retry.", 503),
}
# The 400 of an operation that takes no body (core.parsing.refuse_body).
NO_BODY = (
    "A body with fields, or one that is not JSON; this operation takes none (`invalid`, "
    "`unknown_field`, `parse_error`)."
)
MATCH_ERRORS: ErrorResponses = {
    **AUTH_ERRORS,
    problem_key(404): problem(
        "No such match, or a private match you do not sit in (`not_found`).", 404
    ),
}


def only(base: ErrorResponses, *statuses: int) -> ErrorResponses:
    """The entries of ``base`` for these statuses."""
    return {key: value for key, value in base.items() if key[0] in statuses}


def errors(*extra: tuple[int, str], base: ErrorResponses | None = None) -> ErrorResponses:
    out = dict(MATCH_ERRORS if base is None else base)
    for status, description in extra:
        if status == 403 and SANCTIONED not in description:
            description = f"{description} {SANCTIONED}"
        out[problem_key(status)] = problem(description, status)
    return dict(sorted(out.items()))


# --- schema post-processing (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) -------------------

RETRY_AFTER = {
    "description": "Whole seconds to wait before retrying.",
    "schema": {"type": "integer", "minimum": 0},
}
UNSUPPORTED_MEDIA = "The body is not `application/json` (`unsupported_media_type`)."


def add_transport_answers(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """What every operation can answer whatever its view says, added to the whole document:
    ``Retry-After`` on each 429 and 503 (the throttle and the outage handler send it), and a
    415 on each operation that takes a body (DRF's parsers refuse other media types)."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status in ("429", "503"):
                if status in responses:
                    responses[status].setdefault("headers", {})["Retry-After"] = RETRY_AFTER
            if "requestBody" in operation and "415" not in responses:
                example = problem_example(415, "unsupported_media_type")
                responses["415"] = {
                    "description": UNSUPPORTED_MEDIA,
                    "content": {
                        PROBLEM_CONTENT_TYPE: {
                            "schema": {"$ref": "#/components/schemas/Problem"},
                            "examples": {example.name: {"value": example.value}},
                        }
                    },
                }
                operation["responses"] = dict(sorted(responses.items()))
    return result


def tidy_discriminated_unions(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The move unions (drf-spectacular's polymorphic components) as plain ``oneOf``s of
    objects whose ``type`` is a ``const``: that alone tells a value's member apart, for
    validators and generators alike. The ``discriminator`` keyword is dropped: Ajv refuses its
    ``mapping``, and without one OpenAPI implies the member's component name as the value
    (openapi-typescript would then type a bid's ``type`` as "BidMove")."""
    for schema in result.get("components", {}).get("schemas", {}).values():
        if "discriminator" in schema:
            schema.pop("discriminator")
            schema.setdefault("type", "object")
    return result


def require_bodies_that_require_fields(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A request body whose schema requires something (fields, or one member of a union) is
    itself required. drf-spectacular marks a body required only from a plain serializer's
    fields, so a move or a deletion looked optional, and a client or a fuzzer sending none got
    a 400 for a request the document allowed. Bodies whose fields are all optional (a match's
    options, a PATCH) stay optional."""
    schemas = result.get("components", {}).get("schemas", {})
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            body = operation.get("requestBody")
            if not body:
                continue
            for media in body.get("content", {}).values():
                schema = media.get("schema", {})
                ref = schema.get("$ref", "")
                schema = schemas.get(ref.rsplit("/", 1)[-1], schema) if ref else schema
                if schema.get("required") or "oneOf" in schema or "anyOf" in schema:
                    body["required"] = True
    return result


def reference_named_enums(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every inline enum whose values are those of a named enum component becomes a reference
    to it, so a client has one type per closed set. drf-spectacular's own enum hook
    (``postprocess_schema_enums``, run before this one) names the enums of properties and of
    plain arrays only; this reaches the rest: arrays of arrays (a Sawa's revealed hands),
    nullable arrays (a logged project's cards) and parameters (``?status=``, ``{ruleset}``).
    An inline enum that matches no component stays, and tests/test_schema.py reports it."""
    schemas = result.get("components", {}).get("schemas", {})
    named: dict[tuple[str, frozenset[Any]], str] = {}
    for name, component in schemas.items():
        if "enum" in component and isinstance(component.get("type"), str):
            named[(component["type"], frozenset(component["enum"]))] = name

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(child) for child in node]
        if not isinstance(node, dict):
            return node
        node = {key: visit(child) for key, child in node.items()}
        kind = node.get("type")
        if "enum" in node and isinstance(kind, str):
            name = named.get((kind, frozenset(node["enum"])))
            if name is not None:
                ref = {"$ref": f"#/components/schemas/{name}"}
                # The choices' list drf-spectacular writes as a description is the
                # component's own: it goes with the enum.
                own = schemas[name].get("description")
                rest = {
                    k: v
                    for k, v in node.items()
                    if k not in ("type", "enum") and not (k == "description" and v == own)
                }
                # As drf-spectacular writes a reference with a description beside it.
                return {"allOf": [ref], **rest} if rest else ref
        return node

    result["components"]["schemas"] = {
        name: component if "enum" in component else visit(component)
        for name, component in schemas.items()
    }
    result["paths"] = visit(result.get("paths", {}))
    return result
