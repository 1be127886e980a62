"""The pure Baloot rules engine (ruleset ``gamerules``, rules.md R1-R43).

No Django, no database, no I/O, no global randomness. The API in one place::

    state = new_match(GAMERULES, dealer=0)
    state = start_round(state, deck)          # the caller shuffles
    legal_moves(state); to_act(state)
    state = apply(state, seat, move)          # raises MalformedMove / IllegalMove (.code)
    observation(state, seat); outcome(state)
"""

from .bidding import Contract, Mode
from .cards import Card, card_str, parse_card
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
    move_from_dict,
    move_to_dict,
)
from .observation import Observation, observation, observation_to_dict
from .projects import available_projects, best_declaration
from .rulesets import GAMERULES, RULESETS, Ruleset, get_ruleset
from .state import (
    GameState,
    Outcome,
    Phase,
    RoundLog,
    RoundStatus,
    Trick,
    apply,
    legal_moves,
    may_declare,
    new_match,
    outcome,
    start_round,
    to_act,
)

__all__ = [
    "GAMERULES",
    "RULESETS",
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
    "RoundLog",
    "RoundStatus",
    "Ruleset",
    "Trick",
    "apply",
    "available_projects",
    "best_declaration",
    "card_str",
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
    "start_round",
    "to_act",
]
