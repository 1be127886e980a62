"""Mail tasks, on the push queue (CELERY_TASK_ROUTES): its workers wait on other people's
servers already, so a slow mail server never delays a bot's turn or a deadline."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.db import DatabaseError

from accounts import mail, recovery


@shared_task(
    acks_late=True,
    # A mail server that is down or slow: try again later (a copy sent twice is harmless).
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=True,
    max_retries=4,
)
def mail_send(*, to: str, subject: str, body: str, kind: str) -> None:
    mail.deliver(mail.Mail(to=to, subject=subject, body=body, kind=kind))


@shared_task(acks_late=True, autoretry_for=(DatabaseError,), retry_backoff=True, max_retries=3)
def password_reset_mail(login: str, language: str) -> bool:
    """Find the account ``login`` names and mail it a code, if it has a verified address.
    Here rather than in the request, so the answer takes the same time whoever asks."""
    return recovery.password_reset_issue(login=login, language=language)


def mail_enqueue(message: mail.Mail) -> None:
    mail_send.apply_async(kwargs=message.as_task_kwargs())
