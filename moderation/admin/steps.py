"""Moderation actions in the admin: each asks for a reason on an intermediate page, then
calls one moderation service per selected object (which locks, bumps the version, schedules
follow-ups and writes the moderation log row in one transaction)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from accounts.authentication import request_user
from accounts.models import SanctionKind, User, sanction_end_refusal
from core.errors import DomainError
from games.models import BotLevel


def _seat_label_now(index: int) -> str:
    return _("Seat %(seat)d") % {"seat": index}


# Lazy: the form's choices are made at import, read in each request's language.
_seat_label = lazy(_seat_label_now, str)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Why: kept in the moderation log."),
    )


class AdjudicateForm(ReasonForm):
    winner_team = forms.TypedChoiceField(
        choices=[(0, _("Team 0 (seats 0 and 2)")), (1, _("Team 1 (seats 1 and 3)"))],
        coerce=int,
    )
    field_order = ["winner_team", "reason"]


class SeatToBotForm(ReasonForm):
    seat = forms.TypedChoiceField(choices=[(i, _seat_label(i)) for i in range(4)], coerce=int)
    level = forms.ChoiceField(choices=BotLevel.choices, initial=BotLevel.EASY)
    field_order = ["seat", "level", "reason"]


class ExtendForm(ReasonForm):
    minutes = forms.IntegerField(min_value=1, max_value=30 * 24 * 60, initial=60)
    field_order = ["minutes", "reason"]


class SanctionForm(ReasonForm):
    kind = forms.ChoiceField(
        choices=[(SanctionKind.SUSPEND, _("Suspend")), (SanctionKind.BAN, _("Ban"))]
    )
    ends_at = forms.DateTimeField(
        required=False, help_text=_("For a suspension: until when (UTC, YYYY-MM-DD HH:MM).")
    )
    field_order = ["kind", "ends_at", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        refusal = sanction_end_refusal(data.get("kind", ""), data.get("ends_at"))
        if refusal is not None:
            self.add_error("ends_at", str(refusal))
        return data


@dataclass(frozen=True)
class Step:
    """One moderation action: its title, its form, and how to apply it to one object."""

    title: str | Promise
    form: type[forms.Form]
    apply: Callable[[User, Any, dict[str, Any]], Any]


def run_step(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    objects: list[Any],
    step: Step,
    *,
    action: str | None,
) -> TemplateResponse | None:
    """Render the intermediate page asking for a reason, or apply the step to each object
    (on POST with ``apply``). Returns None when done, as an admin action does."""
    if request.method == "POST" and request.POST.get("apply"):
        form = step.form(request.POST)
        if form.is_valid():
            done = 0
            for obj in objects:
                try:
                    step.apply(request_user(request), obj, form.cleaned_data)
                    done += 1
                except DomainError as exc:
                    model_admin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
            if done:
                done_text = _("%(action)s: done for %(done)d of %(total)d.")
                counts = {"action": step.title, "done": done, "total": len(objects)}
                model_admin.message_user(request, done_text % counts, messages.SUCCESS)
            return None
    else:
        form = step.form()
    context = {
        **model_admin.admin_site.each_context(request),
        "title": step.title,
        "form": form,
        "objects": objects,
        "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "opts": model_admin.model._meta,
        "media": model_admin.media + form.media,
    }
    return TemplateResponse(request, "admin/moderation/moderate.html", context)
