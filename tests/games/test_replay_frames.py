"""The replay viewer's frames (games/admin/replay.py) against a round really played: every
frame holds the 32 cards once, each step is one logged move, the tricks, projects and result
are the engine's and the round row's, and the analysis' loss of each decision shows at the
step of its move. Redeals, a Sawa and a damaged log too, straight from the engine."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games import engine
from games.admin.pages import move_text
from games.admin.replay import NO_ANALYSIS, Replay, replay_frames, round_replay
from games.engine.cards import card_str, parse_card
from games.engine.codec.moves import move_to_dict
from games.engine.codec.record_format import trick_to_dict
from games.engine.selfplay import shuffled_deck
from games.models import AnalysisStatus, Match, MatchAnalysis, Move, Round, RoundStatus
from tests.support.api import HOKUM_BIDS
from tests.support.replay import Table, analysis_make, frame_cards, replay_match

pytestmark = pytest.mark.django_db

FULL_DECK = {card_str(c) for c in range(32)}


@pytest.fixture
def match(table: Table, monkeypatch: pytest.MonkeyPatch) -> Match:
    return replay_match(table, monkeypatch)


def frames_of(match: Match, number: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = round_replay(
        match, Round.objects.get(match=match, number=number)
    )["frames"]
    return frames


def payloads(match: Match, number: int) -> list[tuple[int, dict[str, Any]]]:
    moves = Move.objects.filter(match=match, round_number=number).order_by("seq")
    return [(m.seat, m.payload) for m in moves]


def assert_every_card_once(frames: list[dict[str, Any]]) -> None:
    for frame in frames:
        cards = frame_cards(frame)
        assert set(cards) == FULL_DECK and set(cards.values()) == {1}, frame["step"]


def test_each_step_is_one_logged_move_and_every_frame_holds_the_32_cards_once(
    match: Match,
) -> None:
    logged = payloads(match, 1)
    frames = frames_of(match, 1)
    assert len(frames) == len(logged) + 1
    assert frames[0]["move"] == "" and frames[0]["phase"] == "bidding"
    assert [len(hand) for hand in frames[0]["hands"]] == [5, 5, 5, 5]  # R8
    assert frames[0]["face_up"] == "KH" and len(frames[0]["stock"]) == 11
    for frame, (seat, payload) in zip(frames[1:], logged, strict=True):
        assert (frame["seat"], frame["move"]) == (seat, move_text(payload))
    assert_every_card_once(frames)
    # A card played leaves its player's hand at that step, and no other card moves.
    for before, after in itertools.pairwise(frames):
        if after["move"].startswith("play "):
            card = after["move"].split()[1]
            seat = after["seat"]
            assert set(before["hands"][seat]) - set(after["hands"][seat]) == {card}
            others = [h for s, h in enumerate(after["hands"]) if s != seat]
            assert others == [h for s, h in enumerate(before["hands"]) if s != seat]


def test_the_tricks_projects_and_result_are_the_engines_and_the_round_rows(match: Match) -> None:
    rnd = Round.objects.get(match=match, number=1)
    assert rnd.status == RoundStatus.COMPLETE and rnd.result is not None
    frames = frames_of(match, 1)
    # The engine's one replay of the whole log (its fast path), against the frames' move-by-
    # move ``apply``: the same tricks, leaders, winners and abnat.
    rules = engine.get_ruleset(match.ruleset)
    before = engine.new_match(rules, dealer=rnd.dealer, target=match.target)
    moves = [(s, engine.move_from_dict(p, rules)) for s, p in payloads(match, 1)]
    log = engine.replay_round(before, [parse_card(c) for c in rnd.deck], moves).history[-1]
    last = frames[-1]
    assert [
        {
            **{k: t[k] for k in ("leader", "winner", "abnat")},
            "cards": [c["card"] for c in t["cards"]],
        }
        for t in last["tricks"]
    ] == [trick_to_dict(t) for t in log.tricks]
    # Each card of a trick by the seat that played it, the leader first.
    for trick in last["tricks"]:
        seats = [c["seat"] for c in trick["cards"]]
        assert seats[0] == trick["leader"] and sorted(seats) == [0, 1, 2, 3]
    # The fourth card of each trick shows the trick closed, with its winner.
    closing = [f for f in frames if f["trick"]["closed"]]
    assert [f["trick"]["winner"] for f in closing] == [t.winner for t in log.tricks]
    assert all(len(f["trick"]["cards"]) == 4 for f in closing)
    # The score line ends on the round row's result and the totals after it.
    assert last["phase"] == "complete" and last["hands"] == [[], [], [], []]
    assert last["score"]["points"] == rnd.result["points"]
    assert last["score"]["abnat"] == rnd.result["abnat"]
    assert last["score"]["card_points"] == rnd.result["card_points"]
    assert last["score"]["after"] == rnd.scores_after and last["score"]["before"] == [0, 0]
    assert last["end"] == "Complete"
    # Seat 2's Hokum in hearts, its sira of spades (R29) and its Baloot (R32).
    assert last["contract"] == "Hokum Hearts by seat 2"
    calls = [(c["seat"], c["text"]) for c in last["calls"]]
    assert calls[:6] == [(s, f"bid {call}") for s, call in HOKUM_BIDS]
    assert {text for _, text in calls[6:]} == {"double pass"}  # then nobody doubled
    declared = [(p["seat"], p["kind"]) for p in rnd.result["projects"]["declared"]]
    assert declared == [(2, "sira")]
    assert [(p["seat"], p["text"].split()[0]) for p in last["projects"]] == declared
    assert last["baloot"] == rnd.result["baloot"] == [2]
    # Projects show from the step they are declared; Baloot once the pair is played.
    step = next(f["step"] for f in frames if f["move"].startswith("declare"))
    assert [f["projects"] != [] for f in frames] == [f["step"] >= step for f in frames]


def test_a_round_in_play_replays_up_to_its_last_move(match: Match) -> None:
    frames = frames_of(match, 2)
    assert Round.objects.get(match=match, number=2).status == RoundStatus.IN_PROGRESS
    assert len(frames) == len(payloads(match, 2)) + 1 == 4
    assert frames[-1]["phase"] in ("bidding", "doubling", "playing")
    assert frames[-1]["score"]["points"] is None and frames[-1]["score"]["after"] is None
    assert_every_card_once(frames)


def test_the_analysis_loss_of_each_decision_shows_at_the_step_of_its_move(match: Match) -> None:
    assert round_replay(match, Round.objects.get(match=match, number=1))["analysis"] == NO_ANALYSIS
    stored = analysis_make(match)
    replay = round_replay(match, Round.objects.get(match=match, number=1))
    assert replay["analysis"] == AnalysisStatus.READY
    frames = replay["frames"]
    mine = {d[1]: d for d in stored if d[0] == 1}
    assert mine and any(d[0] == 2 for d in stored)  # round 2's stay in round 2
    for frame in frames:
        decision = frame["decision"]
        if frame["action"] not in mine:
            assert decision is None, frame["step"]
            continue
        _, _, seat, _kind, chosen, best, chosen_value, best_value, _ = mine[frame["action"]]
        # The decision valued is the move made at this step, by this seat.
        assert (
            (decision["seat"], decision["chosen"])
            == (seat, frame["move"])
            == (
                frame["seat"],
                move_text(chosen),
            )
        )
        assert decision["best"] == move_text(best)
        assert decision["loss"] == pytest.approx(max(0.0, best_value - chosen_value), abs=1e-3)
    assert any(f["decision"] and f["decision"]["loss"] > 0 for f in frames)

    # Pending again (as it opens): no loss anywhere, and the viewer says so.
    MatchAnalysis.objects.filter(match=match).update(status=AnalysisStatus.PENDING)
    replay = round_replay(match, Round.objects.get(match=match, number=1))
    assert replay["analysis"] == AnalysisStatus.PENDING
    assert all(f["decision"] is None for f in replay["frames"])


def _engine_round(
    ruleset: engine.Ruleset, seed: int, choose: Any
) -> tuple[list[str], list[tuple[int, dict[str, Any]]], engine.RoundLog]:
    """A round played by ``choose(state, legal, rng)`` in the engine alone: its deck, its
    moves as the log stores them, and the engine's log of it."""
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    state = engine.start_round(engine.new_match(ruleset, dealer=0), deck)
    moves = []
    while state.phase in (engine.Phase.BIDDING, engine.Phase.DOUBLING, engine.Phase.PLAYING):
        seat = engine.to_act(state)
        assert seat is not None
        move = choose(state, engine.legal_moves(state), rng)
        moves.append((seat, move_to_dict(move)))
        state = engine.apply(state, seat, move)
    return [card_str(c) for c in deck], moves, state.history[-1]


def _frames(ruleset: engine.Ruleset, deck: list[str], moves: list[Any]) -> Replay:
    return replay_frames(
        ruleset=ruleset.name, dealer=0, scores=(0, 0), target=152, deck=deck, moves=moves
    )


def test_a_redeal_ends_with_the_hands_dealt_and_the_stock() -> None:
    """R19: four passes twice; nothing is dealt beyond the five cards each."""
    deck, moves, log = _engine_round(
        engine.GAMERULES, 1, lambda state, legal, rng: engine.Bid(engine.Call.PASS)
    )
    assert log.status is engine.RoundStatus.REDEAL
    replay = _frames(engine.GAMERULES, deck, moves)
    last = replay.frames[-1]
    assert replay.refused is None and last["phase"] == "redeal" and last["end"] == "Redeal"
    assert [len(h) for h in last["hands"]] == [5, 5, 5, 5] and len(last["stock"]) == 11
    assert last["score"]["points"] == [0, 0] and len(last["calls"]) == 8
    assert_every_card_once(replay.frames)


def _sawa_when_open(state: engine.GameState, legal: list[engine.Move], rng: random.Random) -> Any:
    if any(isinstance(m, engine.Sawa) for m in legal):
        return engine.Sawa()
    return rng.choice([m for m in legal if not isinstance(m, engine.Double)] or legal)


def test_a_sawa_ends_with_the_hands_it_revealed() -> None:
    """S21: the hands still held when Sawa is called are shown at its step."""
    for seed in range(50):
        deck, moves, log = _engine_round(engine.SAUDI, seed, _sawa_when_open)
        if log.result.sawa is not None:
            break
    else:  # pragma: no cover - the seeds above hold one
        pytest.fail("no Sawa in 50 random saudi rounds")
    replay = _frames(engine.SAUDI, deck, moves)
    last = replay.frames[-1]
    assert last["move"] == "sawa" and log.revealed_hands is not None
    assert sum(len(h) for h in last["hands"]) == sum(h.bit_count() for h in log.revealed_hands)
    assert last["hands"][last["seat"]]  # the claimant still held cards
    assert "Sawa by seat" in last["end"]
    assert last["score"]["points"] == list(log.result.points)
    assert_every_card_once(replay.frames)


def test_a_damaged_log_replays_up_to_the_move_refused() -> None:
    deck, moves, _ = _engine_round(engine.GAMERULES, 2, lambda state, legal, rng: rng.choice(legal))
    bidding = next(i for i, (_, m) in enumerate(moves) if m["type"] == "play")
    damaged = [*moves[:bidding], (moves[bidding][0], {"type": "play", "card": "7X"})]
    replay = _frames(engine.GAMERULES, deck, damaged)
    assert len(replay.frames) == bidding + 1
    assert replay.refused is not None and replay.refused.startswith(f"move {bidding}: ")
