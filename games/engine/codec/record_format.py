"""The record format's shapes (record-format.md): contracts, tricks, round results, finished and
live rounds, the next turn of a replay, and the observation the API renders (api.md), which is
made of them. Their key order is part of the byte-for-byte contract of records and of
``python -m games.engine replay``.
"""

from __future__ import annotations

from typing import Any

from ..bidding import Contract
from ..cards import card_names, card_str, cards_of, suit_str
from ..observation import Observation
from ..rules import legal_moves, to_act
from ..scoring import RoundResult, SawaClaim
from ..state import GameState, Phase, RoundLog, RoundStatus, Trick
from .moves import action_to_dict, move_to_dict, project_to_dict

LIVE_PHASES = (Phase.BIDDING, Phase.DOUBLING, Phase.PLAYING)


def contract_to_dict(
    contract: Contract | None, multiplier: int, gahwa: bool, locked: bool
) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "kind": contract.kind.value,
        "mode": contract.mode.value,
        "trump": suit_str(contract.trump) if contract.trump is not None else None,
        "declarer": contract.declarer,
        "recipient": contract.recipient,
        "bidding_round": contract.bidding_round,
        "multiplier": multiplier,
        "gahwa": gahwa,
        "locked": locked,
    }


def trick_to_dict(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [card_str(c) for c in trick.cards],
        "winner": trick.winner,
        "abnat": trick.abnat,
    }


def sawa_to_dict(claim: SawaClaim | None) -> dict[str, Any] | None:
    return None if claim is None else {"seat": claim.seat, "valid": claim.valid}


def result_to_dict(result: RoundResult, *, with_sawa: bool = False) -> dict[str, Any]:
    """A round's ``result``; ``with_sawa`` (a ruleset with Sawa) adds the key ``sawa`` (S25),
    which a `gamerules` result never has (S2)."""
    declared = [
        {"seat": seat, **project_to_dict(project)}
        for seat, projects in result.declared
        for project in projects
    ]
    return {
        "abnat": list(result.abnat),
        "card_points": list(result.card_points),
        "projects": {
            "declared": declared,
            "awarded_team": result.awarded_team,
            "points": list(result.project_points),
        },
        "baloot": list(result.baloot),
        "kaboot": result.kaboot,
        "bidder_team": result.bidder_team,
        "bidder_failed": result.bidder_failed,
        "points": list(result.points),
        "gahwa_winner": result.gahwa_winner,
        **({"sawa": sawa_to_dict(result.sawa)} if with_sawa else {}),
    }


def finished_round_to_dict(log: RoundLog, *, with_sawa: bool = False) -> dict[str, Any]:
    return {
        "dealer": log.dealer,
        "face_up": card_str(log.deck[20]),
        "status": log.status.value,
        "contract": contract_to_dict(log.contract, log.multiplier, log.gahwa, log.locked),
        "tricks": [trick_to_dict(t) for t in log.tricks],
        "result": result_to_dict(log.result, with_sawa=with_sawa),
    }


def revealed_hands_to_dict(log: RoundLog) -> list[list[str]] | None:
    """S21: the hands still held when a Sawa ended ``log``'s round, else None."""
    if log.revealed_hands is None:
        return None
    return [card_names(cards_of(h)) for h in log.revealed_hands]


def live_round_to_dict(state: GameState) -> dict[str, Any]:
    tricks = [trick_to_dict(t) for t in state.tricks]
    # A trick shows once its first card is down; an empty one would only repeat the leader.
    if state.trick:
        tricks.append(
            {
                "leader": state.leader,
                "cards": [card_str(c) for c in state.trick],
                "winner": None,
                "abnat": None,
            }
        )
    contract = None
    if state.phase is not Phase.BIDDING:
        contract = contract_to_dict(state.contract, state.multiplier, state.gahwa, state.locked)
    return {
        "dealer": state.dealer,
        "face_up": card_str(state.deck[20]),
        "status": RoundStatus.IN_PROGRESS.value,
        "contract": contract,
        "tricks": tricks,
        "result": None,
    }


def round_to_dict(state: GameState) -> dict[str, Any]:
    """The output of the round ``state`` is in, or of the round that just ended."""
    if state.phase in LIVE_PHASES:
        return live_round_to_dict(state)
    return finished_round_to_dict(state.history[-1], with_sawa=state.ruleset.sawa)


def next_to_dict(state: GameState) -> dict[str, Any] | None:
    if state.phase not in LIVE_PHASES:
        return None
    return {
        "seat": to_act(state),
        "phase": state.phase.value,
        "hands": [card_names(cards_of(h)) for h in state.hands],
        "legal": [move_to_dict(m) for m in legal_moves(state)],
    }


# --- Observations (api.md) ---------------------------------------------------------------------


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON form of an observation (cards, calls and suits as in the record format)."""
    return {
        "seat": obs.seat,
        "phase": obs.phase.value,
        "number": obs.round_no,
        "dealer": obs.dealer,
        "face_up": card_str(obs.face_up) if obs.face_up is not None else None,
        "to_act": obs.to_act,
        "hand": card_names(obs.hand),
        "card_counts": list(obs.card_counts),
        "calls": [action_to_dict(s, m) for s, m in obs.calls],
        "doubles": [action_to_dict(s, m) for s, m in obs.doubles],
        "contract": contract_to_dict(obs.contract, obs.multiplier, obs.gahwa, obs.locked),
        "doubler": obs.doubler,
        "current_trick": {
            "leader": obs.leader,
            "cards": [card_str(c) for c in obs.trick],
        }
        if obs.leader is not None
        else None,
        "last_trick": trick_to_dict(obs.tricks[-1]) if obs.tricks else None,
        "tricks_played": len(obs.tricks),
        "abnat": list(obs.abnat),
        "trick_counts": list(obs.trick_counts),
        "projects": [
            {
                "seat": d.seat,
                "kinds": list(d.kinds),
                "projects": [project_to_dict(p) for p in d.projects]
                if d.projects is not None
                else None,
            }
            for d in obs.declarations
        ],
        "baloot": list(obs.baloot),
        "legal_moves": [move_to_dict(m) for m in obs.legal_moves],
        "projects_available": [project_to_dict(p) for p in obs.projects_available],
        "projects_suggested": [project_to_dict(p) for p in obs.projects_suggested],
        # S21: present only after a round ended by Sawa (never in `gamerules`).
        **(
            {"revealed_hands": [card_names(h) for h in obs.revealed_hands]}
            if obs.revealed_hands is not None
            else {}
        ),
    }
