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

from kombu import Connection

from baloot_site import broker

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
