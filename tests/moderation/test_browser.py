"""One real-browser check: headless Chromium logs in through the admin login form as a
moderator, opens a match page with its move log, and saves a screenshot.

Chromium is driven over the DevTools protocol on ``--remote-debugging-pipe`` (file
descriptors 3 and 4, NUL-separated JSON), which needs no extra Python package. Needs Debian's
``chromium`` at /usr/bin/chromium, which ``make test`` installs (the Makefile's system-deps).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import struct
import subprocess
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.support import tiers

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")


def test_chromium_is_installed() -> None:
    # `make test` installs it; a missing browser must fail the suite, not skip the check.
    assert CHROMIUM.exists(), "install Debian's chromium (make system-deps)"


class DevTools:
    """A minimal DevTools client over the pipe: send a command, wait for its answer."""

    def __init__(self, user_data_dir: Path) -> None:
        tiers.require("browser", "Chromium")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Move the child's ends above 4 first, so wiring them to 3 and 4 cannot clobber one.
        for fd in (to_chrome_r, from_chrome_w):
            high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            if fd == to_chrome_r:
                to_chrome_r = high
            else:
                from_chrome_w = high

        def wire_fds() -> None:  # in the child: the pipe protocol wants fds 3 and 4
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.process = subprocess.Popen(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1280,1600",
                f"--user-data-dir={user_data_dir}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            preexec_fn=wire_fds,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next_id = 0
        self._buffer = b""

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # it may be gone already
            self.send("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


def _evaluate(tools: DevTools, session: str, expression: str) -> Any:
    result = tools.send(
        "Runtime.evaluate", session, expression=expression, returnByValue=True, awaitPromise=True
    )
    return result.get("result", {}).get("value")


def _wait_for(tools: DevTools, session: str, expression: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _evaluate(tools, session, expression):
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {expression}")


def _png_colours(data: bytes) -> int:
    """How many distinct pixel values a PNG holds (8-bit RGB/RGBA, any row filter)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    height = bit_depth = colour_type = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, bit_depth, colour_type = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert bit_depth == 8 and colour_type in (2, 6), (bit_depth, colour_type)
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, i = bytearray(stride), 0
    colours: set[bytes] = set()
    for _ in range(height):
        row_filter, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, up_left = previous[x], previous[x - bpp] if x >= bpp else 0
            if row_filter == 1:
                line[x] = (line[x] + left) & 0xFF
            elif row_filter == 2:
                line[x] = (line[x] + up) & 0xFF
            elif row_filter == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif row_filter == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[x] = (line[x] + pred) & 0xFF
        colours.update(bytes(line[x : x + bpp]) for x in range(0, stride, bpp * 7))
        previous = line
    return len(colours)


@pytest.mark.slow
def test_a_moderator_sees_a_match_and_its_move_log_in_chromium(
    live_server: Any, played: Any, moderator: Any, tmp_path: Path
) -> None:
    match, _ = played
    moderator.user.set_password("moderator password 1")
    moderator.user.save()
    page = f"{live_server.url}/admin/games/match/{match.pk}/change/"
    login = f"{live_server.url}/admin/login/?next=/admin/games/match/{match.pk}/change/"
    shot = tmp_path / "match-page.png"

    tools = DevTools(tmp_path / "profile")
    try:
        target = tools.send("Target.createTarget", url="about:blank")["targetId"]
        session = tools.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        tools.send("Page.enable", session)
        tools.send("Page.navigate", session, url=login)
        _wait_for(tools, session, "!!document.querySelector('#id_username')")
        # Fill in and submit the real login form; the admin redirects to `next`.
        _evaluate(
            tools,
            session,
            "document.querySelector('#id_username').value = 'mod';"
            "document.querySelector('#id_password').value = 'moderator password 1';"
            "document.querySelector('#login-form').submit(); true",
        )
        _wait_for(tools, session, "!!document.querySelector('#move-log')")
        assert _evaluate(tools, session, "location.href") == page
        text = _evaluate(tools, session, "document.body.innerText")
        assert "Move log and full deal" in text and "Score sheet" in text
        assert "download record" in text
        _evaluate(tools, session, "document.querySelector('#move-log').scrollIntoView(); true")
        data = tools.send("Page.captureScreenshot", session, format="png")["data"]
        shot.write_bytes(base64.b64decode(data))
    finally:
        tools.close()

    assert shot.exists()
    assert shot.stat().st_size > 10_000
    assert _png_colours(shot.read_bytes()) > 10  # not blank: text, tables, the admin header
    if os.environ.get("MODERATION_SCREENSHOT"):  # keep a copy to look at
        Path(os.environ["MODERATION_SCREENSHOT"]).write_bytes(shot.read_bytes())
