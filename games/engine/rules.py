"""The rules of one move, and the engine's API: deal, whose turn, legal moves, apply, outcome.

``apply`` returns a new ``GameState`` and never changes the one it was given, so a refused move
changes nothing. Randomness never enters: the caller supplies each round's shuffled deck
(``start_round``).

Every rule that changes a state is written once, on a ``StateDraft`` (state.py): the next
state, copied from the state before and changed in place before anyone else sees it. ``apply``
copies a state (``draft_of``), makes one move on the copy (``advance``) and hands it out as a
state (``state_of``); ``replay.apply_moves`` copies once and makes many moves, which is what
replaying a log or a record needs. ``advance`` checks everything a move can be refused for
before it changes anything, so a refused move leaves the draft exactly as it was.
"""

from __future__ import annotations

from .bidding import (
    REDEAL,
    Bidding,
    Contract,
    Ladder,
    bid_apply,
    bid_legal,
    bidding_order,
    bidding_start,
    doubling_allowed,
    ladder_apply,
    ladder_legal,
    ladder_start,
    normalize_double,
)
from .cards import SUIT_MASK, Card
from .errors import REFUSALS, IllegalMove, MalformedMove
from .moves import PLAYS, SAWA, Bid, Declare, Double, Move, Play, Project, Sawa
from .play import (
    LAST_TRICK_BONUS,
    TRICKS_PER_ROUND,
    close_trick,
    legal_play_mask,
    refusal_code,
)
from .projects import baloot_holder, baloot_pair, validate_declaration
from .rulesets import GAMERULES, Ruleset
from .sawa import remaining_abnat, sawa_holds, sawa_open
from .scoring import REDEAL_RESULT, RoundResult, SawaClaim, score_round
from .state import (
    GameState,
    Outcome,
    Phase,
    RoundLog,
    RoundStatus,
    StateDraft,
    Trick,
    draft_of,
    round_gahwa,
    round_locked,
    round_multiplier,
    state_of,
)

_PLAYING, _BIDDING, _DOUBLING = Phase.PLAYING, Phase.BIDDING, Phase.DOUBLING
_DEAL, _FINISHED = Phase.DEAL, Phase.FINISHED
_COMPLETE, _REDEAL = RoundStatus.COMPLETE, RoundStatus.REDEAL


# --- The API ------------------------------------------------------------------------------


def new_match(
    ruleset: Ruleset = GAMERULES,
    *,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> GameState:
    """A match waiting for its first deck (``start_round``)."""
    if dealer not in range(4):
        raise ValueError("dealer must be 0-3")
    return GameState(
        ruleset=ruleset,
        target=ruleset.default_target if target is None else target,
        scores=(int(scores[0]), int(scores[1])),
        dealer=dealer,
        phase=Phase.DEAL,
    )


_FULL_DECK = frozenset(range(32))


def with_history(state: GameState, history: tuple[RoundLog, ...]) -> GameState:
    """``state`` with another history (``dataclasses.replace`` without its cost: the record
    replay swaps the history once per round)."""
    d = draft_of(state)
    d.history = history
    return state_of(d)


def start_round(state: GameState, deck: tuple[Card, ...] | list[Card]) -> GameState:
    """Deal ``deck`` (D[0..31], already shuffled by the caller) as R8 fixes it."""
    if state.phase is not _DEAL:
        raise ValueError(f"cannot deal in phase {state.phase}")
    deck = tuple(deck)
    if len(deck) != 32 or _FULL_DECK.difference(deck):
        raise ValueError("a deck is 32 distinct cards")
    # R8 (E49): 3 cards to each seat in bidding order, then 2 to each.
    first, second, third, dealer = bidding_order(state.dealer)
    hands = [0, 0, 0, 0]
    hands[first] = 1 << deck[0] | 1 << deck[1] | 1 << deck[2] | 1 << deck[12] | 1 << deck[13]
    hands[second] = 1 << deck[3] | 1 << deck[4] | 1 << deck[5] | 1 << deck[14] | 1 << deck[15]
    hands[third] = 1 << deck[6] | 1 << deck[7] | 1 << deck[8] | 1 << deck[16] | 1 << deck[17]
    hands[dealer] = 1 << deck[9] | 1 << deck[10] | 1 << deck[11] | 1 << deck[18] | 1 << deck[19]
    d = draft_of(state)
    d.phase = _BIDDING
    d.round_no = state.round_no + 1
    d.deck = deck
    d.hands = (hands[0], hands[1], hands[2], hands[3])
    d.face_up = deck[20]
    d.bidding = bidding_start(state.dealer)
    return state_of(d)


def to_act(state: GameState) -> int | None:
    """The seat whose move it is, or None between rounds and after the match."""
    phase = state.phase
    if phase is _PLAYING:
        return (state.leader + len(state.trick)) & 3
    if phase is _BIDDING:
        assert state.bidding is not None
        return state.bidding.queue[0]
    if phase is _DOUBLING:
        assert state.ladder is not None
        return state.ladder.queue[0]
    return None


def _sawa_open(
    ruleset: Ruleset,
    phase: Phase,
    leader: int,
    trick: tuple[Card, ...],
    hands: tuple[int, int, int, int],
) -> bool:
    """S20: the ruleset has Sawa and the seat to act leads a trick holding at most 4 cards."""
    if not ruleset.sawa or phase is not _PLAYING:
        return False
    seat = (leader + len(trick)) % 4
    return sawa_open(leading=not trick, cards_in_hand=hands[seat].bit_count())


# The play moves of each 8-card suit holding (by byte, per suit), so that a legal mask turns
# into its moves by lookups instead of a loop over its bits.
_PLAYS_BY_BYTE = tuple(
    tuple(tuple(PLAYS[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)


def legal_moves(state: GameState) -> list[Move]:
    """Every legal bid, doubling call or play for the seat to act (declarations are checked
    when made, not listed, as in the record format), and last Sawa when it is open (S20)."""
    phase = state.phase
    if phase is _PLAYING:
        trick = state.trick
        hand = state.hands[(state.leader + len(trick)) & 3]
        contract = state.contract
        assert contract is not None
        ruleset = state.ruleset
        # R23's lock concerns leads only: a follow does not look it up.
        locked = not trick and round_locked(state.ladder, contract, ruleset)
        mask = legal_play_mask(hand, trick, contract.trump, locked, ruleset.compulsory_trumping)
        if trick:
            led = trick[0] >> 3
            if not mask & ~SUIT_MASK[led]:  # the cards of one suit: one lookup
                return list(_PLAYS_BY_BYTE[led][mask >> 8 * led])
        spades, hearts, diamonds, clubs = _PLAYS_BY_BYTE
        plays: list[Move] = [
            *spades[mask & 0xFF],
            *hearts[mask >> 8 & 0xFF],
            *diamonds[mask >> 16 & 0xFF],
            *clubs[mask >> 24],
        ]
        if trick:
            return plays
        if ruleset.sawa and sawa_open(leading=True, cards_in_hand=hand.bit_count()):
            plays.append(SAWA)
        return plays
    if phase is _BIDDING:
        assert state.bidding is not None and state.face_up is not None
        return list(bid_legal(state.bidding, state.face_up >> 3, state.ruleset, state.face_up))
    if phase is _DOUBLING:
        assert state.ladder is not None and state.contract is not None
        return list(ladder_legal(state.ladder, state.contract, state.ruleset))
    return []


def may_declare(state: GameState, seat: int) -> bool:
    """R30: only on the seat's own first turn of trick 1, and only once."""
    return _declaration_open(state.phase, state.tricks, to_act(state), state.declarations, seat)


def _declaration_open(
    phase: Phase,
    tricks: tuple[Trick, ...],
    acting: int | None,
    declarations: tuple[tuple[int, tuple[Project, ...]], ...],
    seat: int,
) -> bool:
    return (
        phase is _PLAYING
        and not tricks
        and acting == seat
        and all(s != seat for s, _ in declarations)
    )


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """Apply ``move`` by ``seat``; raise MalformedMove or IllegalMove and change nothing."""
    d = draft_of(state)
    if (
        type(move) is Play
        and state.phase is _PLAYING
        and seat == (state.leader + len(state.trick)) & 3
        and type(seat) is int
    ):
        play_card(d, seat, move)  # advance's first case, without the call
    else:
        advance(d, seat, move)
    return state_of(d)


def outcome(state: GameState) -> Outcome | None:
    """The match result once it has ended by the rules (R42, R43), else None."""
    if state.winner is None:
        return None
    last = state.history[-1]
    reason = "gahwa" if last.result.gahwa_winner is not None else "target_reached"
    return Outcome(winner=state.winner, reason=reason, scores=state.scores)


def score_state(
    state: GameState,
    abnat: tuple[int, int] | None = None,
    trick_counts: tuple[int, int] | None = None,
) -> RoundResult:
    """R33-R43: the result of ``state``'s round under its contract, declarations, Baloot and
    doubling, with the round's abnat and trick counts (or the given ones: the bots' playouts
    score a finished deal without building its states)."""
    contract = state.contract
    assert contract is not None
    return _score(
        contract,
        state.ruleset,
        state.abnat if abnat is None else abnat,
        state.trick_counts if trick_counts is None else trick_counts,
        state.declarations,
        state.dealer,
        state.baloot_seat,
        state.ladder,
    )


def _score(
    contract: Contract,
    ruleset: Ruleset,
    abnat: tuple[int, int],
    trick_counts: tuple[int, int],
    declarations: tuple[tuple[int, tuple[Project, ...]], ...],
    dealer: int,
    baloot_seat: int | None,
    ladder: Ladder | None,
    sawa: SawaClaim | None = None,
) -> RoundResult:
    return score_round(
        contract=contract,
        ruleset=ruleset,
        abnat=abnat,
        trick_counts=trick_counts,
        declarations=declarations,
        order=bidding_order(dealer),
        baloot_seat=baloot_seat,
        multiplier=round_multiplier(ladder),
        gahwa=round_gahwa(ladder),
        sawa=sawa,
    )


def first_leader(ruleset: Ruleset, contract: Contract, dealer: int) -> int:
    """Who leads trick 1: the declarer (R25), or the dealer's right (S4)."""
    return (dealer + 1) % 4 if ruleset.first_lead_dealer_right else contract.declarer


def playing_state(
    *,
    ruleset: Ruleset,
    contract: Contract,
    hands: tuple[int, int, int, int],
    dealer: int,
    scores: tuple[int, int],
    target: int | None = None,
    round_no: int = 0,
    ladder: Ladder | None = None,
    leader: int | None = None,
    trick: tuple[Card, ...] = (),
    tricks: tuple[Trick, ...] = (),
    abnat: tuple[int, int] = (0, 0),
    trick_counts: tuple[int, int] = (0, 0),
    declarations: tuple[tuple[int, tuple[Project, ...]], ...] = (),
    baloot_seat: int | None = None,
    baloot_announced: bool = False,
    actions: tuple[tuple[int, Move], ...] = (),
) -> GameState:
    """A state in the play phase of ``contract`` built from its parts, as the bots need for the
    deals they imagine. The face-up card is the contract's; an omitted ladder is an undoubled
    one (x1), an omitted leader the one who leads trick 1 (R25, S4)."""
    return GameState(
        ruleset=ruleset,
        target=ruleset.default_target if target is None else target,
        scores=scores,
        dealer=dealer,
        phase=_PLAYING,
        round_no=round_no,
        hands=hands,
        face_up=contract.face_up,
        contract=contract,
        ladder=_NO_LADDER if ladder is None else ladder,
        leader=first_leader(ruleset, contract, dealer) if leader is None else leader,
        trick=trick,
        tricks=tricks,
        abnat=abnat,
        trick_counts=trick_counts,
        declarations=declarations,
        baloot_seat=baloot_seat,
        baloot_announced=baloot_announced,
        actions=actions,
    )


# --- One move, on a draft --------------------------------------------------------


def advance(d: StateDraft, seat: int, move: Move) -> None:
    """Make ``move`` by ``seat`` on ``d``; raise MalformedMove or IllegalMove, in the record
    format's order of checks, before changing anything."""
    if type(seat) is not int or not 0 <= seat <= 3:
        _check_seat(seat)
    phase = d.phase
    if phase is _PLAYING:
        acting = (d.leader + len(d.trick)) & 3
        if type(move) is Play and seat == acting:
            play_card(d, seat, move)  # the common case, first
            return
    elif phase is _BIDDING:
        bidding = d.bidding
        assert bidding is not None
        acting = bidding.queue[0]
        if type(move) is Bid and seat == acting:
            make_bid(d, seat, move)
            return
    elif phase is _DOUBLING:
        ladder = d.ladder
        assert ladder is not None
        acting = ladder.queue[0]
    else:
        raise MalformedMove("the round is over")
    if isinstance(move, Sawa) and not d.ruleset.sawa:
        raise MalformedMove("this ruleset has no Sawa")  # S20: an unknown action type
    if seat != acting:
        raise IllegalMove("not_your_turn", f"it is seat {acting}'s turn")
    if isinstance(move, Play):
        if phase is not _PLAYING:
            raise IllegalMove("illegal_call", "cards are played only after bidding and doubling")
        play_card(d, seat, move)
    elif isinstance(move, Bid):
        if phase is not _BIDDING:
            raise IllegalMove("illegal_call", "the bidding is over")
        make_bid(d, seat, move)
    elif isinstance(move, Double):
        if phase is not _DOUBLING:
            raise IllegalMove("illegal_call", "doubling calls are made only after the bidding")
        make_double(d, seat, move)
    elif isinstance(move, Declare):
        _declare(d, seat, move)
    elif isinstance(move, Sawa):
        if not _sawa_open(d.ruleset, phase, d.leader, d.trick, d.hands):
            raise IllegalMove(
                "illegal_call", "Sawa is called only to lead a trick, with at most 4 cards"
            )
        _sawa(d, seat, move)
    else:
        raise MalformedMove(f"not a move: {move!r}")


def _check_seat(seat: object) -> None:
    """Refuse anything but a seat 0-3 (an int, not a bool)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise MalformedMove(f"not a seat: {seat!r}")


def make_bid(d: StateDraft, seat: int, move: Bid) -> None:
    """R10-R20: ``seat``'s call, by the seat to act in the bidding."""
    bidding, face_up = d.bidding, d.face_up
    assert bidding is not None and face_up is not None
    result = bid_apply(bidding, move, face_up, d.ruleset)  # refuses before any change
    d.actions += ((seat, move),)
    if type(result) is Bidding:
        d.bidding = result
    elif result == REDEAL:
        end_round(d, None)
    else:
        assert isinstance(result, Contract)
        _after_bidding(d, result)


def _after_bidding(d: StateDraft, contract: Contract) -> None:
    # R9: stock cards in bidding order, 3 to each non-recipient, 2 (+ face-up) to the recipient.
    deck = d.deck
    hands = list(d.hands)
    for seat, first, second, third in _COMPLETION[d.dealer][contract.recipient]:
        hands[seat] |= 1 << deck[first] | 1 << deck[second] | 1 << deck[third]
    if doubling_allowed(contract, d.scores, d.ruleset):
        d.ladder = ladder_start(contract)
        d.phase = _DOUBLING
    else:
        d.ladder = _NO_LADDER
        d.phase = _PLAYING
    d.hands = (hands[0], hands[1], hands[2], hands[3])
    d.bidding = None
    d.contract = contract
    d.leader = first_leader(d.ruleset, contract, d.dealer)
    # R32: Hokum only, one player's K and Q.
    d.baloot_seat = baloot_holder(hands, contract.trump)


def _completion(dealer: int, recipient: int) -> tuple[tuple[int, int, int, int], ...]:
    """R9 for one dealer and card recipient: (seat, three deck indexes) per seat, the
    face-up card (D[20]) being the recipient's third."""
    out = []
    position = 21
    for seat in bidding_order(dealer):
        if seat == recipient:
            out.append((seat, position, position + 1, 20))
            position += 2
        else:
            out.append((seat, position, position + 1, position + 2))
            position += 3
    return tuple(out)


_COMPLETION = tuple(tuple(_completion(dealer, r) for r in range(4)) for dealer in range(4))

# The ladder of a round that was never doubled (R22: a Sun nobody may double).
_NO_LADDER = Ladder(rung=None, queue=())


def make_double(d: StateDraft, seat: int, move: Double) -> None:
    """R21-R24 (S8-S11): ``seat``'s doubling call, by the seat to act on the ladder."""
    contract, ladder, ruleset = d.contract, d.ladder, d.ruleset
    assert contract is not None and ladder is not None
    move = normalize_double(move, ladder, contract, ruleset)
    ladder = ladder_apply(ladder, move, contract, ruleset)  # refuses before any change
    d.actions += ((seat, move),)
    d.ladder = ladder
    d.phase = _DOUBLING if ladder.rung is not None else _PLAYING


def _declare(d: StateDraft, seat: int, declare: Declare) -> None:
    acting = (d.leader + len(d.trick)) & 3
    if not _declaration_open(d.phase, d.tricks, acting, d.declarations, seat):
        raise IllegalMove(
            "invalid_project",
            "projects are declared once, on your first turn of trick 1, before you play",
        )
    contract = d.contract
    assert contract is not None
    validate_declaration(d.hands[seat], declare.projects, contract.mode)
    d.declarations += ((seat, declare.projects),)
    d.actions += ((seat, declare),)


def play_card(d: StateDraft, seat: int, move: Play) -> None:
    """R23, R26-R28, R32 (and S5-S7): the card leaves the hand; a fourth card closes the trick,
    the eighth trick the round. ``seat`` is the seat to act."""
    card = move.card
    bit = 1 << card
    hands = d.hands
    hand = hands[seat]
    if not hand & bit:
        raise IllegalMove("card_not_held", REFUSALS["card_not_held"])
    contract = d.contract
    assert contract is not None
    trump = contract.trump
    trick = d.trick
    ruleset = d.ruleset
    # R23's lock concerns leads only: a follow does not look it up.
    locked = not trick and round_locked(d.ladder, contract, ruleset)
    if not legal_play_mask(hand, trick, trump, locked, ruleset.compulsory_trumping) & bit:
        code = refusal_code(hand, trick, trump, card)
        raise IllegalMove(code, REFUSALS[code])
    hand ^= bit
    if seat == 0:
        d.hands = (hand, hands[1], hands[2], hands[3])
    elif seat == 1:
        d.hands = (hands[0], hand, hands[2], hands[3])
    elif seat == 2:
        d.hands = (hands[0], hands[1], hand, hands[3])
    else:
        d.hands = (hands[0], hands[1], hands[2], hand)
    d.actions += (SEAT_PLAYS[seat][card],)
    if seat == d.baloot_seat and trump is not None:
        # R32: announced when the second of the trump K and Q is played.
        pair = baloot_pair(trump)
        if bit & pair and not hand & pair:
            d.baloot_announced = True
    trick += (card,)
    if len(trick) < 4:
        d.trick = trick
        return
    # R27, R28, R6: the one definition of who takes a trick and what it is worth.
    done = len(d.tricks)
    leader = d.leader
    winner, abnat = close_trick(trick, leader, trump, done)
    a, b = d.abnat
    n0, n1 = d.trick_counts
    if winner & 1:
        d.abnat = (a, b + abnat)
        d.trick_counts = (n0, n1 + 1)
    else:
        d.abnat = (a + abnat, b)
        d.trick_counts = (n0 + 1, n1)
    d.trick = ()
    d.tricks += (Trick(leader, trick, winner, abnat),)
    d.leader = winner
    if done == TRICKS_PER_ROUND - 1:
        end_round(d, score_draft(d))


# The log entry (seat, move) of every card play, made once.
SEAT_PLAYS = tuple(tuple((seat, PLAYS[card]) for card in range(32)) for seat in range(4))


def _sawa(d: StateDraft, seat: int, sawa: Sawa) -> None:
    """S21-S24: judge the claim with every hand known and end the round either way."""
    contract, ruleset, ladder = d.contract, d.ruleset, d.ladder
    assert contract is not None
    trump = contract.trump
    locked = round_locked(ladder, contract, ruleset)
    valid = sawa_holds(d.hands, seat, trump, locked, ruleset.compulsory_trumping)
    abnat, counts = d.abnat, d.trick_counts
    if valid:
        # S23: the claimant's team takes the rest as if played out, the last-trick 10 too.
        team = seat % 2
        gained = remaining_abnat(d.hands, trump) + LAST_TRICK_BONUS
        remaining = TRICKS_PER_ROUND - len(d.tricks)
        abnat = (abnat[0] + gained, abnat[1]) if team == 0 else (abnat[0], abnat[1] + gained)
        counts = (
            (counts[0] + remaining, counts[1]) if team == 0 else (counts[0], counts[1] + remaining)
        )
    result = _score(
        contract,
        ruleset,
        abnat,
        counts,
        d.declarations,
        d.dealer,
        d.baloot_seat,
        ladder,
        SawaClaim(seat=seat, valid=valid),
    )
    d.actions += ((seat, sawa),)
    end_round(d, result, revealed=d.hands)


def score_draft(d: StateDraft) -> RoundResult:
    """``score_state`` of the state ``d`` is the draft of."""
    contract = d.contract
    assert contract is not None
    return _score(
        contract,
        d.ruleset,
        d.abnat,
        d.trick_counts,
        d.declarations,
        d.dealer,
        d.baloot_seat,
        d.ladder,
    )


def end_round(
    d: StateDraft,
    result: RoundResult | None,
    revealed: tuple[int, int, int, int] | None = None,
) -> None:
    """Close the round (R42, R43, R19): totals, match end, the deal passes to the dealer's
    right. The draft becomes what ``new_match`` would make with these totals and this history:
    every per-round field back to GameState's default. ``result`` None is a redeal."""
    redeal = result is None
    result = REDEAL_RESULT if result is None else result
    scores = (d.scores[0] + result.points[0], d.scores[1] + result.points[1])
    ladder, contract = d.ladder, d.contract
    log = RoundLog(
        number=d.round_no,
        dealer=d.dealer,
        deck=d.deck,
        actions=tuple(d.actions),
        contract=contract,
        multiplier=round_multiplier(ladder),
        gahwa=round_gahwa(ladder),
        locked=round_locked(ladder, contract, d.ruleset),
        tricks=d.tricks,
        result=result,
        status=_REDEAL if redeal else _COMPLETE,
        scores_after=scores,
        revealed_hands=revealed,
    )
    winner: int | None = None
    if result.gahwa_winner is not None:
        winner = result.gahwa_winner
    elif not redeal and max(scores) >= d.target and scores[0] != scores[1]:
        # R42: only a complete round can end the match; a redeal (R19) ends nothing.
        winner = 0 if scores[0] > scores[1] else 1
    d.scores = scores
    d.dealer = (d.dealer + 1) % 4
    d.phase = _FINISHED if winner is not None else _DEAL
    d.deck = ()
    d.hands = (0, 0, 0, 0)
    d.face_up = None
    d.bidding = None
    d.contract = None
    d.ladder = None
    d.leader = 0
    d.trick = ()
    d.tricks = ()
    d.abnat = (0, 0)
    d.trick_counts = (0, 0)
    d.declarations = ()
    d.baloot_seat = None
    d.baloot_announced = False
    d.actions = ()
    d.history += (log,)
    d.winner = winner
