"""Tournaments in the admin: create one, edit it before the start, cancel it, disqualify or
replace a team. Every change goes through ``tournaments.services.staff`` and lands in the
moderation log; the rounds, pairings and entries are read-only here (the server makes them)."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.authentication import request_user
from accounts.models import User
from core import clock
from core.errors import DomainError
from games import engine
from moderation.admin.steps import ReasonForm, Step, run_step
from moderation.models import ModerationKind
from moderation.services.log import action_log
from tournaments.models import (
    Entry,
    Format,
    Pairing,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from tournaments.services import registration, staff

_MODERATE = "tournaments.moderate_tournament"


class EditForm(ModelForm):
    """The tournament's settings, and (on a change) why: kept in the moderation log."""

    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=_("Why (required when changing a tournament): kept in the moderation log."),
    )

    ruleset = forms.ChoiceField(choices=[(name, name) for name in sorted(engine.RULESETS)])

    class Meta:
        model = Tournament
        fields = ["format", *staff.EDITABLE]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        instance = self.instance
        new = instance.pk is None

        def value(name: str) -> Any:
            return data[name] if name in data else getattr(instance, name)

        if any(
            value(name) is None for name in ("format", "capacity", "starts_at", "round_seconds")
        ):
            return data  # the missing fields are reported already
        for field, why in registration.settings_refusals(
            format=value("format"),
            ruleset=value("ruleset"),
            capacity=value("capacity"),
            starts_at=value("starts_at"),
            round_seconds=value("round_seconds"),
            swiss_rounds=value("swiss_rounds"),
            new=new or "starts_at" in self.changed_data,
        ):
            self.add_error(field if field in self.fields else None, why)
        if not new and self.changed_data and not (data.get("reason") or "").strip():
            self.add_error("reason", _("Say why: it goes to the moderation log."))
        return data


class ReplaceForm(ReasonForm):
    """One player of the team, or both (the whole team replaced by another pair)."""

    leaving = forms.CharField(label=_("Player leaving (username)"))
    joining = forms.CharField(label=_("Player joining (username)"))
    leaving_2 = forms.CharField(label=_("Second player leaving (username)"), required=False)
    joining_2 = forms.CharField(label=_("Second player joining (username)"), required=False)
    field_order = ["leaving", "joining", "leaving_2", "joining_2", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("leaving_2")) != bool(data.get("joining_2")):
            self.add_error("joining_2", _("Name both players of the second swap, or neither."))
        for name in ("leaving", "joining", "leaving_2", "joining_2"):
            if not data.get(name):
                data[name] = None
                continue
            user = User.objects.filter(username__iexact=data[name], deleted_at__isnull=True).first()
            if user is None:
                self.add_error(name, _("No player has that username."))
            data[name] = user
        return data


def _cancel(user: User, tournament: Tournament, data: dict[str, Any]) -> Any:
    return staff.tournament_cancel(
        moderator=user, tournament_id=tournament.pk, reason=data["reason"]
    )


def _disqualify(user: User, entry: Entry, data: dict[str, Any]) -> Any:
    return staff.team_disqualify(
        moderator=user,
        tournament_id=entry.tournament_id,
        entry_id=entry.pk,
        reason=data["reason"],
    )


def _replace(user: User, entry: Entry, data: dict[str, Any]) -> Any:
    swaps = [(data["leaving"], data["joining"])]
    if data.get("leaving_2"):
        swaps.append((data["leaving_2"], data["joining_2"]))
    return staff.team_replace(
        moderator=user,
        tournament_id=entry.tournament_id,
        entry_id=entry.pk,
        swaps=swaps,
        reason=data["reason"],
    )


CANCEL = Step(_("Cancel the tournament"), ReasonForm, _cancel)
DISQUALIFY = Step(_("Disqualify the team"), ReasonForm, _disqualify)
REPLACE = Step(_("Replace a player of the team"), ReplaceForm, _replace)


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("player", "partner", "status", "seed", "rating")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = TournamentRound
    fields = ("number", "status", "started_at", "deadline", "finished_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = EditForm
    list_display = ("name", "format", "status", "public", "capacity", "starts_at", "current_round")
    list_filter = ("status", "format", "public", "ruleset")
    search_fields = ("name",)
    inlines = [EntryInline, RoundInline]
    actions = ["cancel_tournaments"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(_MODERATE)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # cancel instead: the moderation log keeps why

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = ("status", "current_round", "winner", "end_note", "invite_code", "created_by")
        if obj is None:
            return fixed
        editable = obj.status == TournamentStatus.REGISTRATION
        return (*fixed, "format", *(() if editable else staff.EDITABLE))

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request_user(request)
            obj.created_at = clock.now()
            obj.invite_code = "" if obj.public else secrets.token_urlsafe(9)
            if obj.format != Format.SWISS:
                obj.swiss_rounds = None
            obj.save()
            action_log(
                moderator=obj.created_by,
                kind=ModerationKind.TOURNAMENT_CREATE,
                reason=form.cleaned_data.get("reason") or "Created in the admin.",
                changes={"tournament": obj.pk, "name": obj.name},
            )
            return
        fields = {
            name: form.cleaned_data[name] for name in form.changed_data if name in staff.EDITABLE
        }
        if not fields:
            return
        try:
            staff.tournament_edit(
                moderator=request_user(request),
                tournament_id=obj.pk,
                fields=fields,
                reason=form.cleaned_data.get("reason") or "",
            )
        except DomainError as exc:
            self.message_user(request, str(exc.detail), messages.ERROR)

    @admin.action(description=_("Cancel the tournament"), permissions=["moderate"])
    def cancel_tournaments(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return run_step(self, request, list(queryset), CANCEL, action="cancel_tournaments")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("pk", "tournament", "player", "partner", "status", "seed")
    list_filter = ("status",)
    search_fields = ("tournament__name", "player__username", "partner__username")
    readonly_fields = (
        "tournament",
        "player",
        "partner",
        "status",
        "seed",
        "rating",
        "created_at",
        "confirmed_at",
        "left_at",
    )
    actions = ["disqualify_teams", "replace_player"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(_MODERATE)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Disqualify the team"), permissions=["moderate"])
    def disqualify_teams(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return run_step(self, request, list(queryset), DISQUALIFY, action="disqualify_teams")

    @admin.action(description=_("Replace a player of the team"), permissions=["moderate"])
    def replace_player(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return run_step(self, request, list(queryset), REPLACE, action="replace_player")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "tournament",
        "round",
        "position",
        "team_a",
        "team_b",
        "winner",
        "outcome",
        "match",
    )
    list_filter = ("outcome",)
    readonly_fields = [f.name for f in Pairing._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
