"""`"ruleset": "saudi"` records (rules-saudi.md S1, S2, S.9): the new actions, output fields and
error codes in the record format's precedence, and a golden saudi match replayed byte for
byte by ``python -m games.engine replay``."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import SAUDI, record
from games.engine import __main__ as cli
from games.engine.cards import card_str
from games.engine.record import replay
from games.engine.selfplay import play_match, random_choose
from tests.engine.helpers import deck_for
from tests.engine.saudi.common import HOKUM_BIDDING, HOKUM_HANDS

GOLDEN = Path(__file__).parent / "golden"


def hokum_record(ruleset: str, *extra: dict[str, Any]) -> dict[str, Any]:
    """The shared Hokum deal (common.py) as a one-round record: the bidding, then ``extra``."""
    deck = deck_for(HOKUM_HANDS, recipient=2, face_up="8S")
    actions: list[dict[str, Any]] = []
    for item in HOKUM_BIDDING.split(", "):
        seat, call = item.split()
        actions.append({"seat": int(seat), "type": "bid", "call": call})
    return {
        "format": "baloot-record/1",
        "ruleset": ruleset,
        "rounds": [{"deck": [card_str(x) for x in deck], "actions": [*actions, *extra]}],
    }


def test_S1_golden_saudi_match_replays_to_the_same_bytes() -> None:
    """S1, S25: seed 5 of the random bots (dealer 2, to 60, with Sawa calls valid and false)
    replays to the stored output; the export is the stored record."""
    out = io.StringIO()
    assert cli.main(["replay", str(GOLDEN / "match.json")], out=out) == 0
    assert out.getvalue() == (GOLDEN / "match.replay.json").read_text()
    state = play_match(random.Random(5), [random_choose] * 4, ruleset=SAUDI, dealer=2, target=60)
    salts = {0: "golden-salt-0", 1: "golden-salt-1"}
    text = json.dumps(record.export_match(state, salts=salts), indent=1) + "\n"
    assert text == (GOLDEN / "match.json").read_text()
    assert '"type": "sawa"' in text


def test_S11_closed_double_in_a_record_and_its_legal_items() -> None:
    """S10, S11: a closed double replays as locked; next.legal lists both Double items."""
    out, status = replay(hokum_record("saudi"))
    assert status == 0
    assert out["next"]["legal"] == [
        {"type": "double", "call": "pass"},
        {"type": "double", "call": "double", "locked": False},
        {"type": "double", "call": "double", "locked": True},
    ]
    closed = hokum_record(
        "saudi",
        {"seat": 3, "type": "double", "call": "double", "locked": True},
        {"seat": 2, "type": "double", "call": "pass"},
    )
    out, status = replay(closed)
    assert status == 0
    contract = out["rounds"][0]["contract"]
    assert contract["multiplier"] == 2 and contract["locked"] is True
    assert out["next"]["seat"] == 1  # S4


@pytest.mark.parametrize(
    ("ruleset", "extra", "code", "status"),
    [
        # S11: `locked` must be a boolean in saudi...
        ("saudi", [{"seat": 3, "type": "double", "call": "double", "locked": 1}], "malformed", 3),
        # ...and is an ignored key in gamerules (S2).
        ("gamerules", [{"seat": 3, "type": "double", "call": "double", "locked": 1}], None, 0),
        # S20: sawa is an unknown action type in gamerules, checked before the turn.
        ("gamerules", [{"seat": 0, "type": "sawa"}], "malformed", 3),
        # S20: a sawa while doubling: the seat to act gets illegal_call, another not_your_turn.
        ("saudi", [{"seat": 3, "type": "sawa"}], "illegal_call", 3),
        ("saudi", [{"seat": 0, "type": "sawa"}], "not_your_turn", 3),
    ],
)
def test_S9_record_deltas_and_their_precedence(
    ruleset: str, extra: list[dict[str, Any]], code: str | None, status: int
) -> None:
    """S.9: the record deltas, each refused with its code at its action's index."""
    rec = hokum_record(ruleset, *extra)
    out, got = replay(rec)
    assert got == status
    if code is None:
        assert out["error"] is None
    else:
        assert out["error"]["code"] == code
        assert out["error"]["action"] == len(rec["rounds"][0]["actions"]) - 1


def test_S7_must_trump_and_must_overtrump_in_a_record() -> None:
    """S.3 codes through the replay: 1 leads QH, seat 2 discards AD (must_trump); after 9S,
    seat 3 under-trumps are required, KD is must_trump. The state before each is in `next`."""
    opening = (
        {"seat": 3, "type": "double", "call": "pass"},
        {"seat": 1, "type": "double", "call": "pass"},
        {"seat": 1, "type": "play", "card": "QH"},
    )
    out, status = replay(hokum_record("saudi", *opening, {"seat": 2, "type": "play", "card": "AD"}))
    assert status == 3 and out["error"]["code"] == "must_trump"
    assert out["next"]["seat"] == 2
    assert out["next"]["legal"] == [
        {"type": "play", "card": "9S"},
        {"type": "play", "card": "8S"},
        {"type": "play", "card": "7S"},
    ]
    assert "sawa" not in json.dumps(out["next"]["legal"])
    rec = hokum_record(
        "saudi",
        *opening,
        {"seat": 2, "type": "play", "card": "9S"},
        {"seat": 3, "type": "play", "card": "KD"},
    )
    out, status = replay(rec)
    assert status == 3 and out["error"]["code"] == "must_trump"


def test_S2_gamerules_record_of_the_same_deal_has_no_saudi_keys() -> None:
    """S2: the same actions under gamerules: the declarer leads, discards are free, and no
    `sawa` key or `locked` item appears."""
    rec = hokum_record(
        "gamerules",
        {"seat": 3, "type": "double", "call": "pass"},
        {"seat": 1, "type": "double", "call": "pass"},
    )
    out, status = replay(rec)
    assert status == 0 and out["next"]["seat"] == 2
    text = json.dumps(out)
    assert '"sawa"' not in text and '"locked": true' not in text
