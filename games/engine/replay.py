"""The one replay: a state rebuilt from its ruleset, each round's deck and the ordered moves.

State is the replay of the log (architecture.md): the decks and the moves are the truth, and a
stored snapshot is a cache of ``rebuild``. The record format's replay (``record.py``) goes
through ``replay_round`` too, one round at a time, to report where a record is refused.

The moves are made by ``apply_moves``, the fast path: the rules of ``rules.py`` on one draft of
the state for the whole run of moves, instead of a new state per move. Runs of card plays, most
of a round, go through ``_play_run``, which holds the play phase in local variables; it decides
legality with the same ``play.legal_play_mask`` as ``rules.play_card`` and leaves every refusal to
``rules.advance``. tests/engine/test_replay_paths.py holds
``apply_moves`` to the states and refusals of ``apply`` one move at a time over many random
matches of both rulesets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .cards import Card
from .errors import EngineError
from .moves import Bid, Double, Move, Play
from .play import NO_TRUMP, TRICK_RANK, TRICKS_PER_ROUND, VALUES, legal_play_mask, scored_trick
from .projects import baloot_pair
from .rules import (
    SEAT_PLAYS,
    advance,
    end_round,
    make_bid,
    make_double,
    new_match,
    score_draft,
    start_round,
)
from .rulesets import Ruleset
from .state import GameState, Phase, StateDraft, Trick, draft_of, round_locked, state_of

Action = tuple[int, Move]  # (seat, move)


class ReplayRefused(Exception):
    """A move of a round was refused: ``state`` is the round up to it (the deck dealt and the
    moves before it applied), ``action`` its 0-based index in the round, ``error`` the reason."""

    def __init__(self, state: GameState, action: int, error: EngineError) -> None:
        super().__init__(f"action {action}: {error.code}: {error.message}")
        self.state = state
        self.action = action
        self.error = error


def replay_round(state: GameState, deck: Sequence[Card], actions: Iterable[Action]) -> GameState:
    """Deal ``deck`` onto ``state`` (which waits for a deal) and apply ``actions`` in order.

    ``actions`` is consumed lazily, so an iterator that parses as it goes may raise an
    EngineError (a malformed move) and have it reported at its own index. Raises ReplayRefused;
    a deck that is not 32 distinct cards, or a state not waiting for a deal, is a ValueError."""
    state = start_round(state, tuple(deck))
    try:
        return apply_moves(state, actions)
    except MovesRefused as refused:
        raise ReplayRefused(refused.state, refused.index, refused.error) from refused.error


def rebuild(
    ruleset: Ruleset,
    rounds: Iterable[tuple[Sequence[Card], Iterable[Action]]],
    *,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> GameState:
    """The state after playing ``rounds`` ((deck, actions) in order) from a new match with
    these options. Raises ReplayRefused, or ValueError for a bad deck or a round too many."""
    state = new_match(ruleset, dealer=dealer, scores=scores, target=target)
    for deck, actions in rounds:
        state = replay_round(state, deck, actions)
    return state


# --- The fast path ------------------------------------------------------------------------

_PLAYING, _BIDDING, _DOUBLING = Phase.PLAYING, Phase.BIDDING, Phase.DOUBLING


class MovesRefused(Exception):
    """``apply_moves`` stopped: move number ``index`` (0-based) was refused with ``error``;
    ``state`` is the state after the moves before it."""

    def __init__(self, state: GameState, index: int, error: EngineError) -> None:
        super().__init__(f"move {index}: {error.code}: {error.message}")
        self.state = state
        self.index = index
        self.error = error


def apply_moves(state: GameState, moves: Iterable[Action]) -> GameState:
    """``rules.apply`` each (seat, move) in order, without making the states in between (a
    replay of a log or a record). Raises MovesRefused."""
    d = draft_of(state)
    index = 0
    actions = iter(moves)
    try:
        for seat, move in actions:
            if type(seat) is not int:
                advance(d, seat, move)  # refuses it (a bool, say, though True == 1)
            elif type(move) is Play and d.phase is _PLAYING:
                # The card plays that follow, up to the first that is not a legal play.
                played, pending = _play_run(d, seat, move, actions)
                index += played
                if pending is None:
                    continue
                if isinstance(pending, EngineError):
                    raise pending  # from the moves' iterator, at its own index
                seat, move = pending
                advance(d, seat, move)  # refuses it, or makes a declaration or Sawa
            elif type(move) is Bid and d.phase is _BIDDING and _to_bid(d) == seat:
                make_bid(d, seat, move)  # advance's second case, without its checks in between
            elif type(move) is Double and d.phase is _DOUBLING and _to_double(d) == seat:
                make_double(d, seat, move)  # as advance would, without its checks in between
            else:
                advance(d, seat, move)
            index += 1
    except EngineError as error:
        raise MovesRefused(state_of(d), index, error) from error
    return state_of(d)


def _to_bid(d: StateDraft) -> int:
    bidding = d.bidding
    assert bidding is not None
    return bidding.queue[0]


def _to_double(d: StateDraft) -> int:
    ladder = d.ladder
    assert ladder is not None
    return ladder.queue[0]


def _play_run(
    d: StateDraft, seat: int, move: Play, moves: Iterator[Action]
) -> tuple[int, Action | EngineError | None]:
    """``rules.play_card`` for ``move`` and each card play after it in ``moves``, with the play
    phase held in local variables meanwhile (``rules.play_card`` reads and rebuilds the draft's
    tuples at every card). Stops before the first move that is not a legal play by the seat to
    act, which it returns for the caller to apply or refuse; an EngineError raised by
    ``moves`` is returned in its place. Returns (plays made, that move or error), the second
    None when ``moves`` ran out or the round's last trick ended the round.

    The rules are ``rules.play_card``'s, and only its accepting path: anything it would refuse is
    left to ``rules.advance``, which refuses it."""
    contract = d.contract
    assert contract is not None
    trump = contract.trump
    row = NO_TRUMP if trump is None else trump
    ranks, values = TRICK_RANK[row], VALUES[row]
    ruleset = d.ruleset
    compulsory = ruleset.compulsory_trumping
    lock = round_locked(d.ladder, contract, ruleset)  # R23; settled once play starts
    baloot_seat = d.baloot_seat
    pair = 0 if trump is None else baloot_pair(trump)  # R32: Hokum only
    hands = list(d.hands)
    trick = d.trick
    leader = d.leader
    tricks = d.tricks
    abnat_a, abnat_b = d.abnat
    count_a, count_b = d.trick_counts
    log: list[Action] = []
    pending: Action | EngineError | None = None
    try:
        while True:
            if seat != (leader + len(trick)) & 3:  # also any int that is not a seat
                pending = (seat, move)
                break
            card = move.card
            bit = 1 << card
            hand = hands[seat]
            # Not held, or held and not legal: rules.advance refuses it.
            if not legal_play_mask(hand, trick, trump, lock, compulsory) & bit:
                pending = (seat, move)
                break
            hand ^= bit
            hands[seat] = hand
            log.append(SEAT_PLAYS[seat][card])
            if seat == baloot_seat and bit & pair and not hand & pair:
                d.baloot_announced = True  # R32: the second of the trump K and Q
            trick += (card,)
            if len(trick) == 4:
                # R27, R28, R6: scored_trick is close_trick with the rows looked up.
                done = len(tricks)
                winner, abnat = scored_trick(trick, leader, done, trump, ranks, values)
                if winner & 1:
                    abnat_b += abnat
                    count_b += 1
                else:
                    abnat_a += abnat
                    count_a += 1
                tricks += (Trick(leader, trick, winner, abnat),)
                trick = ()
                leader = winner
                if done == TRICKS_PER_ROUND - 1:
                    break
            try:
                seat, following = next(moves)
            except StopIteration:
                break
            except EngineError as error:
                pending = error
                break
            if type(following) is not Play or type(seat) is not int:
                pending = (seat, following)
                break
            move = following
    finally:
        d.hands = (hands[0], hands[1], hands[2], hands[3])
        d.trick = trick
        d.tricks = tricks
        d.leader = leader
        d.abnat = (abnat_a, abnat_b)
        d.trick_counts = (count_a, count_b)
        d.actions += tuple(log)
    if len(tricks) == TRICKS_PER_ROUND:
        end_round(d, score_draft(d))
    return len(log), pending
