"""The embedded default: the payload goes to the log, so ``make run`` needs no credentials."""

from __future__ import annotations

import logging
from typing import Any

from live.push.models import Device
from live.push.providers.base import Result, payload_json

log = logging.getLogger("live.push.sent")


class LogProvider:
    def send(self, target: Device, payload: dict[str, Any], collapse_key: str) -> Result:
        log.info(
            "push %s device %s collapse %s: %s",
            target.platform,
            target.pk,
            collapse_key,
            payload_json(payload),
        )
        return Result.OK
