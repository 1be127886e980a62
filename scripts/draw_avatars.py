"""Draws the built-in avatar catalog that ``accounts/static/avatars/`` serves.

    .venv/bin/python scripts/draw_avatars.py

The pictures are committed PNGs (``accounts/avatars/catalog.py`` names them); this script is
their source. Run it again after changing a design and commit the files it rewrites. Each one
is a round coloured badge with an emblem, drawn with Pillow's primitives only (no fonts, no
outside assets) at four times the size and scaled down with LANCZOS, then written as a
256x256 RGB PNG. Nothing in it is random and the files carry no metadata, so the same Pillow
writes the same bytes every run.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "accounts" / "static" / "avatars"

SIZE = 256
SCALE = 4
CANVAS = SIZE * SCALE
MID = CANVAS / 2
# The badge's circle leaves this margin of the square's tint around it.
MARGIN = 28
# How far (in levels of any channel) a pixel may be from a flat colour and still be set to it.
RIPPLE = 4

RGB = tuple[int, int, int]
Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, RGB], None]

WHITE: RGB = (255, 255, 255)
GOLD: RGB = (255, 204, 51)


def tint(color: RGB, amount: float) -> RGB:
    """``color`` mixed with white: 0 is the colour, 1 is white."""
    r, g, b = (round(c + (255 - c) * amount) for c in color)
    return (r, g, b)


def shade(color: RGB, amount: float) -> RGB:
    """``color`` mixed with black: 0 is the colour, 1 is black."""
    r, g, b = (round(c * (1 - amount)) for c in color)
    return (r, g, b)


def circle(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: RGB) -> None:
    x, y = center
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)


def fit(points: Sequence[Point], center: Point, width: float) -> list[Point]:
    """``points`` scaled to ``width`` and moved so that their bounding box is centred."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    k = width / (max(xs) - min(xs))
    dx = center[0] - (max(xs) + min(xs)) / 2 * k
    dy = center[1] - (max(ys) + min(ys)) / 2 * k
    return [(x * k + dx, y * k + dy) for x, y in points]


def bezier(p0: Point, p1: Point, p2: Point, steps: int = 48) -> list[Point]:
    """The points of a quadratic Bezier curve from ``p0`` to ``p2``."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t**2
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def heart_points(steps: int = 360) -> list[Point]:
    """The classic heart curve, point down, in its own units."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x, -y))
    return points


def stem(draw: ImageDraw.ImageDraw, top: Point, bottom: float, half: float, fill: RGB) -> None:
    """A playing-card suit's stem: narrow at ``top``, flaring with curved sides to ``bottom``."""
    x, y = top
    left = bezier((x - half * 0.12, y), (x - half * 0.1, bottom - 20), (x - half, bottom))
    right = bezier((x + half, bottom), (x + half * 0.1, bottom - 20), (x + half * 0.12, y))
    draw.polygon(left + right, fill=fill)


# --- the designs: each paints its emblem on the badge, given the circle's colour -----------


def spade(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    leaf = [(x, -y) for x, y in heart_points()]
    draw.polygon(fit(leaf, (MID, MID - 50), 500), fill=WHITE)
    stem(draw, (MID, MID + 60), MID + 300, 95, WHITE)


def heart(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    draw.polygon(fit(heart_points(), (MID, MID + 10), 560), fill=WHITE)


def diamond(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    top, right, bottom, left = (MID, 190), (MID + 235, MID), (MID, CANVAS - 190), (MID - 235, MID)
    # Sides bowed in a little, as on the cards.
    inset = 22
    points = (
        bezier(top, (MID + 117 - inset, 351 + inset), right)
        + bezier(right, (MID + 117 - inset, CANVAS - 351 - inset), bottom)
        + bezier(bottom, (MID - 117 + inset, CANVAS - 351 - inset), left)
        + bezier(left, (MID - 117 + inset, 351 + inset), top)
    )
    draw.polygon(points, fill=WHITE)


def club(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    r = 128
    circle(draw, (MID, MID - 150), r, WHITE)
    circle(draw, (MID - 135, MID + 55), r, WHITE)
    circle(draw, (MID + 135, MID + 55), r, WHITE)
    circle(draw, (MID, MID), 80, WHITE)
    stem(draw, (MID, MID + 20), MID + 300, 95, WHITE)


def crescent(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    circle(draw, (MID - 20, MID), 320, WHITE)
    circle(draw, (MID + 120, MID - 80), 275, bg)


def star(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    outer, inner = 340, 340 * 0.382
    points = []
    for i in range(10):
        angle = math.radians(-90 + 36 * i)
        radius = outer if i % 2 == 0 else inner
        points.append((math.cos(angle) * radius, math.sin(angle) * radius))
    draw.polygon(fit(points, (MID, MID + 10), 2 * outer * math.cos(math.radians(18))), fill=GOLD)


def frond(
    draw: ImageDraw.ImageDraw, base: Point, angle: float, length: float, droop: float, fill: RGB
) -> None:
    """A palm frond: a pointed leaf along a curve that leaves ``base`` at ``angle`` (degrees,
    0 to the right, -90 up) and bends down by ``droop`` at its tip."""
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    ctrl = (base[0] + dx * length * 0.6, base[1] + dy * length * 0.6)
    tip = (base[0] + dx * length, base[1] + dy * length + droop)
    spine = bezier(base, ctrl, tip, steps=40)
    upper: list[Point] = []
    lower: list[Point] = []
    last = len(spine) - 1
    for i, (x, y) in enumerate(spine):
        (ax, ay), (bx, by) = spine[max(i - 1, 0)], spine[min(i + 1, last)]
        norm = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / norm, (bx - ax) / norm
        w = 0.16 * length * math.sin(math.pi * (i / last) ** 0.75)
        upper.append((x + nx * w, y + ny * w))
        lower.append((x - nx * w, y - ny * w))
    draw.polygon(upper + lower[::-1], fill=fill)


def palm(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    bark, dark, leaf, dates = (120, 74, 34), (88, 52, 22), (34, 98, 46), (128, 46, 22)
    draw.ellipse((MID - 220, MID + 290, MID + 220, MID + 370), fill=shade(bg, 0.22))
    # Trunk: stacked trapezoids, each wider at its top, leaning a little.
    crown = (MID + 20, MID - 150)
    segments = 8
    y0, y1 = MID + 330, crown[1] + 30
    for i in range(segments):
        ya = y0 - (y0 - y1) * i / segments
        yb = y0 - (y0 - y1) * (i + 1) / segments - 8
        xa = MID - 30 + 50 * (i / segments) ** 2
        xb = MID - 30 + 50 * ((i + 1) / segments) ** 2
        wa = 44 - 14 * i / segments
        wb = wa + 16
        fill = bark if i % 2 else dark
        draw.polygon([(xa - wa, ya), (xa + wa, ya), (xb + wb, yb), (xb - wb, yb)], fill=fill)
    # Two bunches of dates under the crown.
    for side in (-1, 1):
        for bx, by in [(45, 45), (75, 50), (58, 75), (88, 80), (70, 105)]:
            circle(draw, (crown[0] + side * bx, crown[1] + by), 20, dates)
    # Fronds: (angle, length, droop).
    for angle, length, droop in [
        (-170, 330, 190),
        (-135, 300, 80),
        (-98, 230, 20),
        (-58, 300, 80),
        (-12, 330, 190),
    ]:
        frond(draw, crown, angle, length, droop, leaf)
    circle(draw, crown, 36, leaf)


def dallah(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
    brass = (246, 212, 138)
    cx = MID + 40
    # The body's right half, from the rim down to the foot: a neck widening to the waist, a
    # round belly, a foot.
    half = [
        (82, 392),
        (62, 420),
        *bezier((62, 420), (70, 560), (100, 604), 24),
        (90, 622),
        *bezier((90, 622), (200, 640), (188, 730), 24),
        *bezier((188, 730), (180, 790), (120, 806), 24),
        (112, 814),
        (140, 832),
    ]
    body = [(cx + x, y) for x, y in half] + [(cx - x, y) for x, y in reversed(half)]
    draw.polygon(body, fill=brass)
    # Spout: a long beak out of the neck, rising to the left.
    tip = (cx - 300, 330)
    spout = bezier((cx - 55, 470), (cx - 190, 480), tip) + bezier(
        tip, (cx - 180, 590), (cx - 70, 600)
    )
    draw.polygon(spout, fill=brass)
    # Handle on the other side, from under the lid to the belly.
    handle = bezier((cx + 50, 440), (cx + 310, 440), (cx + 120, 660))
    draw.line(handle, fill=brass, width=34, joint="curve")
    circle(draw, handle[-1], 17, brass)
    # Lid: a ring, a pointed dome and the finial.
    draw.rectangle((cx - 96, 366, cx + 96, 392), fill=brass)
    dome = bezier((cx - 82, 370), (cx - 80, 280), (cx, 250)) + bezier(
        (cx, 250), (cx + 80, 280), (cx + 82, 370)
    )
    draw.polygon(dome, fill=brass)
    circle(draw, (cx, 232), 24, brass)
    draw.polygon([(cx - 11, 220), (cx, 166), (cx + 11, 220)], fill=brass)
    # Engraved lines: under the lid, the waist, the foot.
    for y, w in [(396, 100), (613, 100), (810, 130)]:
        draw.line([(cx - w, y), (cx + w, y)], fill=bg, width=10)


def robot(level: int) -> Painter:
    """A robot's face with ``level`` bars on its forehead."""

    def paint(draw: ImageDraw.ImageDraw, bg: RGB) -> None:
        face = (240, 243, 246)
        # Antenna.
        draw.line([(MID, 380), (MID, 250)], fill=face, width=26)
        circle(draw, (MID, 236), 40, face)
        # Ears and head.
        draw.rounded_rectangle((250, 500, 310, 660), radius=20, fill=face)
        draw.rounded_rectangle((CANVAS - 310, 500, CANVAS - 250, 660), radius=20, fill=face)
        draw.rounded_rectangle((290, 360, CANVAS - 290, 780), radius=80, fill=face)
        # Level bars.
        bar, gap = 34, 26
        total = level * bar + (level - 1) * gap
        for i in range(level):
            x = MID - total / 2 + i * (bar + gap)
            draw.rounded_rectangle((x, 410, x + bar, 470), radius=10, fill=bg)
        # Eyes, with a glint.
        for ex in (MID - 100, MID + 100):
            circle(draw, (ex, 560), 58, bg)
            circle(draw, (ex + 18, 542), 16, face)
        # Mouth: a grille.
        draw.rounded_rectangle((MID - 120, 665, MID + 120, 725), radius=20, fill=bg)
        for mx in (MID - 60, MID, MID + 60):
            draw.line([(mx, 668), (mx, 722)], fill=face, width=12)

    return paint


# id: (the circle's colour, the emblem's painter).
DESIGNS: dict[str, tuple[RGB, Painter]] = {
    "spade": ((24, 36, 84), spade),
    "heart": ((196, 20, 52), heart),
    "diamond": ((232, 84, 36), diamond),
    "club": ((22, 100, 56), club),
    "crescent": ((80, 36, 128), crescent),
    "star": ((0, 96, 100), star),
    "palm": ((206, 152, 64), palm),
    "dallah": ((104, 64, 38), dallah),
    "bot-easy": ((112, 122, 132), robot(1)),
    "bot-normal": ((36, 96, 196), robot(2)),
    "bot-hard": ((146, 26, 38), robot(3)),
}


def render(color: RGB, painter: Painter) -> Image.Image:
    """One avatar: drawn at ``SCALE`` times the size, then scaled down for smooth edges."""
    image = Image.new("RGB", (CANVAS, CANVAS), tint(color, 0.72))
    draw = ImageDraw.Draw(image)
    draw.ellipse((MARGIN, MARGIN, CANVAS - MARGIN, CANVAS - MARGIN), fill=color)
    painter(draw, color)
    return settle(image.resize((SIZE, SIZE), Image.Resampling.LANCZOS))


def settle(image: Image.Image) -> Image.Image:
    """``image`` with the faint ripples LANCZOS leaves beside every edge (a few levels off the
    flat colour around them) set back to that colour: the eye cannot see them, and they cost
    about a fifth of the file."""
    raw = image.tobytes()
    pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
    counts = Counter(pixels)
    # The flat colours: the background's, the badge's, the emblem's.
    flats = [color for color, count in counts.items() if count >= len(pixels) // 256]

    def nearest(pixel: bytes) -> bytes:
        flat = min(flats, key=lambda f: max(abs(a - b) for a, b in zip(pixel, f, strict=True)))
        off = max(abs(a - b) for a, b in zip(pixel, flat, strict=True))
        return flat if off <= RIPPLE else pixel

    table = {color: nearest(color) for color in counts}
    return Image.frombytes("RGB", image.size, b"".join(table[p] for p in pixels))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for avatar_id, (color, painter) in DESIGNS.items():
        path = OUT / f"{avatar_id}.png"
        render(color, painter).save(path, format="PNG", optimize=True)
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
