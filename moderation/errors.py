"""Moderation's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, FieldRefused, InvalidInput, NotFound


class DuplicateReport(Conflict):
    code = "duplicate_report"
    default_detail = _("You already have an open report on this player in this match.")


class NoPlayerInSeat(FieldRefused):
    """A report naming a seat with nobody in it, or a bot: the seat is a well-formed 0-3."""

    code = "no_player_in_seat"
    field = "seat"
    default_detail = _("That seat holds no player to report.")


class CannotReportSelf(FieldRefused):
    code = "cannot_report_self"
    field = "seat"
    default_detail = _("You cannot report yourself.")


class ChatMessageNotFound(FieldRefused):
    """One answer for a message that does not exist, is another table's or another seat's, or
    one the reporter could not have seen (not seated)."""

    code = "chat_message_not_found"
    field = "chat_message"
    default_detail = _("No such message from that seat at your table.")


class NoPictureToReport(FieldRefused):
    """``avatar: true`` for a player with no uploaded picture: the built-in avatars are the
    service's own, and a bot's too."""

    code = "no_picture_to_report"
    field = "avatar"
    default_detail = _("That player has no uploaded picture to report.")


class NoPicture(InvalidInput):
    """A moderator's removal of a picture the player does not have (any more)."""

    code = "no_picture"
    default_detail = _("That player has no uploaded picture.")


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
