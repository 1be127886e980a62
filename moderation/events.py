"""The events moderation emits (through ``core.events``) inside its write transaction."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SanctionApplied:
    """A warning, suspension or ban was put on a user (its reason stays with the staff)."""

    user_id: int
    sanction_id: int
    kind: str
