"""The base of every domain refusal.

One class per refusal, each carrying its stable ``code`` and HTTP ``status`` as class
attributes, so a raise site names what went wrong (``raise SeatTaken()``) instead of spelling
codes and statuses as strings. The one exception handler (``baloot_site.errors``) renders any
``DomainError`` as a problem; the published code list is collected from the subclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    """A refusal by a service, selector or view. Extra keyword arguments (``errors``,
    ``current_version``) are added to the problem body as they are."""

    code: ClassVar[str] = "invalid"
    status: ClassVar[int] = 400
    # Wrapped in gettext_lazy: rendered in the request's language when the problem is made
    # (tests/i18n walks every subclass and checks its Arabic).
    default_detail: ClassVar[str | Promise] = _("The request is not valid.")
    # Whole seconds after which a retry may succeed; sent as ``Retry-After`` when set.
    retry_after: int | None = None

    def __init__(self, detail: str | Promise | None = None, **extra: Any) -> None:
        self.detail = detail or self.default_detail
        super().__init__(self.detail)
        self.extra = extra

    @property
    def status_code(self) -> int:  # the name DRF's exceptions use
        return self.status


class InvalidInput(DomainError):
    """A request whose fields are wrong; ``errors`` names them when it can."""


class InvalidField(InvalidInput):
    """One named field (a body field or a query parameter) is wrong."""

    def __init__(
        self, field: str, detail: str | Promise, *, message: str | Promise | None = None
    ) -> None:
        super().__init__(
            message or f"{field}: {detail}",
            errors=[{"field": field, "code": "invalid", "detail": str(detail)}],
        )


class NotFound(DomainError):
    """Something that does not exist, or that the caller may not know of."""

    code = "not_found"
    status = 404
    default_detail = _("No such resource.")


class Conflict(DomainError):
    """A well-formed request the current state of a resource refuses."""

    status = 409


class Refused(DomainError):
    """A well-formed request refused for what the schema cannot say: the account's password,
    the ruleset of the match, who the other player is. ``422``: a ``400`` means the schema
    forbids the body (api.md), so a client can tell a bug in its request from a refusal to
    show its player."""

    status = 422


class FieldRefused(Refused):
    """A refusal about one field of the body, named in ``errors`` as a 400 names its fields."""

    field: ClassVar[str] = "body"

    def __init__(self) -> None:
        detail = str(self.default_detail)
        error = {"field": self.field, "code": self.code, "detail": detail}
        super().__init__(detail, errors=[error])


def domain_error_classes() -> list[type[DomainError]]:
    """Every subclass of DomainError imported so far (the caller imports the apps' errors)."""
    found: list[type[DomainError]] = []
    pending = [DomainError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found
