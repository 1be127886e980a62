"""No 5xx from any input, and every refusal in the problem shape (issue 9, "500s from input").

Each attack that answered 500 or Django's HTML page on the original code is replayed here:
forged cursors on every list, deeply nested JSON (RecursionError, no login needed), oversized
bodies (with and without Content-Length), a bad ``Host`` and Django's other suspicious
requests. The last test fires all of them at every endpoint of the URL conf.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from baloot_site.middleware import BodySizeLimitMiddleware
from baloot_site.parsers import MAX_DEPTH, nesting_depth
from tests.support.api import API, PROBLEM, assert_problem, match_url
from tests.support.players import Player

CURSOR_LISTS = [f"{API}/matches", f"{API}/matches/open", f"{API}/me/matches"]


def b64(text: str | bytes) -> str:
    raw = text.encode() if isinstance(text, str) else text
    return base64.b64encode(raw).decode()


def b64url_json(value: Any) -> str:
    """Shaped like the inbox's keyset cursor (base64url of a JSON list, unpadded)."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


STAMP = "2026-01-01T00:00:00+00:00"
BAD_CURSORS = [
    "garbage!!",
    "t",
    b64("junk"),
    b64(b"\xff\xfe\x00junk"),
    "cD14",  # base64 of p=x: the 500 of the issue
    b64("p="),
    b64("o=-1"),
    b64("o=" + "9" * 30),
    b64("o=" + "9" * 5000),
    b64("o=1&o=2"),
    b64("r=junk"),
    b64("r=2"),
    b64("p=x&zz=1"),
    b64("p=2026-13-45 00:00:00+00:00"),
    b64("p=2026-01-01 00:00:00"),  # no time zone
    b64("p=9999-12-31 23:59:59-14:00"),  # past year 9999 in UTC
    b64("p=0001-01-01 00:00:00+14:00"),  # before year 1 in UTC
    b64("p=2026-01-01 00:00:00+99:00"),
    "é非ascii",
    "x" * 5000,
    b64url_json([1, "x", "y", 1]),
    b64url_json([True, STAMP, STAMP, 1]),
    b64url_json(["1", STAMP, STAMP, 1]),
    b64url_json([1, STAMP, STAMP, 2**70]),
    b64url_json([1, STAMP, STAMP]),
    b64url_json([1, "2026-01-01T00:00:00", STAMP, 1]),
    b64url_json([1, "9999-12-31T23:59:59-14:00", STAMP, 1]),
    b64url_json({"a": 1}),
    b64url_json(None),
    base64.urlsafe_b64encode(b"[" * 150).decode(),
]


def nested_array(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested_object(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


# --- Cursors -------------------------------------------------------------------------------


@pytest.mark.parametrize("url", CURSOR_LISTS)
def test_every_bad_cursor_is_404_on_every_list(
    make_player: Callable[..., Player], url: str
) -> None:
    me = make_player()
    # Something on each list, so a cursor that got through would reach a query.
    me.client.post(f"{API}/matches", {"visibility": "public"}, format="json")
    for cursor in BAD_CURSORS:
        response = me.client.get(url, {"cursor": cursor, "page_size": "1"})
        assert response.status_code == 404, (cursor, response.content)
        assert_problem(response, 404, "not_found")


@pytest.mark.parametrize("url", CURSOR_LISTS)
def test_the_cursors_the_server_mints_still_walk_every_list(
    make_player: Callable[..., Player], url: str
) -> None:
    me = make_player()
    for _ in range(3):
        me.client.post(f"{API}/matches", {"visibility": "public"}, format="json")
    seen: list[int] = []
    next_url: str | None = f"{url}?page_size=1"
    while next_url:
        page = me.client.get(next_url)
        assert page.status_code == 200, page.content
        seen += [m["id"] for m in page.json()["results"]]
        next_url = page.json()["next"]
    assert len(seen) == len(set(seen)) == 3


# --- Nesting depth -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [nested_array(100_000), nested_object(5_000), "[" * 100_000, nested_array(MAX_DEPTH + 1)],
    ids=["array-100000", "object-5000", "unclosed-100000", "one-too-deep"],
)
def test_deeply_nested_json_is_a_400_parse_error_without_login(anon: APIClient, body: str) -> None:
    response = anon.post(f"{API}/auth/register", body, content_type="application/json")
    problem = assert_problem(response, 400, "parse_error")
    assert problem["errors"][0]["field"] == "body"
    assert problem["errors"][0]["code"] == "parse_error"


def test_nesting_up_to_the_limit_is_parsed(anon: APIClient, db: None) -> None:
    # 32 levels is parsed and then judged by the serializer; brackets in strings don't count.
    deep = '{"username": ' + nested_array(MAX_DEPTH - 1) + "}"
    assert_problem(
        anon.post(f"{API}/auth/register", deep, content_type="application/json"), 400, "invalid"
    )
    in_string = json.dumps({"username": "[" * 1000, "password": "{" * 100, "display_name": "x"})
    response = anon.post(f"{API}/auth/register", in_string, content_type="application/json")
    assert_problem(response, 400, "invalid")


def test_the_depth_scan_counts_brackets_outside_strings_only() -> None:
    assert nesting_depth("1") == 0
    assert nesting_depth("[]") == 1
    assert nesting_depth('{"a": [1, {"b": []}]}') == 4
    assert nesting_depth('["[[[[", "\\"[[[["]') == 1
    assert nesting_depth('"\\\\" [[ "\\\\"') == 2
    assert nesting_depth("[" * 200_000) == 200_000  # no recursion, however deep


@pytest.mark.parametrize("path", ["", "/join", "/moves", "/reports", "/leave", "/resign", "/back"])
def test_deep_nesting_is_a_parse_error_on_every_match_write(
    table: Callable[..., Any], path: str
) -> None:
    view, players = table()
    url = f"{API}/matches" if not path else match_url(view["id"], path)
    response = players[0].client.post(url, nested_array(50_000), content_type="application/json")
    assert_problem(response, 400, "parse_error")


# --- Body size -----------------------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024


def test_a_10_mb_body_is_413_on_the_api_without_login(anon: APIClient, db: None) -> None:
    body = '{"username": "' + "a" * TEN_MB + '"}'
    response = anon.post(f"{API}/auth/register", body, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_a_10_mb_move_is_413(table: Callable[..., Any]) -> None:
    view, players = table()
    body = json.dumps({"type": "play", "card": "AS", "pad": "x" * TEN_MB})
    response = players[0].client.post(
        match_url(view["id"], "/moves"), body, content_type="application/json"
    )
    assert_problem(response, 413, "payload_too_large")


def test_a_10_mb_form_is_413_on_the_admin(db: None) -> None:
    response = Client().post("/admin/login/", {"username": "x", "password": "y" * TEN_MB})
    assert_problem(response, 413, "payload_too_large")


def test_the_limit_is_the_setting(anon: APIClient, db: None, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 200
    at_limit = json.dumps({"username": "u" * 150}).ljust(200)
    response = anon.post(f"{API}/auth/login", at_limit, content_type="application/json")
    assert_problem(response, 400, "invalid")  # read and judged, not refused for its size
    over = at_limit + " "
    response = anon.post(f"{API}/auth/login", over, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_a_content_length_that_is_not_a_number_is_400(anon: APIClient, db: None) -> None:
    response = anon.generic(
        "POST", f"{API}/auth/login", "{}", "application/json", CONTENT_LENGTH="ten"
    )
    assert_problem(response, 400, "bad_request")


def _stream_request(body: bytes) -> HttpRequest:
    """A request whose body comes without Content-Length, as a chunked one does."""
    request = RequestFactory().post("/admin/login/", b"", content_type="text/plain")
    request.META.pop("CONTENT_LENGTH", None)
    request._stream = io.BytesIO(body)
    return request


def test_a_body_without_content_length_is_capped_while_read(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    seen: list[bytes] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request.body)
        return HttpResponse("ok")

    middleware = BodySizeLimitMiddleware(view)
    assert middleware(_stream_request(b"a" * 1000)).status_code == 200
    assert seen == [b"a" * 1000]  # kept for the view
    refused = middleware(_stream_request(b"a" * TEN_MB))
    assert refused.status_code == 413
    assert refused["Content-Type"].startswith(PROBLEM)
    assert json.loads(refused.content)["code"] == "payload_too_large"
    assert len(seen) == 1  # the view never ran


def _asgi(method: str, path: str, chunks: list[bytes]) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request through the real ASGI application, its body in chunks, no Content-Length."""
    from baloot_site.asgi import application

    messages = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    messages.append({"type": "http.request", "body": b"", "more_body": False})
    sent: list[Mapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)  # the client stays connected; Django cancels this when done
        return {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    # The router is typed for ASGI scopes as TypedDicts; this test builds a plain dict.
    async_to_sync(cast(Any, application))(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def test_a_chunked_10_mb_body_is_413_through_asgi(db: None) -> None:
    status, headers, body = _asgi("POST", f"{API}/auth/register", [b"x" * 65536] * 160)
    assert status == 413
    assert headers[b"Content-Type"].decode().startswith(PROBLEM)
    assert json.loads(body)["code"] == "payload_too_large"


def test_a_chunked_body_within_the_limit_is_read_as_the_body_it_is(transactional_db: None) -> None:
    # Without a declared length DRF would take it for no body at all (a 400 here, a PATCH
    # that changes nothing elsewhere): the middleware, having read it, declares its length.
    body = json.dumps({"username": "chunky", "password": "a long password", "display_name": "C"})
    raw = body.encode()
    status, _, answer = _asgi("POST", f"{API}/auth/register", [raw[:20], raw[20:]])
    assert status == 201, answer
    assert json.loads(answer)["user"]["username"] == "chunky"


# --- Host and Django's other suspicious requests -------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "bad host!!", "testserver:port", "[::1"])
@pytest.mark.parametrize(
    ("method", "path"),
    [("get", f"{API}/matches"), ("post", f"{API}/auth/register"), ("get", "/admin/login/")],
)
def test_a_bad_host_is_400_invalid_host(db: None, host: str, method: str, path: str) -> None:
    response = getattr(Client(), method)(path, HTTP_HOST=host)
    assert_problem(response, 400, "invalid_host")


def test_too_many_form_fields_are_400_bad_request(db: None) -> None:
    fields = {f"f{i}": "x" for i in range(1500)}
    assert_problem(Client().post("/admin/login/", fields), 400, "bad_request")


def test_a_csrf_failure_on_the_admin_is_403_csrf_failed(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "x", "password": "y"})
    assert_problem(response, 403, "csrf_failed")


def test_an_admin_page_refused_to_staff_without_rights_is_a_403_problem(
    make_player: Callable[..., Player],
) -> None:
    staff = make_player().user
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(staff)
    assert_problem(client.get("/admin/games/match/"), 403, "permission_denied")


def test_a_method_django_refuses_is_a_405_problem(db: None) -> None:
    response = Client().patch("/admin/login/", "{}", content_type="application/json")
    assert_problem(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


# --- Everything at every endpoint ----------------------------------------------------------


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def api_paths(match_id: int) -> list[str]:
    """Every /api/v1 route of the URL conf, with real ids in its parameters."""
    values = {
        "pk": str(match_id),
        "number": "1",
        "format": "json",
        "seat": "1",
        "username": "player1",
        "ruleset": "gamerules",
        "provider": "google",
        "entry_id": "1",
    }
    out = set()
    for route in _routes(get_resolver().url_patterns):
        if not route.startswith("api/v1/"):
            continue
        path = route.replace("^", "").replace("$", "")
        path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[str(m.group(1))], path)
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[str(m.group(1))], path)
        if "." in path.rsplit("/", 1)[-1]:  # format-suffix variants, if any
            continue
        out.add("/" + path)
    return sorted(out)


HOSTILE_BODIES: list[tuple[str, bytes | str, str]] = [
    ("deep-array", nested_array(100_000), "application/json"),
    ("deep-object", nested_object(5_000), "application/json"),
    ("unknown-field", '{"zzz": 1}', "application/json"),
    ("not-utf8", b'{"a": "\xff\xfe"}', "application/json"),
    ("huge-int", "1" * 5000, "application/json"),
    ("nan", '{"a": NaN}', "application/json"),
    ("list", "[1, 2, 3]", "application/json"),
    ("text", "hello", "text/plain"),
    ("bz2-charset", '{"a": 1}', "application/json; charset=bz2_codec"),
    ("2-MB", '{"a": "' + "x" * (2 * 1024 * 1024) + '"}', "application/json"),
]
HOSTILE_QUERIES = [
    {"cursor": "cD14", "page_size": "1"},
    {"cursor": b64("o=-1"), "after": "-1", "status": "zzz"},
    {"page_size": "9" * 5000, "after": "9" * 5000},
]


@pytest.mark.slow
def test_hostile_input_at_every_endpoint_answers_no_5xx_and_problems_only(
    table: Callable[..., Any], anon: APIClient
) -> None:
    view, players = table()
    clients = {"seated": players[0].client, "anonymous": anon}
    for client in clients.values():
        client.raise_request_exception = False  # a 500 comes back as a response, to report
    paths = api_paths(view["id"])
    assert f"{API}/matches/{view['id']}/moves" in paths and f"{API}/auth/register" in paths
    paths += ["/admin/login/", "/healthz", "/api/schema/"]
    failures = []

    def check(label: str, response: Any) -> None:
        content_type = response.get("Content-Type", "")
        if response.status_code >= 500 and response.status_code != 503:
            failures.append((label, response.status_code, response.content[:200]))
        elif response.status_code >= 400 and not content_type.startswith(PROBLEM):
            failures.append((label, response.status_code, content_type))

    for who, client in clients.items():
        for path in paths:
            for query in HOSTILE_QUERIES:
                check(f"{who} GET {path} {query}", client.get(path, query))
            check(f"{who} GET {path} bad host", client.get(path, HTTP_HOST="evil.example"))
            for name, body, content_type in HOSTILE_BODIES:
                for method in ("post", "put", "patch"):
                    response = getattr(client, method)(path, body, content_type=content_type)
                    check(f"{who} {method.upper()} {path} {name}", response)
    assert not failures, "\n".join(map(str, failures))
    # The hostile bodies changed nothing: the match is as it was and every token still works.
    assert players[0].client.get(match_url(view["id"])).json()["version"] == view["version"]
