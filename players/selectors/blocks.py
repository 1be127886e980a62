"""Who blocks whom, for the features that must keep blocked players apart."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from players.models import Block


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` where either one blocks the other (one query)."""
    ids = list(set(user_ids))
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(pair) for pair in rows}


def is_blocked_either_way(a: int, b: int) -> bool:
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def blocked_by(user_id: int) -> set[int]:
    """The users ``user_id`` has blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))
