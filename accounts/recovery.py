"""A player's email address, verified with a mailed code, and the password reset it allows.

Codes: six random digits (``secrets``), mailed, stored only as an HMAC keyed by the site's
secret (a database leak alone cannot test guesses), compared in constant time, valid for
``EMAIL_CODE_TTL_MINUTES``, used once (the row is deleted), one live code per account and
purpose (a new one replaces the old), and dead after ``MAX_FAILURES`` wrong guesses. The API
throttles asking for codes and trying them (``accounts.api.recovery``).

``User.email`` holds a verified address only, with ``email_verified_at``; the address waiting
for its code lives in the code's row, so an unverified address is never used for anything
but that one message.

Nothing slow runs in a write transaction: passwords are hashed before it opens, and mail
leaves after it commits (``accounts.mail``).
"""

from __future__ import annotations

import hmac
import secrets
from datetime import timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.crypto import salted_hmac

from accounts import mail
from accounts.errors import EmailTaken, InvalidCode
from accounts.models import AuthToken, CodePurpose, EmailCode, User
from core import clock

CODE_DIGITS = 6
# Wrong guesses a code survives; with 10**6 codes, a guesser's chance per code is 5 in a million.
MAX_FAILURES = 5


def _code_new() -> str:
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def _code_hash(*, user_id: int, purpose: str, email: str, code: str) -> str:
    # Bound to the account, purpose and address: a code proves nothing for any other.
    message = f"{purpose}:{user_id}:{email.lower()}:{code}"
    return salted_hmac("accounts.recovery.code", message, algorithm="sha256").hexdigest()


def _code_store(*, user: User, purpose: str, email: str) -> str:
    """A new code for ``user`` and ``purpose``, replacing any earlier one; inside the caller's
    transaction. Returns the code itself, which only the mail carries."""
    code = _code_new()
    now = clock.now()
    EmailCode.objects.update_or_create(
        user=user,
        purpose=purpose,
        defaults={
            "email": email,
            "code_hash": _code_hash(user_id=user.pk, purpose=purpose, email=email, code=code),
            "created_at": now,
            "expires_at": now + timedelta(minutes=settings.EMAIL_CODE_TTL_MINUTES),
            "failures": 0,
        },
    )
    return code


def _code_normalise(code: str) -> str:
    # As a person copies it: "123 456" is the code too.
    return "".join(code.split())


def _code_check(*, user: User, purpose: str, code: str) -> EmailCode:
    """The live code row of ``user`` for ``purpose`` if ``code`` is its code; otherwise
    ``InvalidCode``, a wrong guess counted against the code. Whatever the reason, one answer."""
    row = EmailCode.objects.filter(
        user=user, purpose=purpose, expires_at__gt=clock.now(), failures__lt=MAX_FAILURES
    ).first()
    if row is None:
        raise InvalidCode()
    guess = _code_hash(
        user_id=user.pk, purpose=purpose, email=row.email, code=_code_normalise(code)
    )
    if not hmac.compare_digest(guess, row.code_hash):
        # A small write of its own, outside any other transaction (this runs before one).
        EmailCode.objects.filter(pk=row.pk).update(failures=F("failures") + 1)
        raise InvalidCode()
    return row


def _code_take(row: EmailCode) -> None:
    """Use the checked code ``row``, inside the caller's transaction with the account locked:
    ``InvalidCode`` if it was used, replaced or expired since it was checked."""
    taken, _kinds = EmailCode.objects.filter(
        pk=row.pk, code_hash=row.code_hash, expires_at__gt=clock.now()
    ).delete()
    if not taken:
        raise InvalidCode()


# --- The address ---------------------------------------------------------------------------


def email_pending(user: User) -> str | None:
    """The address waiting for its verification code, if any (an expired code's is not)."""
    return (
        EmailCode.objects.filter(
            user=user, purpose=CodePurpose.VERIFY_EMAIL, expires_at__gt=clock.now()
        )
        .values_list("email", flat=True)
        .first()
    )


def email_normalise(email: str) -> str:
    return User.objects.normalize_email(email.strip())


def email_change_sends(*, user: User, email: str | None) -> bool:
    """Would setting ``email`` mail a code? (Not to remove the address, nor to set the one
    already verified.) The API throttles the requests that would."""
    if email is None:
        return False
    return not (
        user.email_verified_at is not None and user.email.lower() == email_normalise(email).lower()
    )


def email_change(*, user: User, email: str | None, language: str) -> None:
    """``PATCH /me``'s ``email``. An address is mailed a code (``email_verify`` confirms it)
    and the verified address, if any, stays until then; the address already verified is kept
    as it is (and a pending change to another forgotten); ``None`` removes the address and
    any pending one."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if email is None:
            locked.email = ""
            locked.email_verified_at = None
            locked.save(update_fields=["email", "email_verified_at"])
            EmailCode.objects.filter(user=locked).delete()
            return
        if not email_change_sends(user=locked, email=email):
            EmailCode.objects.filter(user=locked, purpose=CodePurpose.VERIFY_EMAIL).delete()
            return
        address = email_normalise(email)
        code = _code_store(user=locked, purpose=CodePurpose.VERIFY_EMAIL, email=address)
        mail.send_on_commit(
            mail.verification_compose(
                to=address,
                name=locked.display_name or locked.username,
                code=code,
                language=locked.language or language,
            )
        )


def email_verify(*, user: User, code: str, language: str) -> User:
    """Confirm the pending address with its ``code``: it becomes the account's address, and
    the verified address it replaces, if any, is told so (in ``language`` unless the account
    has its own). ``InvalidCode`` for a wrong, used or expired code; ``EmailTaken`` if another
    account has verified that address meanwhile (the code stays usable, nothing changes)."""
    row = _code_check(user=user, purpose=CodePurpose.VERIFY_EMAIL, code=code)
    try:
        with transaction.atomic():
            locked = User.objects.select_for_update().get(pk=user.pk)
            taken = User.objects.filter(
                email__iexact=row.email, email_verified_at__isnull=False
            ).exclude(pk=locked.pk)
            if taken.exists():
                raise EmailTaken()
            _code_take(row)
            previous = locked.email if locked.email_verified_at is not None else ""
            locked.email = row.email
            locked.email_verified_at = clock.now()
            locked.save(update_fields=["email", "email_verified_at"])
            # A reset code mailed to the old address no longer proves anything.
            EmailCode.objects.filter(user=locked, purpose=CodePurpose.PASSWORD_RESET).delete()
            if previous and previous.lower() != row.email.lower():
                mail.send_on_commit(
                    mail.replaced_compose(
                        to=previous,
                        name=locked.display_name or locked.username,
                        username=locked.username,
                        new=mail.masked(row.email),
                        language=locked.language or language,
                    )
                )
    except IntegrityError:
        # The unique verified address: another account verified it between the check and
        # the save.
        raise EmailTaken() from None
    return locked


# --- Password reset ------------------------------------------------------------------------


def account_for_login(login: str) -> User | None:
    """The living account a reset names: by username (any case), else by verified address.
    Unverified addresses match nothing."""
    living = User.objects.filter(is_active=True, deleted_at__isnull=True)
    user = living.filter(username__iexact=login).first()
    if user is None and "@" in login:
        user = living.filter(
            email__iexact=email_normalise(login), email_verified_at__isnull=False
        ).first()
    return user


def password_reset_issue(*, login: str, language: str) -> bool:
    """Mail a reset code to the verified address of the account ``login`` names, if there is
    one (run by a task, so the HTTP answer is the same whoever asks). Returns whether a code
    was made."""
    user = account_for_login(login)
    if user is None or user.email_verified_at is None or not user.email:
        return False
    with transaction.atomic():
        code = _code_store(user=user, purpose=CodePurpose.PASSWORD_RESET, email=user.email)
        mail.send_on_commit(
            mail.reset_compose(
                to=user.email,
                name=user.display_name or user.username,
                username=user.username,
                code=code,
                language=user.language or language,
            )
        )
    return True


def password_reset_check(*, login: str, code: str) -> tuple[User, EmailCode]:
    """The account and its reset code, if ``code`` is right; else ``InvalidCode`` (an unknown
    login too: the answer does not tell accounts apart)."""
    user = account_for_login(login)
    if user is None:
        raise InvalidCode()
    return user, _code_check(user=user, purpose=CodePurpose.PASSWORD_RESET, code=code)


def password_reset_finish(*, user: User, row: EmailCode, new_password: str) -> None:
    """Set ``new_password`` (already checked against AUTH_PASSWORD_VALIDATORS) with the
    checked code ``row``, used up here; revoke every token of the account, and clear the
    failed logins that locked it (the player proved they hold its address)."""
    encoded = make_password(new_password)  # before the transaction: accounts.services
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.email_verified_at is None or locked.email.lower() != row.email.lower():
            raise InvalidCode()  # the address changed since the code was mailed
        _code_take(row)
        locked.password = encoded
        locked.save(update_fields=["password"])
        AuthToken.objects.filter(user=locked, revoked_at__isnull=True).update(
            revoked_at=clock.now()
        )
        AccessAttempt.objects.filter(username=locked.get_username()).delete()
