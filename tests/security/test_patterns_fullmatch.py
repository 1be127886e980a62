"""Every request field with a ``pattern`` is checked against the whole value, as sent (issue 23,
part 8).

The attack: "a device token with a trailing newline is stored". The patterns end in ``$``, which
in Python also matches just before a final newline, and Django's ``RegexValidator`` searches
rather than matching the whole value; and DRF's ``CharField`` strips surrounding whitespace
before validating, so a token, key, URL or username with a newline (or a space) around it was
taken and stored. The published pattern is ECMAScript, where ``$`` is the end of the value: a
client validating against the schema refuses what the server took.

The sweep finds the fields in the OpenAPI document itself (every ``pattern`` in every request
body), takes a valid value from the operation's request examples, and sends it with a newline
(and the like) around it: the answer must be ``400 invalid`` naming that field and nothing else,
and no table may gain or lose a row. The untouched example is then accepted, so the refusal is
the whitespace's doing. A new patterned field with no request example fails the sweep loudly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.support.api import assert_field_errors
from tests.support.players import player_register

Path = tuple[str | int, ...]

# The fields this issue is about; the sweep must find at least these (and finds every other).
KNOWN = {
    ("/api/v1/auth/register", "post", "username"),
    ("/api/v1/me/devices", "post", "token"),  # FCM and APNs
    ("/api/v1/me/devices", "post", "subscription.endpoint"),
    ("/api/v1/me/devices", "post", "subscription.keys.p256dh"),
    ("/api/v1/me/devices", "post", "subscription.keys.auth"),
}
AROUND = ("{}\n", "{}\r\n", "{} ", "\n{}", " {}")


@dataclass(frozen=True)
class Case:
    url: str
    method: str
    anonymous: bool
    example: str
    body: dict[str, Any]
    path: Path
    pattern: str

    @property
    def field(self) -> str:
        """The field's name as the problem's ``errors`` give it (baloot_site.errors)."""
        name = ""
        for part in self.path:
            name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else part)
        return name

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.url} {self.field} ({self.example})"


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _patterned(document: dict[str, Any], node: dict[str, Any], at: Path = ()) -> Iterator[Any]:
    """(path, pattern) of every patterned string under a request body schema."""
    node = _resolve(document, node)
    if isinstance(node.get("pattern"), str):
        yield at, node["pattern"]
    for key in ("oneOf", "anyOf", "allOf"):
        for member in node.get(key, []):
            yield from _patterned(document, member, at)
    for name, prop in node.get("properties", {}).items():
        yield from _patterned(document, prop, (*at, name))
    if isinstance(node.get("items"), dict):
        yield from _patterned(document, node["items"], (*at, 0))


def _get(body: Any, path: Path) -> Any:
    for part in path:
        if isinstance(part, int):
            if not isinstance(body, list) or len(body) <= part:
                return None
        elif not isinstance(body, dict) or part not in body:
            return None
        body = body[part]
    return body


def _with(body: Any, path: Path, value: str) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        return [_with(v, rest, value) if i == head else v for i, v in enumerate(body)]
    return {**body, head: _with(body[head], rest, value)}


def sweep() -> tuple[list[Case], list[str]]:
    """Every patterned request field with an example of it, and those without one."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    cases: list[Case] = []
    missing: list[str] = []
    for url, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            media = content.get("application/json")
            if media is None:
                continue
            examples = {
                name: example["value"] for name, example in media.get("examples", {}).items()
            }
            anonymous = {} in operation.get("security", [{}])
            # Members of a union may publish different patterns at one path (FCM's and APNs'
            # token): an example is tried against the one its value matches.
            patterns: dict[Path, list[str]] = {}
            for path, pattern in _patterned(document, media["schema"]):
                patterns.setdefault(path, []).append(pattern)
            for path, published in patterns.items():
                found = [
                    (name, body)
                    for name, body in examples.items()
                    if isinstance(_get(body, path), str)
                ]
                # Each example holding the field: a platform of a union is a body of its own.
                for name, body in found:
                    value = _get(body, path)
                    matched = [p for p in published if re.fullmatch(p, value)]
                    assert matched, f"{method.upper()} {url} {name}: {value!r} fits no pattern"
                    cases.append(Case(url, method, anonymous, name, body, path, matched[0]))
                if not found or "{" in url:
                    label = ".".join(map(str, path))
                    missing.append(f"{method.upper()} {url} {label}")
    return cases, missing


@pytest.fixture(scope="module")
def swept() -> tuple[list[Case], list[str]]:
    return sweep()


def test_every_patterned_request_field_has_a_request_example(
    swept: tuple[list[Case], list[str]],
) -> None:
    """A new patterned field needs a request example holding it (games/api/examples.py and the
    like), or the sweep below cannot try it. Paths with parameters need the sweep taught."""
    cases, missing = swept
    assert missing == [], f"patterned request fields the sweep cannot try: {missing}"
    found = {(case.url, case.method, case.field) for case in cases}
    assert found >= KNOWN, KNOWN - found
    # FCM and APNs are two members of one union, each with its example.
    tokens = {case.example for case in cases if case.field == "token"}
    assert len(tokens) >= 2, tokens


def _rows() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_a_patterned_field_with_whitespace_around_it_is_refused_and_nothing_stored(
    swept: tuple[list[Case], list[str]],
) -> None:
    cases, _ = swept
    assert cases
    player = player_register()
    tried: list[str] = []
    for case in cases:
        value = _get(case.body, case.path)
        client = APIClient() if case.anonymous else player.client
        for around in AROUND:
            sent = around.format(value)
            if re.fullmatch(case.pattern, sent):
                continue  # a pattern that allows whitespace there (none does today)
            before = _rows()
            response = client.generic(
                case.method.upper(),
                case.url,
                json.dumps(_with(case.body, case.path, sent)),
                content_type="application/json",
            )
            try:
                assert_field_errors(response, {case.field: "invalid"})
            except AssertionError as exc:
                raise AssertionError(f"{case} sent as {sent!r}: {exc}") from None
            assert _rows() == before, f"{case} sent as {sent!r} stored something"
            tried.append(f"{case} {sent!r}")
        # The example itself is taken: the whitespace alone made the difference.
        response = client.generic(
            case.method.upper(), case.url, json.dumps(case.body), content_type="application/json"
        )
        assert 200 <= response.status_code < 300, (str(case), response.content)
    assert len(tried) >= len(KNOWN) * len(AROUND)
