"""What the staff-only match page shows: seats, the score sheet, and every round's full deal
with its moves in play order. Staff see everything in the admin only (api.md), so this is the
one place hands and undealt stock are rendered, and it is never used by the API.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import takewhile
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine, selectors
from games.engine.cards import card_str, cards_of, parse_card
from games.models import Match, Move, Round, RoundStatus
from games.selectors.labels import SCORE_SHEET_COLUMNS, score_sheet_lines


def _names(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def round_deal(match: Match, rnd: Round, moves: list[Move]) -> dict[str, Any]:
    """Replay one round with the engine's one replay from its deck: the five cards each seat
    was dealt (R8), the cards each received after the bidding (R9), and the stock left
    undealt when the round ended in a redeal or is still in its bidding."""
    rules = engine.get_ruleset(match.ruleset)
    before = engine.new_match(
        rules,
        dealer=rnd.dealer,
        scores=tuple(rnd.scores_before or (0, 0)),
        target=match.target,
    )
    deck = [parse_card(c) for c in rnd.deck]
    first = engine.replay_round(before, deck, []).hands
    # Only bids are legal in the bidding (declaring waits for trick 1, R30), so the bids that
    # open the log are the whole bidding and the state after them holds the full hands.
    bids = list(takewhile(lambda m: m.payload.get("type") == "bid", moves))
    try:
        state = engine.replay_round(
            before, deck, ((m.seat, engine.move_from_dict(m.payload, rules)) for m in bids)
        )
    except engine.ReplayRefused as refused:  # pragma: no cover - the log is the truth
        state = refused.state  # show what replays
    full = None
    if state.phase is not engine.Phase.BIDDING and state.contract is not None:
        full = state.hands
    seats = []
    for seat in range(4):
        dealt = _names(first[seat])
        later = _names(full[seat] & ~first[seat]) if full is not None else []
        seats.append({"seat": seat, "dealt": dealt, "after_bidding": later})
    return {
        "face_up": rnd.deck[20],
        "seats": seats,
        "stock": rnd.deck[21:] if full is None else [],
    }


def match_page(match: Match) -> dict[str, Any]:
    """Context for the admin's match page (staff only: the full deal is revealed)."""
    moves_by_round: dict[int, list[Move]] = defaultdict(list)
    for move in Move.objects.filter(match=match).order_by("seq"):
        moves_by_round[move.round_number].append(move)
    seats = {s.index: s for s in match.seats.select_related("user")}
    rounds = []
    for rnd in Round.objects.filter(match=match).order_by("number"):
        moves = moves_by_round.get(rnd.number, [])
        rounds.append(
            {
                "round": rnd,
                "finished": rnd.status != RoundStatus.IN_PROGRESS,
                "deal": round_deal(match, rnd, moves),
                "sawa": sawa_text((rnd.result or {}).get("sawa")),
                "moves": [
                    {
                        "move": m,
                        "who": seats[m.seat].user if m.seat in seats else None,
                        "text": move_text(m.payload),
                    }
                    for m in moves
                ],
            }
        )
    return {
        "seat_rows": [selectors.seat_json(s) for s in seats.values()],
        "score_sheet": score_sheet_lines(selectors.score_sheet(match)),
        "score_sheet_columns": list(SCORE_SHEET_COLUMNS.values()),
        "rounds": rounds,
    }


def sawa_text(sawa: dict[str, Any] | None) -> str:
    """A round's Sawa (saudi, S25) for staff: who called it and whether it held; "" if none."""
    if not sawa:
        return ""
    if sawa.get("valid"):
        return str(_("Sawa by seat %(seat)s: valid")) % {"seat": sawa.get("seat")}
    return str(_("Sawa by seat %(seat)s: false")) % {"seat": sawa.get("seat")}


def move_text(payload: dict[str, Any]) -> str:
    """A logged move (its payload) as staff read it: the match page's log and the replay."""
    kind = payload.get("type")
    if kind == "play":
        return f"play {payload['card']}"
    if kind == "sawa":
        return "sawa"
    if kind in ("bid", "double"):
        suit = f" {payload['suit']}" if payload.get("suit") else ""
        locked = payload.get("locked")
        closed = "" if locked is None else (" (closed)" if locked else " (open)")
        return f"{kind} {payload['call']}{suit}{closed}"
    if kind == "declare":
        parts = [f"{p['kind']} ({' '.join(p.get('cards') or [])})" for p in payload["projects"]]
        return "declare " + ", ".join(parts)
    return str(payload)
