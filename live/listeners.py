"""games.events (and players' invitations, cancelled rematches and chat) → notes for the streams
(live/relay.py). Runs inside the write transaction, in whichever process commits; reads only
seat ownership, writes only a relay row (table relay)."""

from __future__ import annotations

from core import events
from games import events as game_events
from games.models import Seat
from live import relay
from players import events as player_events
from tournaments import events as tournament_events


def _humans(match_id: int) -> list[int]:
    return list(
        Seat.objects.filter(match_id=match_id, user__isnull=False)
        .values_list("user_id", flat=True)
        .distinct()
    )


def on_version(event: game_events.VersionCommitted) -> None:
    relay.publish(relay.note_make(relay.VERSION, event.match_id, event.version))


def on_turn(event: game_events.TurnBegan) -> None:
    relay.publish(
        relay.note_make("your_turn", event.match_id, event.version, event.user_id, event.deadline)
    )


def on_started(event: game_events.MatchStarted) -> None:
    for user_id in _humans(event.match_id):
        relay.publish(relay.note_make("match_started", event.match_id, event.version, user_id))


def on_finished(event: game_events.MatchFinished) -> None:
    for user_id in _humans(event.match_id):
        relay.publish(relay.note_make("match_finished", event.match_id, event.version, user_id))


def on_analysis_ready(event: game_events.AnalysisReady) -> None:
    # GET /matches/{id}/analysis has it now; the event says only which match.
    for user_id in _humans(event.match_id):
        relay.publish(relay.note_make("analysis_ready", event.match_id, event.version, user_id))


def on_seat_to_bot(event: game_events.SeatHandedToBot) -> None:
    if event.user_id is not None:
        relay.publish(relay.note_make("seat_to_bot", event.match_id, event.version, event.user_id))


def on_invitation(event: player_events.InvitationSent) -> None:
    # The match's id and version only: the invitee reads the invitation over HTTP.
    relay.publish(relay.note_make("invitation", event.match_id, event.version, event.invitee_id))


def on_rematch_cancelled(event: player_events.RematchCancelled) -> None:
    # The finished match's id and version only: who could no longer play, and why, stay out.
    for user_id in event.user_ids:
        relay.publish(relay.note_make("rematch_cancelled", event.match_id, event.version, user_id))


def on_chat(event: player_events.ChatSent) -> None:
    relay.publish(relay.note_make(relay.CHAT, event.match_id, None, chat_id=event.message_id))


def on_tournament_round(event: tournament_events.TournamentRoundStarted) -> None:
    for user_id in event.user_ids:
        relay.publish(
            relay.note_make(
                "tournament_round_started",
                None,
                None,
                user_id,
                tournament_id=event.tournament_id,
                round=event.round,
            )
        )


def on_tournament_match(event: tournament_events.TournamentMatchReady) -> None:
    for user_id in event.user_ids:
        relay.publish(
            relay.note_make(
                "tournament_match_ready",
                event.match_id,
                None,
                user_id,
                tournament_id=event.tournament_id,
                round=event.round,
            )
        )


def on_tournament_finished(event: tournament_events.TournamentFinished) -> None:
    for user_id in event.user_ids:
        relay.publish(
            relay.note_make(
                "tournament_finished", None, None, user_id, tournament_id=event.tournament_id
            )
        )


def connect() -> None:
    events.subscribe(game_events.VersionCommitted, on_version)
    events.subscribe(game_events.TurnBegan, on_turn)
    events.subscribe(game_events.MatchStarted, on_started)
    events.subscribe(game_events.MatchFinished, on_finished)
    events.subscribe(game_events.SeatHandedToBot, on_seat_to_bot)
    events.subscribe(game_events.AnalysisReady, on_analysis_ready)
    events.subscribe(player_events.InvitationSent, on_invitation)
    events.subscribe(player_events.RematchCancelled, on_rematch_cancelled)
    events.subscribe(player_events.ChatSent, on_chat)
    events.subscribe(tournament_events.TournamentRoundStarted, on_tournament_round)
    events.subscribe(tournament_events.TournamentMatchReady, on_tournament_match)
    events.subscribe(tournament_events.TournamentFinished, on_tournament_finished)
