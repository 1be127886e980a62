"""The engine is pure: no Django, no app modules, no global randomness (rules.md R2: the
deck comes from the caller; the engine decides every rule R1-R43 deterministically)."""

from __future__ import annotations

import ast
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


def _global_random_uses(source: str) -> list[str]:
    """Uses of the ``random`` module other than constructing ``random.Random``."""
    tree = ast.parse(source)
    bad: list[str] = []
    aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "random"}
        elif isinstance(node, ast.ImportFrom) and node.module == "random":
            bad += [f"from random import {a.name}" for a in node.names if a.name != "Random"]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr != "Random"
        ):
            bad.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
    return bad


def test_the_checker_catches_global_random() -> None:
    """The source check below really flags the module-level random functions."""
    assert _global_random_uses("import random\nrandom.shuffle(x)\n")
    assert _global_random_uses("import random as r\nr.choice(x)\n")
    assert _global_random_uses("from random import randint\n")
    assert not _global_random_uses("import random\nrng = random.Random(7)\nrng.shuffle(x)\n")


def test_engine_source_never_uses_global_random() -> None:
    """Only injected ``random.Random`` instances are allowed anywhere in games/engine."""
    sources = sorted(ENGINE_DIR.rglob("*.py"))
    assert ENGINE_DIR / "state.py" in sources
    offenders = {
        str(path.relative_to(ENGINE_DIR)): uses
        for path in sources
        if (uses := _global_random_uses(path.read_text()))
    }
    assert offenders == {}
