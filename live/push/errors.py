"""Push refusals. They reuse the API's published codes (``not_found``), so the error code
list and its schema enum stay as they are."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import NotFound


class DeviceNotFound(NotFound):
    """No such device of the caller's: another user's devices are not revealed."""

    default_detail = _("No such device.")
