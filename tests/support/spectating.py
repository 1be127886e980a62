"""What a spectator may not see yet, from the server's true state (the rule of
games/selectors/spectating.py, restated independently for the tests)."""

from __future__ import annotations

from games import engine
from games.engine.cards import card_str, cards_of


def hidden_from_spectator(state: engine.GameState) -> set[str]:
    """The card names a spectator must not see now: every hand, the stock while bidding, the
    trick in progress and the last complete trick, and declared cards until trick 2 is
    complete; less the face-up card (public all round)."""
    hidden: set[int] = set()
    for hand in state.hands:
        hidden.update(cards_of(hand))
    if state.phase is engine.Phase.BIDDING:
        hidden.update(state.deck[21:])
    hidden.update(state.trick)
    if state.tricks:
        hidden.update(state.tricks[-1].cards)
    for _, projects in state.declarations:
        for project in projects:
            if len(state.tricks) < 2:
                hidden.update(project.cards)
            else:
                hidden.difference_update(project.cards)
    if state.face_up is not None:
        hidden.discard(state.face_up)
    return {card_str(c) for c in hidden}
