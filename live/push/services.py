"""The push app's writes: devices and preferences."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from live.push.errors import DeviceNotFound
from live.push.kinds import EventKind
from live.push.models import Device, Platform, Preferences


@transaction.atomic
def device_register(
    *, user: User, platform: str, address: str, p256dh: str = "", auth: str = "", language: str
) -> tuple[Device, bool]:
    """Register a push target for ``user``; (device, created). A target already known (the
    same token or endpoint) is updated and moves to this user: the device now holds this
    user's login, so the previous account must stop receiving pushes on it."""
    device = Device.objects.select_for_update().filter(platform=platform, address=address).first()
    if device is None:
        # Past the limit the oldest goes: a phone that was reset or resold never says its
        # token died, and refusing the new one would leave the player with no pushes.
        keep = settings.PUSH_MAX_DEVICES_PER_USER - 1
        stale = Device.objects.filter(user=user).order_by("-pk").values_list("pk", flat=True)
        Device.objects.filter(pk__in=list(stale[keep:])).delete()
        device = Device.objects.create(
            user=user,
            platform=platform,
            address=address,
            p256dh=p256dh,
            auth=auth,
            language=language,
        )
        return device, True
    if device.user_id != user.pk:
        device.muted = []  # the previous owner's choice is not the new one's
    device.user = user
    device.p256dh, device.auth, device.language = p256dh, auth, language
    device.save(update_fields=["user", "p256dh", "auth", "language", "muted"])
    return device, False


def device_of(*, user: User, device_id: int) -> Device:
    device = Device.objects.filter(user=user, pk=device_id).first()
    if device is None:
        raise DeviceNotFound()
    return device


@transaction.atomic
def device_notifications_update(*, user: User, device_id: int, changes: dict[str, bool]) -> Device:
    """Push (true) or mute (false) kinds of event on one of the user's devices."""
    device = Device.objects.select_for_update().filter(user=user, pk=device_id).first()
    if device is None:
        raise DeviceNotFound()
    muted = set(device.muted)
    for kind, enabled in changes.items():
        (muted.discard if enabled else muted.add)(kind)
    device.muted = sorted(muted)
    device.save(update_fields=["muted"])
    return device


def device_delete(*, user: User, device_id: int) -> None:
    deleted, _ = Device.objects.filter(user=user, pk=device_id).delete()
    if not deleted:
        raise DeviceNotFound()


def preferences_of(user: User) -> dict[str, bool]:
    muted = Preferences.objects.filter(user=user).values_list("muted", flat=True).first() or []
    return {kind.value: kind.value not in muted for kind in EventKind}


@transaction.atomic
def preferences_update(*, user: User, changes: dict[str, bool]) -> dict[str, bool]:
    prefs, _ = Preferences.objects.select_for_update().get_or_create(user=user)
    muted = set(prefs.muted)
    for kind, enabled in changes.items():
        (muted.discard if enabled else muted.add)(kind)
    prefs.muted = sorted(muted)
    prefs.save(update_fields=["muted"])
    return preferences_of(user)


def device_json(device: Device) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": device.pk,
        "platform": device.platform,
        "language": device.language,
        "created_at": device.created_at,
        # Pushed (true) or muted (false) on this device; the account's preferences
        # (`GET /me/notifications`) mute for every device besides.
        "notifications": {kind.value: kind.value not in device.muted for kind in EventKind},
    }
    if device.platform == Platform.WEBPUSH:
        out["endpoint"] = device.address
    else:
        # Only the end of the token: enough to tell devices apart in a list.
        out["token_suffix"] = device.address[-8:]
    return out
