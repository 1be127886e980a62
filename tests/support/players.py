"""Players with tokens and API clients, and creating a match over the API."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

PASSWORD = "correct horse battery"
_counter = itertools.count(1)


@dataclass
class Player:
    user: Any
    token: str
    client: APIClient

    @property
    def id(self) -> int:
        return self.user.pk


def player_register(name: str | None = None) -> Player:
    """A new account (``player<n>`` unless named) and a client holding its token."""
    from accounts.services import user_register

    n = next(_counter)
    user, token = user_register(
        username=name or f"player{n}", password=PASSWORD, display_name=f"P{n}"
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return Player(user=user, token=token, client=client)


def create_match(creator: Player, **options: Any) -> dict[str, Any]:
    response = creator.client.post("/api/v1/matches", options, format="json")
    assert response.status_code == 201, response.content
    return response.json()
