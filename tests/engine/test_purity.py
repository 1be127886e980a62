"""The engine is pure: no Django, no app modules (rules.md R2: the deck comes from the caller;
the engine decides every rule R1-R43 deterministically). That it uses no global randomness is a
source check: ``engine-random`` in scripts/check_source.py (make lint)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE_DIR = Path(games.engine.__file__).parent
REPO = ENGINE_DIR.parent.parent

# Imports every engine module (``__main__`` excluded: importing it is running the CLI) and
# prints the names of all loaded modules.
PROBE = """
import importlib, json, pkgutil, sys
import games.engine as engine
names = ["games.engine"]
for info in pkgutil.walk_packages(engine.__path__, "games.engine."):
    if info.name.rsplit(".", 1)[-1] != "__main__":
        importlib.import_module(info.name)
        names.append(info.name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def test_importing_the_engine_loads_no_django_or_app_modules() -> None:
    """Importing games.engine and every submodule (bots included) pulls in no django*,
    rest_framework, celery, nor any games.* module outside games.engine."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "games.engine.state" in report["imported"]
    assert "games.engine.scoring" in report["imported"]
    forbidden = [
        name
        for name in report["loaded"]
        if name.split(".")[0] in {"django", "rest_framework", "celery", "accounts", "baloot_site"}
        or (name.startswith("games.") and not name.startswith("games.engine"))
    ]
    assert forbidden == []
