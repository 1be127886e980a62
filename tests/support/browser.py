"""Headless Chromium for the admin's browser checks, with no extra Python package.

Chromium is driven over the DevTools protocol on ``--remote-debugging-pipe`` (file descriptors
3 and 4, NUL-separated JSON). Needs Debian's ``chromium`` at /usr/bin/chromium, which
``make test`` installs (the Makefile's system-deps). ``Page`` wraps one tab: evaluate script,
wait for a condition, log in through the admin's real form, press keys and click as a user
does (input events, not ``element.click()``), and take screenshots, which ``png_pixels``
decodes.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import tiers

CHROMIUM = Path("/usr/bin/chromium")

# The keys the tests press: DevTools wants the key, its code and the Windows key code.
KEYS = {
    "ArrowLeft": ("ArrowLeft", 37),
    "ArrowRight": ("ArrowRight", 39),
    "Home": ("Home", 36),
    "End": ("End", 35),
}


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
                # Screenshots measured in CSS pixels, whatever the machine's display says.
                "--force-device-scale-factor=1",
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

    def open_page(self) -> Page:
        """A new tab, attached, with page events on."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable", session)
        return Page(self, session)

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


@dataclass
class Page:
    """One tab of ``tools``."""

    tools: DevTools
    session: str

    def navigate(self, url: str) -> None:
        self.tools.send("Page.navigate", self.session, url=url)

    def evaluate(self, expression: str) -> Any:
        result = self.tools.send(
            "Runtime.evaluate",
            self.session,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 20) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.evaluate(expression):
                return
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression}")

    def admin_login(self, base_url: str, next_path: str, username: str, password: str) -> None:
        """Fill in and submit the admin's real login form; the admin redirects to ``next``."""
        self.navigate(f"{base_url}/admin/login/?next={next_path}")
        self.wait_for("!!document.querySelector('#id_username')")
        self.evaluate(
            f"document.querySelector('#id_username').value = {json.dumps(username)};"
            f"document.querySelector('#id_password').value = {json.dumps(password)};"
            "document.querySelector('#login-form').submit(); true"
        )

    def press(self, key: str) -> None:
        """A key pressed and released, as the keyboard sends it."""
        code, virtual = KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.tools.send(
                "Input.dispatchKeyEvent",
                self.session,
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=virtual,
            )

    def rect(self, selector: str) -> dict[str, float]:
        """The element's box in CSS pixels of the document (what a screenshot's clip takes)."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; const r = e.getBoundingClientRect();"
            " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height};"
            " })()"
        )
        assert box is not None, f"no element {selector}"
        return dict(box)

    def click(self, selector: str) -> None:
        """A left click in the middle of the element, as the mouse sends it."""
        middle = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        assert middle is not None, f"no element {selector}"
        for kind in ("mousePressed", "mouseReleased"):
            self.tools.send(
                "Input.dispatchMouseEvent",
                self.session,
                type=kind,
                x=middle[0],
                y=middle[1],
                button="left",
                clickCount=1,
            )

    def screenshot(self, clip: dict[str, float] | None = None) -> bytes:
        """A PNG of the viewport, or of ``clip`` (a box in CSS pixels of the viewport)."""
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            params["clip"] = {**clip, "scale": 1}
        return base64.b64decode(
            self.tools.send("Page.captureScreenshot", self.session, **params)["data"]
        )


@dataclass(frozen=True)
class Pixels:
    """A decoded PNG: ``rows[y][x]`` is the (red, green, blue) of a pixel."""

    width: int
    height: int
    rows: list[list[tuple[int, int, int]]]


def png_pixels(data: bytes) -> Pixels:
    """Decode a PNG (8-bit RGB or RGBA, non-interlaced, any row filter), as Chromium writes."""
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
    rows = []
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
        rows.append([(line[x], line[x + 1], line[x + 2]) for x in range(0, stride, bpp)])
        previous = line
    return Pixels(width, height, rows)


def png_colours(data: bytes) -> int:
    """How many distinct pixel values a PNG holds (every seventh pixel of each row)."""
    pixels = png_pixels(data)
    return len({pixel for row in pixels.rows for pixel in row[::7]})
