"""Push refusals. They reuse the API's published codes (``not_found``, ``invalid``), so the
error code list and its schema enum stay as they are."""

from __future__ import annotations

from core.errors import InvalidInput, NotFound


class DeviceNotFound(NotFound):
    """No such device of the caller's: another user's devices are not revealed."""

    default_detail = "No such device."


class TooManyDevices(InvalidInput):
    default_detail = "Too many devices; remove one first."

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"At most {limit} devices; remove one first.",
            errors=[{"field": "token", "code": "invalid", "detail": "Too many devices."}],
        )
