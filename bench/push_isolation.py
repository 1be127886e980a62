"""A slow push target next to the games (issue 23), on this machine: bot replies with and without
100 devices at a tarpit, and the push worker's throughput to a fast push service.

    python -m bench.push_isolation [--moves 40] [--tables 2] [--throughput 300]

Runs on the embedded defaults (SQLite database and broker, the push cache in the database) in
a temporary folder, with the workers ``make run`` starts: the default queue's (4 processes,
with beat) and the push worker (4 processes), at the default push limits (3 s to connect, 5 s
to read, 3 sends in flight per host, 2 per user, the breaker after 5 failures). On loopback:

- a tarpit: a listener that accepts connections and never answers, as the APNs endpoint
  (``APNS_BASE_URL``);
- a fast push service: a threaded HTTP server answering FCM's token and send endpoints at
  once (``FCM_BASE_URL`` and the service account's ``token_uri``).

1. Bot replies: ``--tables`` people each play ``--moves`` moves against three easy bots; each
   wait, from a move (or the match's creation) to the person's turn again. First with no push
   device anywhere, then while 5 accounts with 20 APNs devices each (100 devices at the tarpit)
   receive a notice every second.
2. Throughput: ``--throughput`` notifications, one FCM device each (as many accounts), queued at
   once; from the queueing to the last one sent.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EASY_BOTS = {"1": "easy", "2": "easy", "3": "easy"}
TARPIT_ACCOUNTS, TARPIT_DEVICES_EACH = 5, 20


class Tarpit:
    """Accepts every connection and never reads or writes."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.server.settimeout(0.1)
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.held.append(conn)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        for conn in self.held:
            conn.close()
        self.server.close()


class FastPush:
    """FCM's token endpoint and ``messages:send``, answering at once; counts the sends."""

    def __init__(self) -> None:
        self.sent = 0
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/token":
                    body = {"access_token": "bench", "expires_in": 3600, "token_type": "Bearer"}
                else:
                    with outer.lock:
                        outer.sent += 1
                    body = {"name": "projects/bench/messages/1"}
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,))
        self.thread.daemon = True
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _keys(folder: Path, fcm_base: str) -> dict[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    pem = serialization.Encoding.PEM
    pkcs8 = serialization.PrivateFormat.PKCS8
    none = serialization.NoEncryption()
    p8 = folder / "AuthKey_BENCH.p8"
    p8.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(pem, pkcs8, none))
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    account = folder / "service-account.json"
    account.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "bench",
                "private_key_id": "k",
                "private_key": rsa_key.private_bytes(pem, pkcs8, none).decode(),
                "client_email": "push@bench.iam.gserviceaccount.com",
                "client_id": "1",
                "token_uri": f"{fcm_base}/token",
            }
        )
    )
    return {"APNS_KEY_FILE": str(p8), "FCM_SERVICE_ACCOUNT_FILE": str(account)}


def _env(var_dir: Path, tarpit: Tarpit, fast: FastPush) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "PUSH_CACHE_URL")
    }
    env.update(
        {
            "BALOOT_VAR_DIR": str(var_dir),
            "LOG_LEVEL": "WARNING",
            "PUSH_BACKENDS": "fcm=fcm,apns=apns,webpush=log",
            "APNS_BASE_URL": f"http://127.0.0.1:{tarpit.port}",
            "APNS_KEY_ID": "BENCH",
            "APNS_TEAM_ID": "TEAM",
            "APNS_TOPIC": "com.example.baloot",
            "FCM_BASE_URL": fast.base,
            "FCM_PROJECT_ID": "bench",
            "PUSH_SWEEP_SECONDS": "1",
            "RATE_READS": "1000000/min",
            "RATE_MOVES": "1000000/min",
            "RATE_MATCH_CREATE": "1000000/min",
            "RATE_AUTH": "1000000/min",
            "RATE_AUTH_ADDRESS": "1000000/hour",
            **_keys(var_dir, fast.base),
        }
    )
    return env


def _worker(env: dict[str, str], logs: Path, queue: str, node: str, beat: bool) -> Any:
    command = [
        *(sys.executable, "-m", "celery", "-A", "baloot_site", "worker", "--loglevel=WARNING"),
        *(f"--queues={queue}", f"--hostname={node}@%h", "--concurrency=4"),
        *("-O", "fair", "--without-gossip", "--without-mingle"),
        *(["--beat", "--schedule", str(logs / "beat-schedule")] if beat else []),
    ]
    out = (logs / f"{node}.log").open("wb")
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


_names = iter(range(1, 1_000_000))


def _play(moves: int, waits: list[float], lock: threading.Lock) -> None:
    from django.db import connection
    from rest_framework.test import APIClient

    from accounts.services import user_register

    try:
        n = next(_names)
        _user, token = user_register(
            username=f"player{n}", password="a long password", display_name=f"P{n}"
        )
        human = APIClient()
        human.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        response = human.post(
            "/api/v1/matches",
            {"target": 1000, "bots": EASY_BOTS, "turn_seconds": 600},
            format="json",
        )
        assert response.status_code == 201, response.content
        url = f"/api/v1/matches/{response.json()['id']}"
        since = time.monotonic()
        for _ in range(moves):
            while True:
                view = human.get(url).json()
                if view["status"] != "active" or view["round"]["legal_moves"]:
                    break
                time.sleep(0.01)
            with lock:
                waits.append(time.monotonic() - since)
            if view["status"] != "active":
                return
            since = time.monotonic()
            move = view["round"]["legal_moves"][0]
            human.post(f"{url}/moves", {**move, "expected_version": view["version"]}, format="json")
    finally:
        connection.close()


def _replies(tables: int, moves: int) -> list[float]:
    waits: list[float] = []
    lock = threading.Lock()
    threads = [threading.Thread(target=_play, args=(moves, waits, lock)) for _ in range(tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return waits


def _notices(user_ids: list[int], start: int) -> None:
    from django.db import transaction

    from live.push.kinds import EventKind
    from live.push.listeners import notification_write

    for user_id in user_ids:
        with transaction.atomic():
            notification_write(
                user_id=user_id, kind=EventKind.SANCTION, match_id=None, version=start
            )


def _line(name: str, waits: list[float]) -> str:
    return (
        f"{name:<34} {len(waits):>4} {_pct(waits, 0.5):>7.2f} {_pct(waits, 0.95):>7.2f}"
        f" {max(waits):>7.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="moves per table and phase")
    parser.add_argument("--tables", type=int, default=2, help="people playing at once")
    parser.add_argument("--throughput", type=int, default=300, help="notifications to send")
    args = parser.parse_args()

    var_dir = Path(tempfile.mkdtemp(prefix="baloot-bench-push-"))
    tarpit, fast = Tarpit(), FastPush()
    env = _env(var_dir, tarpit, fast)
    os.environ.clear()
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "baloot_site.settings"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    import django

    django.setup()
    from django.conf import settings

    from accounts.models import User
    from live.push import outbox
    from live.push.models import Device, Notification, NotificationStatus

    workers = [
        _worker(env, var_dir, "celery", "celery", beat=True),
        _worker(env, var_dir, "push", "push", beat=False),
    ]
    try:
        time.sleep(4)  # the workers start and name their queues
        print(
            f"push limits: connect {settings.PUSH_CONNECT_TIMEOUT_SECONDS:g} s, read "
            f"{settings.PUSH_TIMEOUT_SECONDS:g} s, {settings.PUSH_HOST_CONCURRENCY} per host, "
            f"{settings.PUSH_USER_CONCURRENCY} per user, breaker after "
            f"{settings.PUSH_BREAKER_FAILURES} failures for "
            f"{settings.PUSH_BREAKER_COOLDOWN_SECONDS:g} s; workers: default 4 + push 4 processes"
        )
        _replies(1, 3)  # warm up: imports, first connections, the bots' tables
        quiet = _replies(args.tables, args.moves)

        users = [
            User.objects.create_user(username=f"tarpitted{n}", password="a long password")
            for n in range(TARPIT_ACCOUNTS)
        ]
        Device.objects.bulk_create(
            Device(user=user, platform="apns", address=f"{user.pk:08x}{i:056x}")
            for user in users
            for i in range(TARPIT_DEVICES_EACH)
        )
        ids = [user.pk for user in users]
        stop = threading.Event()

        def notify() -> None:
            from django.db import connection

            n = 0
            while not stop.is_set():
                n += 1
                _notices(ids, n)
                stop.wait(1.0)
            connection.close()

        notifier = threading.Thread(target=notify)
        notifier.start()
        started = time.monotonic()
        while not tarpit.held and time.monotonic() - started < 30:
            time.sleep(0.05)
        stuck = _replies(args.tables, args.moves)
        stop.set()
        notifier.join()
        rows = Notification.objects.filter(user_id__in=ids)
        print()
        print(f"{'bot replies (easy bots), seconds':<34} {'n':>4} {'p50':>7} {'p95':>7} {'max':>7}")
        print(_line("no push device", quiet))
        print(_line("100 devices at a tarpit", stuck))
        print(
            f"  meanwhile: {rows.count()} notices to the tarpitted accounts, "
            f"{len(tarpit.held)} sends reached the tarpit, "
            f"{rows.filter(status=NotificationStatus.PENDING).count()} pending (deferred or "
            f"backing off), {rows.filter(status=NotificationStatus.FAILED).count()} failed"
        )

        # Throughput to a fast service: one FCM device per account.
        n = args.throughput
        User.objects.bulk_create(
            User(username=f"fast{i}", password="!", display_name=f"F{i}") for i in range(n)
        )
        fast_users = list(User.objects.filter(username__startswith="fast").order_by("pk"))
        Device.objects.bulk_create(
            Device(user=user, platform="fcm", address=f"fcm-{user.pk}") for user in fast_users
        )
        from core import clock

        made = Notification.objects.bulk_create(
            Notification(
                key=f"sanction:0:1:{user.pk}",
                user=user,
                kind="sanction",
                version=1,
                due_at=clock.now(),
            )
            for user in fast_users
        )
        sent_before = fast.sent
        now = time.monotonic()
        for row in made:
            outbox.enqueue(row.pk)
        pending = Notification.objects.filter(
            pk__in=[r.pk for r in made], status=NotificationStatus.PENDING
        )
        while pending.exists() and time.monotonic() - now < 600:
            time.sleep(0.1)
        elapsed = time.monotonic() - now
        done = Notification.objects.filter(
            pk__in=[r.pk for r in made], status=NotificationStatus.SENT
        ).count()
        print()
        print(
            f"push throughput to a fast local service: {done} of {n} notifications sent in "
            f"{elapsed:.1f} s = {done / elapsed:.0f} notifications/s "
            f"({fast.sent - sent_before} sends; one device each)"
        )
    finally:
        for worker in workers:
            try:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=10)
            except ProcessLookupError:
                pass
        tarpit.stop()
        fast.stop()
        shutil.rmtree(var_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
