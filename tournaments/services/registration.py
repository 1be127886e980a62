"""Creating a tournament and holding places in it, until registration closes."""

from __future__ import annotations

import hmac
import secrets
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import clock
from games import engine
from games.services import require_in_good_standing, require_seatable
from moderation.models import ModerationKind
from moderation.services.log import action_log
from tournaments.errors import (
    AlreadyEntered,
    CannotPartnerSelf,
    EntryNotFound,
    EntryNotInvited,
    NotYourInvitation,
    PartnerEntered,
    PublicTournamentStaffOnly,
    RegistrationClosed,
    SettingRefused,
    TournamentFull,
    TournamentNotFound,
    TournamentOver,
)
from tournaments.models import (
    Entry,
    EntryStatus,
    Format,
    Membership,
    Tournament,
    TournamentStatus,
)

# A round needs time for a match: at least a few minutes, at most a fortnight.
ROUND_SECONDS_MIN = 300
ROUND_SECONDS_MAX = 14 * 86400
CAPACITY_MAX = 1024
SWISS_ROUNDS_MAX = 15


def tournament_lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentNotFound() from None


def may_see(tournament: Tournament, user: User | None, code: str | None = None) -> bool:
    """A public tournament is seen by anyone; a private one by its creator, staff, the
    players holding or offered a place in it, and whoever has its invite code."""
    if tournament.public:
        return True
    if code and hmac.compare_digest(code.encode(), tournament.invite_code.encode()):
        return True
    if user is None:
        return False
    if user.is_staff or tournament.created_by_id == user.pk:
        return True
    return (
        Membership.objects.filter(tournament=tournament, user=user).exists()
        or Entry.objects.filter(
            tournament=tournament, partner=user, status=EntryStatus.INVITED
        ).exists()
    )


def settings_refusals(
    *,
    format: str,
    ruleset: str,
    capacity: int,
    starts_at: datetime,
    round_seconds: int,
    swiss_rounds: int | None,
    new: bool = True,
) -> list[tuple[str, str]]:
    """(field, why) for each setting a tournament may not have: the one check behind the API
    and the admin alike."""
    out: list[tuple[str, str]] = []
    if format not in Format.values:
        out.append(("format", str(_("Knockout or Swiss."))))
    if ruleset not in engine.RULESETS:
        out.append(("ruleset", str(_("No such ruleset."))))
    if not 2 <= capacity <= CAPACITY_MAX:
        out.append(("capacity", str(_("Between 2 and %(max)d teams.") % {"max": CAPACITY_MAX})))
    if not ROUND_SECONDS_MIN <= round_seconds <= ROUND_SECONDS_MAX:
        out.append(("round_seconds", str(_("Between five minutes and a fortnight."))))
    if new and starts_at <= clock.now():
        out.append(("starts_at", str(_("The start must be in the future."))))
    if format == Format.SWISS and not (swiss_rounds and 1 <= swiss_rounds <= SWISS_ROUNDS_MAX):
        out.append(("swiss_rounds", str(_("A Swiss tournament needs its number of rounds."))))
    if format == Format.KNOCKOUT and swiss_rounds:
        out.append(("swiss_rounds", str(_("Only a Swiss tournament has a number of rounds."))))
    return out


def _require_settings(**fields: Any) -> None:
    refusals = settings_refusals(**fields)
    if refusals:
        raise SettingRefused(*refusals[0])


def may_create_public(user: User) -> bool:
    return bool(user.is_staff and user.has_perm("tournaments.add_tournament"))


@transaction.atomic
def tournament_create(
    *,
    creator: User,
    name: str,
    format: str,
    public: bool,
    capacity: int,
    starts_at: datetime,
    round_seconds: int,
    ruleset: str = engine.GAMERULES.name,
    target: int | None = None,
    turn_seconds: int = 86400,
    swiss_rounds: int | None = None,
) -> Tournament:
    """Staff create public tournaments; any player in good standing a private one, whose
    invite code its players share."""
    require_in_good_standing(creator)
    if public and not may_create_public(creator):
        raise PublicTournamentStaffOnly()
    _require_settings(
        format=format,
        ruleset=ruleset,
        capacity=capacity,
        starts_at=starts_at,
        round_seconds=round_seconds,
        swiss_rounds=swiss_rounds,
    )
    rules = engine.get_ruleset(ruleset)
    tournament = Tournament.objects.create(
        name=name,
        format=format,
        ruleset=rules.name,
        target=target or rules.default_target,
        turn_seconds=turn_seconds,
        public=public,
        invite_code="" if public else secrets.token_urlsafe(9),
        capacity=capacity,
        starts_at=starts_at,
        swiss_rounds=swiss_rounds if format == Format.SWISS else None,
        round_seconds=round_seconds,
        created_by=creator,
        created_at=clock.now(),
    )
    if public:  # a staff act: in the moderation log
        action_log(
            moderator=creator,
            kind=ModerationKind.TOURNAMENT_CREATE,
            reason="A public tournament.",
            changes={"tournament": tournament.pk, "name": name},
        )
    return tournament


def _require_visible(tournament_id: int, user: User, code: str | None = None) -> None:
    """Checked before the row lock: a caller who may not see a tournament neither learns that
    it exists nor waits on (or holds up) its lock."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, user, code):
        raise TournamentNotFound()


def _require_open(tournament: Tournament) -> None:
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise TournamentOver()
    if tournament.status != TournamentStatus.REGISTRATION or tournament.starts_at <= clock.now():
        raise RegistrationClosed()


def teams_counted(tournament: Tournament, extra_solo: int = 0) -> int:
    """Places taken: each entry with a partner (invited or confirmed) is a team, and solo
    entries count as teams two by two (an odd one out as a team too)."""
    counts = dict.fromkeys(EntryStatus.values, 0)
    for status in (
        Entry.objects.filter(tournament=tournament).values_list("status", flat=True).order_by()
    ):
        counts[status] += 1
    solos = counts[EntryStatus.SOLO] + extra_solo
    return counts[EntryStatus.INVITED] + counts[EntryStatus.CONFIRMED] + (solos + 1) // 2


@transaction.atomic
def entry_create(
    *, tournament_id: int, user: User, partner: User | None, code: str | None = None
) -> Entry:
    """``POST /tournaments/{id}/entries``: a team of two once ``partner`` accepts, or a solo
    entry paired by rating with another when registration closes."""
    _require_visible(tournament_id, user, code)
    tournament = tournament_lock(tournament_id)
    _require_open(tournament)
    require_seatable(user)
    if partner is not None and partner.pk == user.pk:
        raise CannotPartnerSelf()
    if Membership.objects.filter(tournament=tournament, user=user).exists():
        raise AlreadyEntered()
    if partner is not None:
        if Membership.objects.filter(tournament=tournament, user=partner).exists():
            raise PartnerEntered()
        taken = teams_counted(tournament) + 1
    else:
        taken = teams_counted(tournament, extra_solo=1)
    if taken > tournament.capacity:
        raise TournamentFull()
    now = clock.now()
    entry = Entry.objects.create(
        tournament=tournament,
        player=user,
        partner=partner,
        status=EntryStatus.INVITED if partner is not None else EntryStatus.SOLO,
        created_at=now,
    )
    try:
        with transaction.atomic():
            Membership.objects.create(tournament=tournament, user=user, entry=entry)
    except IntegrityError:  # the same player's other request won the race
        raise AlreadyEntered() from None
    return entry


@transaction.atomic
def entry_accept(*, tournament_id: int, entry_id: int, user: User) -> Entry:
    """``POST /tournaments/{id}/entries/{entry_id}/accept``: the partner named in an entry
    takes the second place of the team."""
    # The partner named in this entry is answered about it (closed, lapsed) even once the
    # invitation no longer shows them a private tournament.
    if not Entry.objects.filter(pk=entry_id, tournament_id=tournament_id, partner=user).exists():
        _require_visible(tournament_id, user)
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.select_for_update().filter(pk=entry_id, tournament=tournament).first()
    if entry is None:
        raise EntryNotFound()
    if entry.partner_id != user.pk:
        raise NotYourInvitation()
    _require_open(tournament)
    if entry.status != EntryStatus.INVITED:
        raise EntryNotInvited()
    require_seatable(user)
    try:
        with transaction.atomic():
            Membership.objects.create(tournament=tournament, user=user, entry=entry)
    except IntegrityError:  # entered elsewhere in this tournament meanwhile
        raise AlreadyEntered() from None
    entry.status = EntryStatus.CONFIRMED
    entry.confirmed_at = clock.now()
    entry.save(update_fields=["status", "confirmed_at"])
    return entry
