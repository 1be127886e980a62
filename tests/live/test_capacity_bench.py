"""bench.capacity's smoke: one tiny step of the ramp (a four-human table and a bot table, a
spectator each, humans moving from their streams) against the suite's server and worker, and
the lines the bench prints."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from bench.capacity import Config, ramp
from tests.support.live import ThreadServer
from tests.support.workers import WorkerProcess

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_one_step_of_the_ramp_plays_and_names_the_tables_it_sustained(
    stream_server: ThreadServer,
    worker: WorkerProcess,
    no_throttling: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = Config(
        steps=[2], hold=3.0, settle=1.0, think=0.3, jitter=0.1, bot_share=0.5, spectators=1
    )
    # Generous limits: this checks that the bench plays and reports, not this machine's speed.
    config.move_p95_ms = config.lag_p95_ms = 60_000
    sustained = asyncio.run(ramp(config, [stream_server.http], time.time() + 30, None))
    worker.kill9()  # done with it: a warm shutdown would only cost the suite seconds
    out = capsys.readouterr().out
    step: Any = re.search(r"^\s+2 \(1/1\)\s+7 clients\s+moves/s\s+([\d.]+)", out, re.M)
    assert step, out
    assert float(step.group(1)) > 0, out  # moves were committed while it held
    assert re.search(r"^largest sustained: (0|2) tables \(\d+ players, \d+ streams\)$", out, re.M)
    assert sustained in (0, 2)
