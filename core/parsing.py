"""Request-body parsing shared by every view: a JSON object, validated by a serializer.

One rule for every write body: only the fields the operation names. The request serializers
refuse any other key (``core.serializers.StrictRequestSerializer``), and the operations
that take no body refuse one that carries fields (``refuse_body``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from core.errors import InvalidInput
from core.serializers import StrictRequestSerializer

NO_BODY = _("This operation takes no body.")

# ASCII digits only: int() also takes " 1", "1_000", "+1" and any Unicode decimal digit
# ("\u0663", "\uff11"), which no client means. 19 digits bound the work and the value.
_ASCII_INTEGER = re.compile(r"[0-9]{1,19}")


def ascii_integer(raw: str) -> int | None:
    """A query parameter's non-negative integer, written in ASCII digits; None otherwise."""
    return int(raw) if _ASCII_INTEGER.fullmatch(raw) else None


def validated_body(serializer_class: type[StrictRequestSerializer], data: Any) -> dict[str, Any]:
    """The validated fields of ``data``; a 400 problem (with ``errors``) otherwise."""
    if not isinstance(data, dict):
        raise InvalidInput(
            _("The body must be a JSON object."),
            errors=[{"field": "body", "code": "invalid", "detail": _("Expected a JSON object.")}],
        )
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def refuse_body(data: Any) -> None:
    """For operations without a body: none, ``null`` or ``{}`` is fine; any field is unknown."""
    if data is None or (isinstance(data, Mapping) and not data):
        return
    if isinstance(data, Mapping):
        errors = [
            {"field": str(name), "code": "unknown_field", "detail": _("Unknown field.")}
            for name in sorted(data)
        ]
    else:
        errors = [{"field": "body", "code": "invalid", "detail": NO_BODY}]
    raise InvalidInput(NO_BODY, errors=errors)
