"""Moderation's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, InvalidInput, NotFound


class DuplicateReport(Conflict):
    code = "duplicate_report"
    default_detail = _("You already have an open report on this player in this match.")


class ReportNotFound(NotFound):
    default_detail = _("No such report.")


class UserNotFound(NotFound):
    default_detail = _("No such user.")


class SanctionNotFound(NotFound):
    default_detail = _("No such sanction.")


class FlagNotFound(NotFound):
    default_detail = _("No such flag.")


class AlreadySettled(Conflict):
    """A report already resolved, a sanction already lifted: nothing left to do. The code is
    ``invalid`` (published since the first release), the status 409."""

    code = "invalid"


class MatchNotRunning(Conflict):
    code = "match_not_active"
    default_detail = _("This match is not running.")


class NoHumanOnTheClock(Conflict):
    code = "match_not_active"
    default_detail = _("No human player is on the clock.")


class UnknownChoice(InvalidInput):
    """A sanction kind or bot level that does not exist (admin forms only offer real ones)."""
