"""The kinds of push notification and their texts, in English and (through the ``ar``
catalog in ``live/push/locale``) Arabic. A text names the event only: never a card."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class EventKind(models.TextChoices):
    YOUR_TURN = "your_turn", "your turn"
    TURN_NEARLY_SPENT = "turn_nearly_spent", "your turn's clock is nearly spent"
    MATCH_STARTED = "match_started", "a match started"
    MATCH_FINISHED = "match_finished", "a match finished"
    SEAT_TO_BOT = "seat_to_bot", "your seat was handed to a bot"
    SANCTION = "sanction", "a sanction on your account"
    # players.events.InvitationSent
    INVITATION = "invitation", "an invitation to a match"
    # tournaments.events
    TOURNAMENT_ROUND_STARTED = "tournament_round_started", "a tournament round started"
    TOURNAMENT_MATCH_READY = "tournament_match_ready", "your tournament match is ready"
    TOURNAMENT_FINISHED = "tournament_finished", "a tournament finished"


# The kinds about a tournament: their payload names it (``tournament_id``, ``round``).
TOURNAMENT_KINDS = (
    EventKind.TOURNAMENT_ROUND_STARTED,
    EventKind.TOURNAMENT_MATCH_READY,
    EventKind.TOURNAMENT_FINISHED,
)


# (title, body) per kind; bodies may use the placeholders of the payload's ``data``.
TEXTS = {
    EventKind.YOUR_TURN: (_("Your turn"), _("It is your turn in match %(match_id)s.")),
    EventKind.TURN_NEARLY_SPENT: (
        _("Your turn is nearly over"),
        _("Your clock in match %(match_id)s is nearly spent; a move is due soon."),
    ),
    EventKind.MATCH_STARTED: (_("Match started"), _("Match %(match_id)s has started.")),
    EventKind.SEAT_TO_BOT: (
        _("A bot took your seat"),
        _("A bot is playing your seat in match %(match_id)s. Make a move to take it back."),
    ),
    EventKind.SANCTION: (
        _("Account notice"),
        _("A moderator has acted on your account. Open the app for details."),
    ),
    EventKind.INVITATION: (
        _("Invitation"),
        _("You are invited to play match %(match_id)s."),
    ),
    EventKind.TOURNAMENT_ROUND_STARTED: (
        _("Tournament round"),
        _("Round %(round)s of %(tournament)s has started."),
    ),
    EventKind.TOURNAMENT_MATCH_READY: (
        _("Your tournament match"),
        _("Your match of round %(round)s in %(tournament)s is ready: match %(match_id)s."),
    ),
    EventKind.TOURNAMENT_FINISHED: (
        _("Tournament over"),
        _("%(tournament)s has finished. See the standings."),
    ),
}

# The end of a match reads by its result for the player.
FINISHED_TEXTS = {
    "won": (
        pgettext_lazy("match result", "You won"),
        _("You won match %(match_id)s, %(mine)s to %(theirs)s."),
    ),
    "lost": (
        pgettext_lazy("match result", "You lost"),
        _("You lost match %(match_id)s, %(mine)s to %(theirs)s."),
    ),
    "aborted": (
        pgettext_lazy("match result", "Match aborted"),
        _("Match %(match_id)s was called off."),
    ),
}


def all_texts() -> list[object]:
    """Every lazy push text (the translation test walks them)."""
    out: list[object] = []
    for pair in [*TEXTS.values(), *FINISHED_TEXTS.values()]:
        out.extend(pair)
    return out
