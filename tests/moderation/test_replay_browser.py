"""The replay viewer in a real browser: headless Chromium logs in as a moderator, opens a round,
steps with the keyboard and the buttons, and the page must show exactly the cards of each
frame the server built (games/admin/replay.py); then a screenshot of the trick is held to the
round's data by colour: a red face where a heart or a diamond lies, a black one for a spade or
a club, nothing on an empty place.

``REPLAY_SCREENSHOT=PATH`` keeps a copy of the whole viewer as the test leaves it (the
README's picture is one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from games.admin.replay import round_replay
from games.models import Match, Round
from tests.support.browser import DevTools, Page, png_pixels
from tests.support.replay import Table, analysis_make, is_red, replay_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "moderator password 1"

# What the page shows of the frame it is on, read from its elements only.
SHOWN = """(() => {
  const cards = (root) => [...root.querySelectorAll('[data-card]')].map(e => e.dataset.card);
  const slots = [...document.querySelectorAll('[data-trick-seat]')];
  return {
    step: Number(document.getElementById('replay').dataset.step),
    label: document.getElementById('replay-step').textContent,
    hands: [0, 1, 2, 3].map(s => cards(document.querySelector(`[data-hand="${s}"]`))),
    trick: Object.fromEntries(slots.map(e => [e.dataset.trickSeat, cards(e)])),
    lead: slots.filter(e => e.classList.contains('replay-lead')).map(e => +e.dataset.trickSeat),
    won: slots.filter(e => e.classList.contains('replay-winner')).map(e => +e.dataset.trickSeat),
    stock: cards(document.getElementById('replay-stock')),
    tricks: [...document.querySelectorAll('#replay-tricks li')].map(e => +e.dataset.winner),
    move: document.getElementById('replay-move').textContent,
    decision: document.getElementById('replay-decision').textContent,
    next: document.getElementById('replay-next').disabled,
  };
})()"""


def expected(frame: dict[str, Any], last: int) -> dict[str, Any]:
    """What the page must show of ``frame``, from the server's data alone."""
    trick = frame["trick"]
    on_table = {str(c["seat"]): [c["card"]] for c in trick["cards"]}
    return {
        "step": frame["step"],
        "label": f"Step {frame['step']} / {last}",
        "hands": frame["hands"],
        "trick": {str(seat): on_table.get(str(seat), []) for seat in range(4)},
        "lead": [] if trick["leader"] is None else [trick["leader"]],
        "won": [] if trick["winner"] is None else [trick["winner"]],
        "stock": [frame["face_up"], *frame["stock"]] if frame["face_up"] else [],
        "tricks": [t["winner"] for t in frame["tricks"]],
        "move": "The deal" if frame["step"] == 0 else f"Seat {frame['seat']}: {frame['move']}",
        "decision": f"{frame['decision']['loss']:.3f}" if frame["decision"] else "-",
        "next": frame["step"] == last,
    }


def assert_shows(page: Page, frame: dict[str, Any], last: int) -> None:
    shown = page.evaluate(SHOWN)
    wanted = expected(frame, last)
    # The decision's line goes on with the best move; its loss opens it.
    shown["decision"] = shown["decision"].split(" ")[0]
    assert shown == wanted, frame["step"]


def faces_by_colour(page: Page) -> dict[int, tuple[int, int]]:
    """(red pixels, near-black pixels) in each seat's place of the trick, counted in one
    screenshot of the trick area."""
    area = page.rect("#replay-trick")
    pixels = png_pixels(page.screenshot(clip=area))
    counts = {}
    for seat in range(4):
        box = page.rect(f'[data-trick-seat="{seat}"] .replay-face')
        left, top = round(box["x"] - area["x"]), round(box["y"] - area["y"])
        red = dark = 0
        for row in pixels.rows[top : top + round(box["height"])]:
            for r, g, b in row[left : left + round(box["width"])]:
                red += r > 150 and g < 100 and b < 100
                dark += max(r, g, b) < 80
        counts[seat] = (red, dark)
    return counts


def assert_trick_colours(page: Page, frame: dict[str, Any]) -> None:
    """Each place of the trick drawn in the colour of the card the frame puts there."""
    on_table = {c["seat"]: c["card"] for c in frame["trick"]["cards"]}
    counts = faces_by_colour(page)
    for seat, (red, dark) in counts.items():
        card = on_table.get(seat)
        if card is None:
            assert red < 5 and dark < 5, (seat, red, dark)
        elif is_red(card):
            assert red > 100 and dark < 5, (seat, card, red, dark)
        else:
            assert dark > 100 and red < 5, (seat, card, red, dark)
    faces = [("red" if red > 100 else "black") for red, dark in counts.values() if red + dark > 100]
    assert sorted(faces) == sorted("red" if is_red(c) else "black" for c in on_table.values())


def test_a_moderator_steps_through_a_round_and_sees_each_frame(
    live_server: Any,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    moderator: Any,
    tmp_path: Path,
) -> None:
    match: Match = replay_match(table, monkeypatch)
    analysis_make(match)
    frames = round_replay(match, Round.objects.get(match=match, number=1))["frames"]
    last = len(frames) - 1
    # A step whose trick lies half played with both colours in it, for the screenshot.
    mixed = next(
        f["step"]
        for f in frames
        if not f["trick"]["closed"]
        and len(f["trick"]["cards"]) in (2, 3)
        and len({is_red(c["card"]) for c in f["trick"]["cards"]}) == 2
    )
    closed = next(f["step"] for f in frames if f["step"] > mixed and f["trick"]["closed"])
    moderator.user.set_password(PASSWORD)
    moderator.user.save()
    path = f"/admin/games/match/{match.pk}/rounds/1/replay/"

    tools = DevTools(tmp_path / "profile")
    try:
        page = tools.open_page()
        page.admin_login(live_server.url, path, "mod", PASSWORD)
        page.wait_for("document.getElementById('replay-step')?.textContent.startsWith('Step')")
        assert page.evaluate("location.pathname") == path
        # The page's frames are the builder's, and it opens on the deal.
        assert (
            page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")[
                "frames"
            ]
            == frames
        )
        assert_shows(page, frames[0], last)

        for _ in range(mixed):
            page.press("ArrowRight")
        assert_shows(page, frames[mixed], last)
        assert_trick_colours(page, frames[mixed])

        for _ in range(closed - mixed):
            page.click("#replay-next")
        assert_shows(page, frames[closed], last)
        assert_trick_colours(page, frames[closed])
        page.press("ArrowLeft")
        assert_shows(page, frames[closed - 1], last)
        page.click("#replay-prev")
        assert_shows(page, frames[closed - 2], last)

        page.press("End")
        assert_shows(page, frames[last], last)
        page.press("ArrowRight")  # nothing after the last step
        assert_shows(page, frames[last], last)
        page.click("#replay-first")
        assert_shows(page, frames[0], last)
        page.click("#replay-last")
        assert_shows(page, frames[last], last)
        assert_trick_colours(page, frames[last])
        page.press("Home")
        assert_shows(page, frames[0], last)

        # A step's address opens the viewer on it.
        page.navigate(f"{live_server.url}{path}#step={mixed}")
        page.evaluate("location.reload(); true")
        page.wait_for(f"document.getElementById('replay')?.dataset.step === '{mixed}'")
        assert_shows(page, frames[mixed], last)
        if os.environ.get("REPLAY_SCREENSHOT"):  # keep a picture of the viewer
            viewer = page.rect("#replay")
            Path(os.environ["REPLAY_SCREENSHOT"]).write_bytes(page.screenshot(clip=viewer))
    finally:
        tools.close()
