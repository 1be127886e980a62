"""One real-browser check: headless Chromium logs in through the admin login form as a
moderator, opens a match page with its move log, and saves a screenshot.

Chromium is driven over the DevTools protocol (tests/support/browser.py), which needs no extra
Python package; the replay viewer's check is in test_replay_browser.py.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, DevTools, png_colours

pytestmark = pytest.mark.browser


def test_chromium_is_installed() -> None:
    # `make test` installs it; a missing browser must fail the suite, not skip the check.
    assert CHROMIUM.exists(), "install Debian's chromium (make system-deps)"


@pytest.mark.slow
def test_a_moderator_sees_a_match_and_its_move_log_in_chromium(
    live_server: Any, played: Any, moderator: Any, tmp_path: Path
) -> None:
    match, _ = played
    moderator.user.set_password("moderator password 1")
    moderator.user.save()
    path = f"/admin/games/match/{match.pk}/change/"
    shot = tmp_path / "match-page.png"

    tools = DevTools(tmp_path / "profile")
    try:
        page = tools.open_page()
        page.admin_login(live_server.url, path, "mod", "moderator password 1")
        page.wait_for("!!document.querySelector('#move-log')")
        assert page.evaluate("location.href") == f"{live_server.url}{path}"
        text = page.evaluate("document.body.innerText")
        assert "Move log and full deal" in text and "Score sheet" in text
        assert "download record" in text
        page.evaluate("document.querySelector('#move-log').scrollIntoView(); true")
        shot.write_bytes(page.screenshot())
    finally:
        tools.close()

    assert shot.exists()
    assert shot.stat().st_size > 10_000
    assert png_colours(shot.read_bytes()) > 10  # not blank: text, tables, the admin header
    if os.environ.get("MODERATION_SCREENSHOT"):  # keep a copy to look at
        Path(os.environ["MODERATION_SCREENSHOT"]).write_bytes(shot.read_bytes())
