"""The bot levels a seat can be played at: the one definition the models, the API, the
services, moderation, the benches and the tests take.

A module of its own, importing no model, so that code running without Django set up (the
benches' command lines) can import it too. The engine keeps its own registry of the bots it can
play (``games.engine.bots.BOT_LEVELS``: these levels and ``random``, a test bot no seat takes),
since it may import nothing of the project; tests/api/test_bot_levels.py checks that every
level here is one the engine plays.
"""

from __future__ import annotations

from django.db import models


class BotLevel(models.TextChoices):
    EASY = "easy"
    NORMAL = "normal"
    # Thinks for about a second a decision (BALOOT["HARD_BOT_TIME_BUDGET"]), so its turns run
    # on a Celery queue of their own (games.tasks.HARD_BOT_QUEUE).
    HARD = "hard"
