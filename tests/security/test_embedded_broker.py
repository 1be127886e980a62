"""The embedded broker never hands a consumer half a message (issue "Hardening", 1).

The filesystem transport it replaces let a consumer read a message file before its writer had
finished it, about once in a thousand messages, and the worker died of the JSONDecodeError.
Here one process publishes while another consumes, as the web process and the worker do, and
every message must arrive whole, once, in order.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from kombu import Connection

from baloot_site import broker

# Thousands of messages between processes (consumers started as subprocesses).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = 2000
BLOB = "x" * 4096  # large enough that a torn write would show

CONSUMER = """
import json, sys
from kombu import Connection
from baloot_site.broker import Transport
url, n, blob = sys.argv[1], int(sys.argv[2]), "x" * 4096
seen = []
with Connection(url, transport=Transport, transport_options={"polling_interval": 0.01}) as conn:
    queue = conn.SimpleQueue("stress")
    while len(seen) < n:
        message = queue.get(timeout=60)
        assert message.payload["blob"] == blob, "a torn message"
        seen.append(message.payload["i"])
        message.ack()
print(json.dumps(seen))
"""


def test_a_publisher_and_a_consumer_in_two_processes_lose_or_tear_nothing(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    consumer = subprocess.Popen(
        [sys.executable, "-c", CONSUMER, url, str(MESSAGES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    with Connection(url, transport=broker.Transport) as conn:
        queue = conn.SimpleQueue("stress")
        for i in range(MESSAGES):
            queue.put({"i": i, "blob": BLOB})
    out, err = consumer.communicate(timeout=300)
    assert consumer.returncode == 0, err.decode()[-3000:]
    assert json.loads(out) == list(range(MESSAGES))

    # Delivered rows do not pile up: they are deleted in batches as the consumer goes.
    with sqlite3.connect(tmp_path / "broker.sqlite3") as db:
        (rows,) = db.execute("SELECT count(*) FROM kombu_message").fetchone()
    assert rows < broker.FORGET_DELIVERED_EVERY


CONSUME_ONE_QUEUE = """
import json, sys
from kombu import Connection
from baloot_site.broker import Transport
url, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = []
with Connection(url, transport=Transport, transport_options={"polling_interval": 0.01}) as conn:
    queue = conn.SimpleQueue(name)
    while len(seen) < n:
        message = queue.get(timeout=60)
        seen.append(message.payload)
        message.ack()
print(json.dumps(seen))
"""


def test_two_queues_each_consumed_by_its_own_process_get_their_own_messages_only(
    tmp_path: Path,
) -> None:
    """As ``make run`` uses it: the web process publishes to the default queue and to the
    hard bots' queue, and one worker process consumes each."""
    from games.tasks import DEFAULT_QUEUE, HARD_BOT_QUEUE

    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    per_queue = 300
    consumers = {
        name: subprocess.Popen(
            [sys.executable, "-c", CONSUME_ONE_QUEUE, url, name, str(per_queue)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in (DEFAULT_QUEUE, HARD_BOT_QUEUE)
    }
    with Connection(url, transport=broker.Transport) as conn:
        queues = {name: conn.SimpleQueue(name) for name in consumers}
        for i in range(per_queue):
            for name, queue in queues.items():
                queue.put({"queue": name, "i": i})
    for name, consumer in consumers.items():
        out, err = consumer.communicate(timeout=300)
        assert consumer.returncode == 0, err.decode()[-3000:]
        assert json.loads(out) == [{"queue": name, "i": i} for i in range(per_queue)], name


def test_a_queue_another_process_created_meanwhile_is_used_not_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes naming a new queue at once (make run starts both workers and beat
    together): the one that finds the row made between its look and its insert uses it."""
    path = tmp_path / "broker.sqlite3"
    with Connection(f"sqlite:///{path}", transport=broker.Transport) as conn:
        channel = conn.default_channel
        assert isinstance(channel, broker.Channel)
        session = channel.session
        insert = session.add

        def the_other_process_inserts_first(row: object) -> None:
            with sqlite3.connect(path) as other:
                other.execute("INSERT INTO kombu_queue (name) VALUES (?)", ("bots-hard",))
            insert(row)

        monkeypatch.setattr(session, "add", the_other_process_inserts_first)
        queue = channel._get_or_create("bots-hard")
        monkeypatch.undo()
        assert queue.name == "bots-hard" and queue.id is not None
        conn.SimpleQueue("bots-hard").put({"i": 1})
        assert conn.SimpleQueue("bots-hard").get(timeout=5).payload == {"i": 1}
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT count(*) FROM kombu_queue WHERE name = 'bots-hard'").fetchone()
    assert rows == (1,)
