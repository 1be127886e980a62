"""The events accounts emit (through ``core.events``) inside their write transaction.

Accounts sit below every other app and know nothing of them, so whatever another app keeps
about a user (seats in matches, push devices, ratings, friends) is cleaned up by that app,
listening here: accounts erase what is theirs and announce it; ``games`` frees or hands over
the seats (``games.services.departures``), ``live.push`` removes devices and preferences.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AccountDeleted:
    """A player deleted their account. The row stays (seats, records and other players'
    statistics refer to it) with its personal data already erased: the listeners see the
    anonymous user, inactive, with no usable token. Carries the id only."""

    user_id: int
