"""A suspended or banned account cannot log in: the same 403 and code its tokens get, and no
token is issued. The attack: a banned account still logged in and received a token."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, SanctionKind
from moderation import services as moderation
from tests.support.api import assert_problem
from tests.support.auth import login
from tests.support.players import Player

KINDS = [(SanctionKind.BAN, "account_banned"), (SanctionKind.SUSPEND, "account_suspended")]


@pytest.fixture
def sanction(make_player: Callable[..., Player]) -> Callable[..., int]:
    moderator = make_player("mod").user

    def apply(player: Player, kind: str) -> int:
        ends = timezone.now() + timedelta(days=3) if kind == SanctionKind.SUSPEND else None
        return moderation.sanction_apply(
            moderator=moderator, user_id=player.id, kind=kind, reason="abuse", ends_at=ends
        ).pk

    return apply


@pytest.mark.parametrize(("kind", "code"), KINDS)
def test_a_sanctioned_login_is_the_403_its_token_gets_and_issues_nothing(
    make_player: Callable[..., Player],
    sanction: Callable[..., int],
    anon: APIClient,
    kind: str,
    code: str,
) -> None:
    layla = make_player("layla")
    sanction(layla, kind)
    token_answer = assert_problem(layla.client.get("/api/v1/me"), 403, code)
    tokens = AuthToken.objects.count()
    login_answer = assert_problem(login(anon, "layla"), 403, code)
    assert login_answer["detail"] == token_answer["detail"]
    assert AuthToken.objects.count() == tokens


def test_a_wrong_password_on_a_banned_account_says_nothing_of_the_ban(
    make_player: Callable[..., Player], sanction: Callable[..., int], anon: APIClient
) -> None:
    layla = make_player("layla")
    sanction(layla, SanctionKind.BAN)
    assert_problem(login(anon, "layla", "not her password"), 401, "authentication_failed")


def test_a_lifted_sanction_lets_the_account_log_in_again(
    make_player: Callable[..., Player], sanction: Callable[..., int], anon: APIClient
) -> None:
    layla = make_player("layla")
    sanction_id = sanction(layla, SanctionKind.BAN)
    assert login(anon, "layla").status_code == 403
    moderation.sanction_lift(
        moderator=make_player("mod2").user, sanction_id=sanction_id, reason="appeal"
    )
    assert login(anon, "layla").status_code == 200


def test_a_warning_does_not_bar_login(
    make_player: Callable[..., Player], sanction: Callable[..., int], anon: APIClient
) -> None:
    layla = make_player("layla")
    sanction(layla, SanctionKind.WARN)
    assert login(anon, "layla").status_code == 200
