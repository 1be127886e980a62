"""Match snapshots become the engine's versioned snapshot instead of a pickle.

A pickle names the engine's classes and their layout, so it breaks silently when they change;
the versioned snapshot names every field (``engine.state_to_snapshot``). The column stays
binary (it holds the snapshot's UTF-8 bytes), so nothing is cast: on PostgreSQL a cast of
``bytea`` to ``text`` would give the hex escape of the bytes, not the JSON.

Each pickle is loaded with the current engine classes, which are the ones that wrote it. One
that does not load as a state is rebuilt from the decks and the move log instead, the truth a
snapshot caches. ``manage.py rebuild_snapshots --check`` compares every snapshot with that
truth afterwards. The reverse writes pickles again, for the code before this change.

This is the only place that reads a pickle: ``Match.load_state`` refuses them.
"""

from __future__ import annotations

import pickle  # noqa: S403 - our own rows, written by our own code (see above)
from typing import Any

from django.db import migrations

BATCH = 500


def _pks(apps: Any) -> list[int]:
    Match = apps.get_model("games", "Match")
    return list(Match.objects.exclude(snapshot=None).order_by("pk").values_list("pk", flat=True))


def _batches(pks: list[int]) -> Any:
    # Primary keys first, then rows a batch at a time: SQLite does not isolate a query being
    # iterated from updates on the same connection, and a big table need not fit in memory.
    for start in range(0, len(pks), BATCH):
        yield pks[start : start + BATCH]


def _rebuilt(apps: Any, match: Any) -> Any:
    from games.replay import state_from_rows

    Round = apps.get_model("games", "Round")
    Move = apps.get_model("games", "Move")
    return state_from_rows(
        ruleset=match.ruleset,
        dealer=match.first_dealer,
        target=match.target,
        rounds=list(
            Round.objects.filter(match_id=match.pk).order_by("number").values_list("number", "deck")
        ),
        moves=Move.objects.filter(match_id=match.pk)
        .order_by("seq")
        .values_list("round_number", "seat", "payload"),
    )


def _from_pickle(raw: bytes) -> Any:
    from games import engine

    try:
        state = pickle.loads(raw)  # noqa: S301 - see the module docstring
        if not isinstance(state, engine.GameState):
            return None
        engine.state_to_snapshot(state)  # a state with a field missing fails here
    except Exception:  # noqa: BLE001 - any failure means "rebuild it from the log"
        return None
    return state


def pickles_to_snapshots(apps: Any, schema_editor: Any) -> None:
    from games import engine

    Match = apps.get_model("games", "Match")
    for pks in _batches(_pks(apps)):
        for match in Match.objects.filter(pk__in=pks).only(
            "pk", "snapshot", "ruleset", "first_dealer", "target"
        ):
            raw = bytes(match.snapshot)
            try:
                engine.snapshot_version(raw)
                continue  # already a snapshot
            except engine.SnapshotError:
                pass
            state = _from_pickle(raw)
            if state is None:
                state = _rebuilt(apps, match)
            # update(), not save(): the row's other columns (updated_at) stay as they were.
            Match.objects.filter(pk=match.pk).update(snapshot=engine.state_to_snapshot(state))


def snapshots_to_pickles(apps: Any, schema_editor: Any) -> None:
    from games import engine

    Match = apps.get_model("games", "Match")
    for pks in _batches(_pks(apps)):
        for pk, snapshot in Match.objects.filter(pk__in=pks).values_list("pk", "snapshot"):
            state = engine.state_from_snapshot(bytes(snapshot))
            raw = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
            Match.objects.filter(pk=pk).update(snapshot=raw)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_moderation_moves_to_its_own_app"),
    ]

    operations = [
        migrations.RunPython(pickles_to_snapshots, snapshots_to_pickles, elidable=True),
    ]
