"""Every request example the schema documents is a body the server takes as well formed.

A client developer copies these examples first. Each is sent to its own operation by a player
seated at an active match, with the path's ids filled with real ones: the answer may be a
refusal of the state (409), of the rules or the account (422), an unknown id (404) or a
sign-in the server cannot check (401, 404 for a provider it does not offer), but never a 400,
which means the schema forbids the body (api.md), and never a 5xx. The generated positive data
is held to the same by the contract fuzzer (test_fuzz.py, on PostgreSQL).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from tests.support.players import Player

# Operations that end the caller's session or account run as a player of their own, so the
# seated player keeps its token for the rest of the walk.
ENDS_THE_SESSION = {"POST /api/v1/auth/logout", "DELETE /api/v1/me", "POST /api/v1/me/password"}


def _examples(schema: dict[str, Any]) -> Iterator[tuple[str, str, str, Any]]:
    """(method, path, example name, body) for each documented JSON request example."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            for name, example in content.get("application/json", {}).get("examples", {}).items():
                yield method.upper(), path, name, example["value"]


def test_every_documented_request_example_is_well_formed(
    table: Callable[..., Any], make_player: Callable[..., Player], no_throttling: None
) -> None:
    view, players = table()
    layla = make_player("layla")  # the examples' other player
    seated = players[0]
    schema = seated.client.get("/api/schema/?format=json").json()
    ids = {
        "{id}": str(view["id"]),
        "{seat}": "1",
        "{number}": "1",
        "{username}": layla.user.username,
        "{provider}": "google",
        "{ruleset}": "gamerules",
    }
    examples = list(_examples(schema))
    # Enough to mean something: every operation with a body documents one.
    assert len(examples) >= 40, len(examples)
    statuses: dict[str, int] = {}
    for method, path, name, body in examples:
        url = path
        for placeholder, value in ids.items():
            url = url.replace(placeholder, value)
        label = f"{method} {path}"
        client = make_player().client if label in ENDS_THE_SESSION else seated.client
        response = client.generic(
            method, url, data=json.dumps(body), content_type="application/json"
        )
        statuses[f"{label} {name}"] = response.status_code
        assert response.status_code != 400, (label, name, response.content)
        assert response.status_code < 500, (label, name, response.content)
    # The walk reached the code behind the examples, not only refusals: some were accepted.
    accepted = [key for key, status in statuses.items() if status < 300]
    assert len(accepted) >= 15, statuses
