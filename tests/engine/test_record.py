"""The ``baloot-record/1`` replay and its command line (record-format.md), with the E99 round of
rules.md 6.11 as the golden record."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import deck_commitment
from games.engine.record import (
    export_match,
    export_round,
    replay,
    replay_state,
    replay_text,
    state_from_record,
)

REPO = Path(__file__).resolve().parents[2]

# --- Building records ----------------------------------------------------------------------


def deal_deck(hands: dict[int, str], *, dealer: int, recipient: int, face_up: str) -> list[str]:
    """The deck D[0..31] that deals these final hands (R8, R9): of each seat's cards (the
    face-up card set aside) the first five are dealt first, the rest come from the stock."""
    order = [(dealer + i) % 4 for i in range(1, 5)]
    deck: list[str | None] = [None] * 32
    deck[20] = face_up
    stock = 21
    for i, seat in enumerate(order):
        cards = [c for c in hands[seat].split() if c != face_up]
        first, rest = cards[:5], cards[5:]
        deck[3 * i : 3 * i + 3] = first[:3]
        deck[12 + 2 * i : 14 + 2 * i] = first[3:]
        deck[stock : stock + len(rest)] = rest
        stock += len(rest)
    assert None not in deck and len(set(deck)) == 32
    return [c for c in deck if c is not None]


def bid(seat: int, call: str, suit: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"seat": seat, "type": "bid", "call": call}
    if suit is not None:
        action["suit"] = suit
    return action


def dbl(seat: int, call: str) -> dict[str, Any]:
    return {"seat": seat, "type": "double", "call": call}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def declare(seat: int, *projects: tuple[str, str]) -> dict[str, Any]:
    return {
        "seat": seat,
        "type": "declare",
        "projects": [{"kind": kind, "cards": cards.split()} for kind, cards in projects],
    }


def plays(*tricks: str) -> list[dict[str, Any]]:
    """Tricks as ``"s2 9H, s3 8S, ..."``, the notation of rules.md 6.11."""
    out = []
    for trick in tricks:
        for item in trick.split(","):
            seat, card = item.split()
            out.append(play(int(seat[1:]), card))
    return out


def record(*rounds: dict[str, Any], **header: Any) -> dict[str, Any]:
    return {"format": "baloot-record/1", **header, "rounds": list(rounds)}


# --- E99 (rules.md 6.11) -------------------------------------------------------------------

E99_HANDS = {
    0: "JH AH 10S 9S KD QD 8C 7C",
    1: "8H 10H QS JS AD 9D AC 10C",
    2: "KH QH 9H 7H AS KS 8D JC",
    3: "8S 7S 10D JD 7D KC QC 9C",
}
E99_DECK = deal_deck(E99_HANDS, dealer=0, recipient=2, face_up="KH")
E99_BIDS = [bid(1, "pass"), bid(2, "hokum"), bid(3, "pass"), bid(0, "pass"), bid(1, "pass")]
E99_BIDS.append(bid(2, "hokum"))
E99_TRICKS = [
    "s2 9H, s3 8S, s0 JH, s1 8H",
    "s0 AH, s1 10H, s2 7H, s3 7S",
    "s0 10S, s1 JS, s2 AS, s3 7D",
    "s2 KH, s3 9C, s0 9S, s1 9D",
    "s2 KS, s3 JD, s0 8C, s1 QS",
    "s2 QH, s3 QC, s0 7C, s1 10C",
    "s2 JC, s3 KC, s0 QD, s1 AC",
    "s1 AD, s2 8D, s3 10D, s0 KD",
]
E99_PLAYS = plays(*E99_TRICKS)


def e99_round(doubles: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    doubles = [dbl(3, "pass"), dbl(1, "pass")] if doubles is None else doubles
    return {"deck": E99_DECK, "actions": E99_BIDS + doubles + E99_PLAYS, **extra}


def e99_prefix(n: int) -> dict[str, Any]:
    """E99's round with only its first ``n`` actions (a round in progress)."""
    full = e99_round()
    return {"deck": E99_DECK, "actions": full["actions"][:n]}


E99_CONTRACT = {
    "kind": "hokum",
    "mode": "hokum",
    "trump": "H",
    "declarer": 2,
    "recipient": 2,
    "bidding_round": 1,
    "multiplier": 1,
    "gahwa": False,
    "locked": False,
}


def _tricks(*rows: tuple[int, str, int, int]) -> list[dict[str, Any]]:
    return [
        {"leader": leader, "cards": cards.split(), "winner": winner, "abnat": abnat}
        for leader, cards, winner, abnat in rows
    ]


E99_EXPECTED_ROUND: dict[str, Any] = {
    "dealer": 0,
    "face_up": "KH",
    "status": "complete",
    "contract": E99_CONTRACT,
    "tricks": _tricks(
        (2, "9H 8S JH 8H", 0, 34),
        (0, "AH 10H 7H 7S", 0, 21),
        (0, "10S JS AS 7D", 2, 23),
        (2, "KH 9C 9S 9D", 2, 4),
        (2, "KS JD 8C QS", 2, 9),
        (2, "QH QC 7C 10C", 2, 16),
        (2, "JC KC QD AC", 1, 20),
        (1, "AD 8D 10D KD", 1, 35),
    ),
    "result": {
        "abnat": [107, 55],
        "card_points": [11, 5],
        "projects": {"declared": [], "awarded_team": None, "points": [0, 0]},
        "baloot": [2],
        "kaboot": None,
        "bidder_team": 0,
        "bidder_failed": False,
        "points": [13, 5],
        "gahwa_winner": None,
    },
}


def test_e99_golden_record() -> None:
    out, status = replay(record(e99_round()))
    assert status == 0
    assert out == {
        "rounds": [E99_EXPECTED_ROUND],
        "scores": [13, 5],
        "finished": False,
        "winner": None,
        "next": None,
        "error": None,
    }


def test_e99_deck_deals_the_table_hands() -> None:
    # After the bids and the completion deal, the doubling phase shows the final hands.
    out, status = replay(record(e99_prefix(len(E99_BIDS))))
    assert status == 0
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7"]

    def key(card: str) -> tuple[int, int]:
        return "SHDC".index(card[-1]), ranks.index(card[:-1])

    hands = out["next"]["hands"]
    for seat, text in E99_HANDS.items():
        assert hands[seat] == sorted(text.split(), key=key)


def test_e99_at_x3_open() -> None:
    doubles = [dbl(3, "pass"), dbl(1, "double"), dbl(2, "triple"), dbl(1, "pass")]
    out, status = replay(record(e99_round(doubles)))
    assert status == 0
    rnd = out["rounds"][0]
    assert rnd["contract"] == {**E99_CONTRACT, "multiplier": 3, "locked": False}
    assert rnd["result"]["points"] == [50, 0]
    assert out["scores"] == [50, 0]


def test_e99_locked_at_x2_refuses_the_trump_lead() -> None:
    doubles = [dbl(3, "pass"), dbl(1, "double"), dbl(2, "pass")]
    out, status = replay(record(e99_round(doubles)))
    assert status == 3
    assert out["error"]["code"] == "locked_trump_lead"
    assert out["error"]["round"] == 0
    assert out["error"]["action"] == len(E99_BIDS) + 3
    rnd = out["rounds"][0]
    assert rnd["status"] == "in_progress"
    assert rnd["contract"] == {**E99_CONTRACT, "multiplier": 2, "locked": True}
    assert rnd["tricks"] == [] and rnd["result"] is None
    assert out["next"]["seat"] == 2 and out["next"]["phase"] == "playing"
    # R23: only the non-trump cards may be led.
    assert out["next"]["legal"] == [{"type": "play", "card": c} for c in ["AS", "KS", "8D", "JC"]]


# --- Defaults and header errors ------------------------------------------------------------


def test_defaults_equal_explicit_header() -> None:
    explicit = record(e99_round(), ruleset="gamerules", dealer=0, scores=[0, 0], target=152)
    assert replay(record(e99_round())) == replay(explicit)


def test_header_values_are_used() -> None:
    # Starting at 140-0 the E99 round (13-5) takes team A past 152 and ends the match.
    out, status = replay(record(e99_round(), scores=[140, 0]))
    assert status == 0
    assert out["scores"] == [153, 5]
    assert out["finished"] is True and out["winner"] == 0
    # A higher target keeps it going.
    out, _ = replay(record(e99_round(), scores=[140, 0], target=200))
    assert out["finished"] is False and out["winner"] is None


def test_dealer_moves_after_every_round_redeal_included() -> None:
    out, status = replay(record(redeal_round(dealer=3), e99_round(), dealer=3))
    assert status == 0
    assert [r["dealer"] for r in out["rounds"]] == [3, 0]


BAD_HEADERS: list[Any] = [
    [],
    "baloot",
    None,
    3,
    {"rounds": []},
    {"format": "baloot-record/2", "rounds": []},
    {"format": "baloot-record/1", "ruleset": "kammelna", "rounds": []},
    {"format": "baloot-record/1", "ruleset": 1, "rounds": []},
    {"format": "baloot-record/1", "dealer": 4, "rounds": []},
    {"format": "baloot-record/1", "dealer": -1, "rounds": []},
    {"format": "baloot-record/1", "dealer": "0", "rounds": []},
    {"format": "baloot-record/1", "dealer": True, "rounds": []},
    {"format": "baloot-record/1", "scores": [0], "rounds": []},
    {"format": "baloot-record/1", "scores": [0, "1"], "rounds": []},
    {"format": "baloot-record/1", "scores": [0, -1], "rounds": []},
    {"format": "baloot-record/1", "scores": [0, 1.5], "rounds": []},
    {"format": "baloot-record/1", "scores": {"a": 0}, "rounds": []},
    {"format": "baloot-record/1", "target": 0, "rounds": []},
    {"format": "baloot-record/1", "target": "152", "rounds": []},
    {"format": "baloot-record/1"},
    {"format": "baloot-record/1", "rounds": {}},
]


@pytest.mark.parametrize("bad", BAD_HEADERS)
def test_not_a_record(bad: Any) -> None:
    out, status = replay(bad)
    assert status == 2
    assert out["error"]["code"] == "malformed"
    assert out["error"]["round"] is None and out["error"]["action"] is None
    assert out["rounds"] == [] and out["next"] is None


def test_empty_rounds_is_a_record() -> None:
    out, status = replay(record(scores=[10, 20]))
    assert status == 0
    assert out == {
        "rounds": [],
        "scores": [10, 20],
        "finished": False,
        "winner": None,
        "next": None,
        "error": None,
    }


def test_not_json() -> None:
    out, status = replay_text("{not json")
    assert status == 2
    assert out["error"]["code"] == "malformed"


def _bad_round(kind: str) -> Any:
    deck = list(E99_DECK)
    if kind == "not_object":
        return ["deck"]
    if kind == "short_deck":
        return {"deck": deck[:31], "actions": []}
    if kind == "duplicate_card":
        return {"deck": [*deck[:31], deck[0]], "actions": []}
    if kind == "bad_card":
        return {"deck": ["1S", *deck[1:]], "actions": []}
    if kind == "lowercase_card":
        return {"deck": [deck[0].lower(), *deck[1:]], "actions": []}
    if kind == "deck_missing":
        return {"actions": []}
    if kind == "actions_missing":
        return {"deck": deck}
    if kind == "actions_object":
        return {"deck": deck, "actions": {}}
    assert kind == "salt_number"
    return {"deck": deck, "actions": [], "salt": 5, "commitment": "00"}


BAD_ROUNDS = [
    "not_object",
    "short_deck",
    "duplicate_card",
    "bad_card",
    "lowercase_card",
    "deck_missing",
    "actions_missing",
    "actions_object",
    "salt_number",
]


@pytest.mark.parametrize("kind", BAD_ROUNDS)
def test_bad_round_is_not_a_record(kind: str) -> None:
    # The first round replays; the second is not a round at all.
    out, status = replay(record(e99_round(), _bad_round(kind)))
    assert status == 2
    assert out["error"]["code"] == "malformed"
    assert out["error"]["round"] == 1 and out["error"]["action"] is None
    assert out["rounds"] == [E99_EXPECTED_ROUND]
    assert out["scores"] == [13, 5]


def test_round_after_a_round_in_progress() -> None:
    out, status = replay(record(e99_prefix(3), e99_round()))
    assert status == 2
    assert out["error"] == {
        "round": 1,
        "action": None,
        "code": "malformed",
        "message": out["error"]["message"],
    }
    assert [r["status"] for r in out["rounds"]] == ["in_progress"]
    assert out["next"]["seat"] == 0


def test_round_after_the_match_ended() -> None:
    out, status = replay(record(e99_round(), e99_round(), scores=[140, 0]))
    assert status == 2
    assert out["error"]["code"] == "malformed"
    assert out["error"]["round"] == 1 and out["error"]["action"] is None
    assert out["finished"] is True and out["winner"] == 0
    assert len(out["rounds"]) == 1


# --- Actions: malformed and illegal --------------------------------------------------------

BAD_ACTIONS: list[Any] = [
    "pass",
    {"type": "bid", "call": "pass"},
    {"seat": 4, "type": "bid", "call": "pass"},
    {"seat": True, "type": "bid", "call": "pass"},
    {"seat": "2", "type": "bid", "call": "pass"},
    {"seat": 2, "type": "fold"},
    {"seat": 2, "call": "pass"},
    {"seat": 2, "type": "bid", "call": "trump"},
    {"seat": 2, "type": "bid", "call": "hokum", "suit": "X"},
    {"seat": 2, "type": "double", "call": "quadruple"},
    {"seat": 2, "type": "play", "card": "1S"},
    {"seat": 2, "type": "play"},
    {"seat": 2, "type": "declare", "projects": "sira"},
    {"seat": 2, "type": "declare", "projects": [{"kind": "200", "cards": ["AS"]}]},
]


@pytest.mark.parametrize("bad", BAD_ACTIONS)
def test_malformed_action(bad: Any) -> None:
    rnd = {"deck": E99_DECK, "actions": [bid(1, "pass"), bad]}
    out, status = replay(record(rnd))
    assert status == 3
    assert out["error"]["code"] == "malformed"
    assert (out["error"]["round"], out["error"]["action"]) == (0, 1)
    assert out["rounds"][0]["status"] == "in_progress"
    assert out["next"]["seat"] == 2


def test_action_after_the_round_is_over() -> None:
    rnd = e99_round()
    rnd["actions"].append(bid(1, "pass"))
    out, status = replay(record(rnd))
    assert status == 3
    assert out["error"]["code"] == "malformed"
    assert (out["error"]["round"], out["error"]["action"]) == (0, len(rnd["actions"]) - 1)
    assert out["rounds"] == [E99_EXPECTED_ROUND]
    assert out["next"] is None and out["scores"] == [13, 5]


DOUBLING = len(E99_BIDS)
PLAYING = DOUBLING + 2

# (prefix length of E99's actions, refused action, code)
ILLEGAL: list[tuple[int, dict[str, Any], str]] = [
    (0, bid(2, "pass"), "not_your_turn"),
    (0, play(2, "9H"), "not_your_turn"),  # the turn is checked before anything else
    (0, play(1, "8H"), "illegal_call"),  # a play while bidding
    (0, bid(1, "ashkal"), "illegal_call"),  # R10: seat 1 is the dealer's right
    (0, bid(1, "pass", "S"), "illegal_call"),  # a suit only in the round-2 choice
    (0, dbl(1, "double"), "illegal_call"),
    (2, bid(3, "hokum"), "illegal_call"),  # R12: no second Hokum
    (DOUBLING, bid(3, "pass"), "illegal_call"),
    (DOUBLING, dbl(3, "triple"), "illegal_call"),
    (DOUBLING, dbl(0, "double"), "not_your_turn"),  # R21: the declarer's partner
    (DOUBLING + 1, dbl(1, "four"), "illegal_call"),
    (PLAYING, dbl(2, "double"), "illegal_call"),
    (PLAYING, play(2, "JH"), "card_not_held"),
    (PLAYING, play(3, "8S"), "not_your_turn"),
    (PLAYING + 2, play(0, "10S"), "must_follow_suit"),  # 9H led; seat 0 holds JH AH
    (PLAYING + 3, play(1, "AD"), "must_follow_suit"),
    (PLAYING + 4, play(0, "9H"), "card_not_held"),  # seat 2 played it in trick 1
    (0, declare(1, ("sira", "AD 9D 10C")), "invalid_project"),  # not while bidding
]


@pytest.mark.parametrize(("prefix", "action", "code"), ILLEGAL)
def test_illegal_action(prefix: int, action: dict[str, Any], code: str) -> None:
    rnd = e99_prefix(prefix)
    rnd["actions"].append(action)
    before, before_status = replay(record(e99_prefix(prefix)))
    out, status = replay(record(rnd))
    assert before_status == 0
    assert status == 3
    assert out["error"]["code"] == code, out["error"]
    assert (out["error"]["round"], out["error"]["action"]) == (0, prefix)
    # Everything before the refused action is replayed, nothing of it.
    assert out["rounds"] == before["rounds"]
    assert out["next"] == before["next"]


# --- Rounds in progress: next, contract, tricks --------------------------------------------


def redeal_round(dealer: int) -> dict[str, Any]:
    order = [(dealer + i) % 4 for i in range(1, 5)]
    return {"deck": E99_DECK, "actions": [bid(s, "pass") for s in order * 2]}


def test_redeal_round() -> None:
    out, status = replay(record(redeal_round(0), scores=[30, 40]))
    assert status == 0
    assert out["rounds"] == [
        {
            "dealer": 0,
            "face_up": "KH",
            "status": "redeal",
            "contract": None,
            "tricks": [],
            "result": {
                "abnat": [0, 0],
                "card_points": [0, 0],
                "projects": {"declared": [], "awarded_team": None, "points": [0, 0]},
                "baloot": [],
                "kaboot": None,
                "bidder_team": None,
                "bidder_failed": False,
                "points": [0, 0],
                "gahwa_winner": None,
            },
        }
    ]
    assert out["scores"] == [30, 40] and out["next"] is None


def legal_bids(*calls: str) -> list[dict[str, Any]]:
    out = []
    for call in calls:
        name, _, suit = call.partition(" ")
        out.append({"type": "bid", "call": name, **({"suit": suit} if suit else {})})
    return out


def test_next_while_bidding() -> None:
    out, status = replay(record(e99_prefix(0)))
    assert status == 0
    rnd = out["rounds"][0]
    assert rnd["status"] == "in_progress"
    assert rnd["contract"] is None and rnd["tricks"] == [] and rnd["result"] is None
    nxt = out["next"]
    assert (nxt["seat"], nxt["phase"]) == (1, "bidding")
    assert [len(h) for h in nxt["hands"]] == [5, 5, 5, 5]
    # Seat 1 bids first; its five are D0-D2, D12-D13, sorted S H D C, then A K Q J 10 9 8 7.
    assert nxt["hands"][1] == ["QS", "JS", "10H", "8H", "AD"]
    assert nxt["legal"] == legal_bids("pass", "hokum", "sun")
    assert out["finished"] is False and out["error"] is None


def test_next_offers_ashkal_to_the_dealers_left_answering_hokum() -> None:
    out, _ = replay(record(e99_prefix(2)))
    assert out["next"]["seat"] == 3
    assert out["next"]["legal"] == legal_bids("pass", "sun", "ashkal")


def round2_hokum(choice: dict[str, Any]) -> dict[str, Any]:
    passes = [bid(s, "pass") for s in (1, 2, 3, 0)]
    answers = [bid(2, "pass"), bid(3, "pass"), bid(0, "pass")]
    return {"deck": E99_DECK, "actions": [*passes, bid(1, "hokum"), *answers, choice]}


def test_round2_hokum_choice() -> None:
    rnd = round2_hokum(bid(1, "hokum", "S"))
    choosing = {"deck": E99_DECK, "actions": rnd["actions"][:-1]}
    out, _ = replay(record(choosing))
    assert out["next"]["seat"] == 1
    # R17: Sun, or Hokum in a suit other than the face-up KH's.
    assert out["next"]["legal"] == legal_bids("sun", "hokum S", "hokum D", "hokum C")
    out, status = replay(record(rnd))
    assert status == 0
    assert out["rounds"][0]["contract"] == {
        **E99_CONTRACT,
        "trump": "S",
        "declarer": 1,
        "recipient": 1,
        "bidding_round": 2,
    }
    assert out["next"]["phase"] == "doubling" and out["next"]["seat"] == 2
    assert [len(h) for h in out["next"]["hands"]] == [8, 8, 8, 8]


@pytest.mark.parametrize("choice", [bid(1, "hokum", "H"), bid(1, "hokum"), bid(1, "pass")])
def test_round2_hokum_choice_refused(choice: dict[str, Any]) -> None:
    out, status = replay(record(round2_hokum(choice)))
    assert status == 3
    assert out["error"]["code"] == "illegal_call"
    assert out["error"]["action"] == 8


def test_contract_during_doubling() -> None:
    out, _ = replay(record(e99_prefix(DOUBLING)))
    assert out["rounds"][0]["contract"] == E99_CONTRACT
    assert out["next"]["legal"] == [{"type": "double", "call": c} for c in ("pass", "double")]
    doubled = {"deck": E99_DECK, "actions": [*E99_BIDS, dbl(3, "pass"), dbl(1, "double")]}
    out, _ = replay(record(doubled))
    # The level so far, and locked as it would be if the ladder stopped now (R23).
    assert out["rounds"][0]["contract"] == {**E99_CONTRACT, "multiplier": 2, "locked": True}
    assert (out["next"]["seat"], out["next"]["phase"]) == (2, "doubling")
    assert out["next"]["legal"] == [{"type": "double", "call": c} for c in ("pass", "triple")]


def test_trick_in_progress() -> None:
    out, status = replay(record(e99_prefix(PLAYING + 2)))
    assert status == 0
    assert out["rounds"][0]["tricks"] == [
        {"leader": 2, "cards": ["9H", "8S"], "winner": None, "abnat": None}
    ]
    assert out["next"]["seat"] == 0
    assert out["next"]["legal"] == [{"type": "play", "card": c} for c in ("AH", "JH")]
    out, _ = replay(record(e99_prefix(PLAYING + 4)))  # trick 1 complete, trick 2 not begun
    assert out["rounds"][0]["tricks"] == E99_EXPECTED_ROUND["tricks"][:1]


def test_gahwa_round_ends_the_match() -> None:
    ladder = [dbl(3, "pass"), dbl(1, "double"), dbl(2, "triple"), dbl(1, "four")]
    ladder.append(dbl(2, "gahwa"))
    out, status = replay(record(e99_round(ladder), scores=[10, 120]))
    assert status == 0
    rnd = out["rounds"][0]
    assert rnd["contract"] == {**E99_CONTRACT, "multiplier": 4, "gahwa": True, "locked": False}
    assert rnd["result"]["points"] == [0, 0]
    assert rnd["result"]["gahwa_winner"] == 0  # R43: the bidding team made it
    assert out["scores"] == [10, 120]
    assert out["finished"] is True and out["winner"] == 0


# --- Projects ------------------------------------------------------------------------------

PROJECT_HANDS = {
    0: "AS KS QS JS AH KH QH 7C",
    1: "10S 9S 8S 7S JH 10H 9H 8H",
    2: "7H AD KD QD JD 10D 9D 8D",
    3: "7D AC KC QC JC 10C 9C 8C",
}
PROJECT_DECK = deal_deck(PROJECT_HANDS, dealer=0, recipient=1, face_up="8H")
SUN_BY_1 = [bid(1, "sun")]  # R14: nobody precedes seat 1, so the contract is made at once


def project_round(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"deck": PROJECT_DECK, "actions": [*SUN_BY_1, *actions]}


def test_declarations_in_the_result() -> None:
    actions = [
        declare(1, ("50", "10S 9S 8S 7S"), ("50", "8H 9H 10H JH")),
        play(1, "10S"),
        declare(2, ("100", "8D 9D 10D JD QD KD AD")),
        play(2, "7H"),
        declare(3, ("100", "AC KC QC JC 10C 9C 8C")),
        play(3, "7D"),
        declare(0, ("sira", "QH KH AH")),
        play(0, "AS"),
    ]
    out, status = replay(record(project_round(*actions)))
    assert status == 0
    assert out["next"]["seat"] == 0  # AS won trick 1
    # Finish the round with the first legal card every time.
    rnd = project_round(*actions)
    while out["next"] is not None:
        nxt = out["next"]
        rnd["actions"].append({"seat": nxt["seat"], **nxt["legal"][0]})
        out, status = replay(record(rnd))
        assert status == 0
    projects = out["rounds"][0]["result"]["projects"]
    assert projects == {
        "declared": [
            {"seat": 1, "kind": "50", "cards": ["10S", "9S", "8S", "7S"]},
            {"seat": 1, "kind": "50", "cards": ["JH", "10H", "9H", "8H"]},
            {"seat": 2, "kind": "100", "cards": ["AD", "KD", "QD", "JD", "10D", "9D", "8D"]},
            {"seat": 3, "kind": "100", "cards": ["AC", "KC", "QC", "JC", "10C", "9C", "8C"]},
            {"seat": 0, "kind": "sira", "cards": ["AH", "KH", "QH"]},
        ],
        # R31: equal A-high 100 runs; seat 2 comes before seat 3 in bidding order.
        "awarded_team": 0,
        "points": [24, 0],
    }


BAD_DECLARATIONS: list[tuple[list[dict[str, Any]], dict[str, Any], str]] = [
    ([], declare(1), "invalid_project"),  # an empty declaration
    ([], declare(1, ("sira", "10S 9S 7S")), "invalid_project"),  # not a run
    ([], declare(1, ("sira", "AS KS QS")), "invalid_project"),  # not held
    ([], declare(1, ("sira", "10S 9S 8S"), ("sira", "9S 8S 7S")), "invalid_project"),
    ([], declare(1, ("sira", "10S 10S 9S")), "invalid_project"),  # a card twice
    (
        [],
        declare(1, ("sira", "10S 9S 8S"), ("sira", "JH 10H 9H"), ("50", "8H 9H 10H JH")),
        "invalid_project",
    ),  # more than 2
    ([], declare(1, ("400", "10S 9S 8S 7S")), "invalid_project"),
    ([declare(1, ("sira", "10S 9S 8S"))], declare(1, ("sira", "JH 10H 9H")), "invalid_project"),
    ([], declare(2, ("100", "AD KD QD JD 10D")), "not_your_turn"),
    # Seat 1's first turn is over once it has played its card of trick 1.
    (
        [play(1, "7S"), play(2, "7H"), play(3, "7D"), play(0, "AS")],
        declare(0, ("50", "KS QS JS AS")),
        "invalid_project",
    ),
]


@pytest.mark.parametrize(("before", "action", "code"), BAD_DECLARATIONS)
def test_declaration_refused(
    before: list[dict[str, Any]], action: dict[str, Any], code: str
) -> None:
    out, status = replay(record(project_round(*before, action)))
    assert status == 3
    assert out["error"]["code"] == code
    assert out["error"]["action"] == 1 + len(before)


# --- Commitments ---------------------------------------------------------------------------


def sha(salt: str, deck: list[str]) -> str:
    import hashlib

    return hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()


def test_deck_commitment_helper() -> None:
    assert deck_commitment("pepper", E99_DECK) == sha("pepper", E99_DECK)


@pytest.mark.parametrize("case", [str.lower, str.upper])
def test_commitment_accepted(case: Any) -> None:
    rnd = e99_round(salt="pepper", commitment=case(sha("pepper", E99_DECK)))
    assert replay(record(rnd)) == replay(record(e99_round()))


def test_commitment_without_salt_is_not_checked() -> None:
    out, status = replay(record(e99_round(commitment="00")))
    assert status == 0 and out["error"] is None


@pytest.mark.parametrize("salt", ["pepper ", "Pepper", ""])
def test_commitment_mismatch(salt: str) -> None:
    second = e99_prefix(4) | {"salt": salt, "commitment": sha("pepper", E99_DECK)}
    out, status = replay(record(e99_round(), second))
    assert status == 3
    assert out["error"] == {
        "round": 1,
        "action": None,
        "code": "commitment_mismatch",
        "message": out["error"]["message"],
    }
    assert out["rounds"] == [E99_EXPECTED_ROUND]  # the refused round is left out
    assert out["next"] is None
    assert out["scores"] == [13, 5]


# --- Export --------------------------------------------------------------------------------


def test_export_match_round_trips() -> None:
    # Dealer 3 redeals, dealer 0 plays E99, dealer 1's round is in progress.
    live = {"deck": PROJECT_DECK, "actions": [bid(2, "pass"), bid(3, "pass")]}
    rec = record(redeal_round(3), e99_round(), live, dealer=3, scores=[7, 9])
    state = state_from_record(rec)
    exported = export_match(state)
    assert exported == {"target": 152, "ruleset": "gamerules", **rec}
    assert replay_state(exported).state == state
    without_current = export_match(state, include_current=False)
    assert len(without_current["rounds"]) == 2


def test_export_round_keeps_its_dealer_and_scores() -> None:
    rec = record(redeal_round(3), e99_round(), dealer=3, scores=[7, 9])
    state = state_from_record(rec)
    single = export_round(state, 1, salt="x")
    assert (single["dealer"], single["scores"]) == (0, [7, 9])
    assert single["rounds"][0]["commitment"] == sha("x", E99_DECK)
    out, status = replay(single)
    assert status == 0 and out["scores"] == [20, 14]
    with pytest.raises(IndexError):
        export_round(state, 2)


def test_state_from_record_refuses_a_bad_record() -> None:
    rnd = e99_prefix(0)
    rnd["actions"].append(bid(3, "pass"))
    with pytest.raises(ValueError):
        state_from_record(record(rnd))


def test_replay_does_not_change_its_input() -> None:
    rec = record(e99_round(), e99_prefix(5))
    kept = copy.deepcopy(rec)
    replay(rec)
    assert rec == kept


# --- Command line --------------------------------------------------------------------------


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_cli_replay_file(tmp_path: Path) -> None:
    path = tmp_path / "e99.json"
    path.write_text(json.dumps(record(e99_round())))
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rounds"] == [E99_EXPECTED_ROUND]


def test_cli_replay_stdin_refused_action() -> None:
    rnd = e99_prefix(0)
    rnd["actions"].append(bid(2, "pass"))
    done = run_cli("replay", "-", stdin=json.dumps(record(rnd)))
    assert done.returncode == 3
    assert json.loads(done.stdout)["error"]["code"] == "not_your_turn"


@pytest.mark.parametrize("text", ["{oops", "[]", '{"format": "baloot-record/1"}'])
def test_cli_replay_not_a_record(text: str) -> None:
    done = run_cli("replay", "-", stdin=text)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "malformed"


def test_cli_replay_missing_file(tmp_path: Path) -> None:
    done = run_cli("replay", str(tmp_path / "nothing.json"))
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "malformed"
