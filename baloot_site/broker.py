"""The embedded broker: kombu's SQLAlchemy transport on a SQLite file under ``var/``.

Why this one: ``make run`` must need no server, and the broker it used before (kombu's
filesystem transport) could hand the worker a message file its writer had not finished, which
killed the worker with ``JSONDecodeError`` about once in a thousand messages. Here a message is
one row written in one transaction, so a reader sees all of it or nothing.

What it gives up, and why that is fine here: the transport hides a message once it is fetched
and has no acknowledgement, so a task a worker had taken when it was ``kill -9``-ed is lost
rather than redelivered. Every turn task is also recorded as the match's ``deadline`` (a short
grace deadline for bot turns), and the periodic sweep plays whatever a lost task did not, so a
lost task delays a game by a few seconds and never stalls it. Redis (``CELERY_BROKER_URL``)
redelivers instead, with ``acks_late``.

Three adjustments to kombu's transport, all small:
- kombu passes every transport option to ``create_engine``, so ``polling_interval`` (the
  transport's own option, which must be short or every bot move waits a second) would make
  ``create_engine`` fail; the engine here is built from the URL alone, with a busy timeout and
  WAL (so the web process publishing and the workers polling do not block each other's reads).
- Delivered rows are kept by kombu forever (``visible = False``); they are deleted in batches.
- A queue is a row, made by whichever process names it first. There are three queues (the
  default one, the hard bots' and push's, ``CELERY_TASK_ROUTES``) and ``make run`` starts a
  worker for each and beat at once, each naming its queues; kombu guards the
  check-then-insert with a lock of its own process only, so a second process could fail on
  the unique name. Here it reads the row the other process made.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from kombu.transport import sqlalchemy as kombu_sqla
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

# How often (in fetched messages) delivered rows are deleted.
FORGET_DELIVERED_EVERY = 500
# Seconds a publisher or the poller waits for the SQLite write lock before failing.
BUSY_TIMEOUT_SECONDS = 10


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


class Channel(kombu_sqla.Channel):
    _fetched = 0

    def _engine_from_config(self) -> Engine:
        client = self.connection.client
        # The transport is made by its Connection, whose hostname holds the whole broker URL.
        assert client is not None and client.hostname is not None
        url = client.hostname
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine

    def _get_or_create(self, queue: str) -> Any:
        try:
            return super()._get_or_create(queue)  # type: ignore[misc]  # not in the stubs
        except IntegrityError:
            # Another process made the queue's row between kombu's look and its insert.
            self.session.rollback()
            return self.session.query(self.queue_cls).filter(self.queue_cls.name == queue).one()

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        payload = super()._get(queue)  # raises Empty when there is nothing to fetch
        self._fetched += 1
        if self._fetched % FORGET_DELIVERED_EVERY == 0:
            self._forget_delivered()
        return payload

    def _forget_delivered(self) -> None:
        self.session.query(self.message_cls).filter(self.message_cls.visible.is_(False)).delete()
        self.session.commit()


class Transport(kombu_sqla.Transport):
    Channel = Channel
