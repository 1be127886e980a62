"""The pure Baloot rules engine (rulesets ``gamerules``, rules.md R1-R43, and ``saudi``,
rules-saudi.md S1-S30).

No Django, no database, no I/O, no global randomness. The API in one place::

    state = new_match(GAMERULES, dealer=0)
    state = start_round(state, deck)          # the caller shuffles
    legal_moves(state); to_act(state)
    state = apply(state, seat, move)          # raises MalformedMove / IllegalMove (.code)
    observation(state, seat); outcome(state)

One of each: ``state`` holds the values (``GameState`` and its parts), ``rules`` the rules of
one move and the API above, ``play`` the play rule (``legal_play_mask``), ``replay`` the
rebuild of a state from decks and moves (and its fast path, ``apply_moves``), ``codec`` every
to/from-dict conversion (``codec.moves``, ``codec.record_format``, ``codec.snapshot``),
``commitment`` the deck commitment, ``record`` the record format.
"""

from .bidding import Contract, Mode
from .cards import Card, card_str, parse_card
from .codec.moves import move_from_dict, move_to_dict
from .codec.record_format import observation_to_dict
from .codec.snapshot import (
    SNAPSHOT_VERSION,
    SnapshotError,
    snapshot_version,
    state_from_snapshot,
    state_to_snapshot,
)
from .commitment import deck_commitment
from .errors import EngineError, IllegalMove, MalformedMove
from .moves import (
    Bid,
    Call,
    Declare,
    Double,
    DoubleCall,
    Move,
    Play,
    Project,
    ProjectKind,
    Sawa,
)
from .observation import Observation, observation
from .projects import available_projects, best_declaration
from .replay import ReplayRefused, rebuild, replay_round
from .rules import apply, legal_moves, may_declare, new_match, outcome, start_round, to_act
from .rulesets import GAMERULES, RULESETS, SAUDI, Ruleset, get_ruleset
from .scoring import SawaClaim
from .state import GameState, Outcome, Phase, RoundLog, RoundStatus, Trick

__all__ = [
    "GAMERULES",
    "RULESETS",
    "SAUDI",
    "SNAPSHOT_VERSION",
    "Bid",
    "Call",
    "Card",
    "Contract",
    "Declare",
    "Double",
    "DoubleCall",
    "EngineError",
    "GameState",
    "IllegalMove",
    "MalformedMove",
    "Mode",
    "Move",
    "Observation",
    "Outcome",
    "Phase",
    "Play",
    "Project",
    "ProjectKind",
    "ReplayRefused",
    "RoundLog",
    "RoundStatus",
    "Ruleset",
    "Sawa",
    "SawaClaim",
    "SnapshotError",
    "Trick",
    "apply",
    "available_projects",
    "best_declaration",
    "card_str",
    "deck_commitment",
    "get_ruleset",
    "legal_moves",
    "may_declare",
    "move_from_dict",
    "move_to_dict",
    "new_match",
    "observation",
    "observation_to_dict",
    "outcome",
    "parse_card",
    "rebuild",
    "replay_round",
    "snapshot_version",
    "start_round",
    "state_from_snapshot",
    "state_to_snapshot",
    "to_act",
]
