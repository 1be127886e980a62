"""scripts/check_source.py's checks (make lint) catch what they are there for: each one is run
on a small tree under tmp_path holding a bad case, and on the same tree made good."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scripts import check_source
from scripts.check_source import (
    CATALOG,
    SAUDI_TESTS,
    WORKED_EXAMPLES,
    bot_observations,
    engine_random,
    gettext_catalog,
    global_random_uses,
    main,
    saudi_citations,
    unraised_codes,
    wrapped_texts,
)

ROOT = Path(check_source.__file__).resolve().parent.parent


def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)


def test_saudi_citations_finds_an_uncited_rule_and_an_unnamed_worked_example(
    tmp_path: Path,
) -> None:
    rules = "\n".join(f"def test_S{n}_rule() -> None:\n    pass\n" for n in range(1, 30))
    examples = "\n".join(
        f'def test_{e}_example() -> None:\n    """S30 too."""\n' for e in WORKED_EXAMPLES[:-1]
    )
    _write(tmp_path, f"{SAUDI_TESTS}/test_rules.py", rules)
    _write(tmp_path, f"{SAUDI_TESTS}/test_examples.py", examples)
    assert saudi_citations(tmp_path) == [
        f"no test of {SAUDI_TESTS} is named after {WORKED_EXAMPLES[-1]} "
        f"(test_{WORKED_EXAMPLES[-1]}_...)"
    ]
    # A rule cited as part of a longer number or word is not cited (the longer number is built,
    # not written, so that make lint's id check does not read it as a citation).
    longer = "S30" + "0"
    _write(tmp_path, f"{SAUDI_TESTS}/test_examples.py", examples.replace("S30", f"{longer} XS30"))
    assert f"no test of {SAUDI_TESTS} cites S30" in saudi_citations(tmp_path)
    _write(tmp_path, f"{SAUDI_TESTS}/test_last.py", f"def test_{WORKED_EXAMPLES[-1]}_S30(): ...\n")
    assert saudi_citations(tmp_path) == []


def test_the_checker_catches_global_random() -> None:
    """The engine-random check really flags the module-level random functions."""
    assert global_random_uses("import random\nrandom.shuffle(x)\n")
    assert global_random_uses("import random as r\nr.choice(x)\n")
    assert global_random_uses("from random import randint\n")
    assert not global_random_uses("import random\nrng = random.Random(7)\nrng.shuffle(x)\n")


def test_engine_random_names_the_module_and_insists_on_seeing_the_engine(tmp_path: Path) -> None:
    assert engine_random(tmp_path) == ["games/engine/state.py is not where the check looks"]
    _write(tmp_path, "games/engine/state.py", "import random\nrng = random.Random(1)\n")
    assert engine_random(tmp_path) == []
    _write(tmp_path, "games/engine/bots/easy.py", "import random\nrandom.shuffle([])\n")
    assert engine_random(tmp_path) == [
        "games/engine/bots/easy.py uses the global random: random.shuffle (line 2)"
    ]


GOOD_CALLS = """
def play(state, seat, rng):
    obs = observation(state, seat)
    choose_move("easy", obs, rng)
    choose_move("easy", observation(state, seat), rng)
    return bots.choose_move("normal", obs, rng) or choose_move("hard", obs, rng)
"""


def test_bot_observations_finds_a_bot_handed_the_state(tmp_path: Path) -> None:
    _write(tmp_path, "games/services/turns.py", GOOD_CALLS)
    assert bot_observations(tmp_path) == []
    _write(tmp_path, "bench/bots.py", "def f(state, rng):\n    choose_move('easy', state, rng)\n")
    _write(tmp_path, "games/engine/selfplay.py", "def g(bots, state):\n    bots[0](state)\n")
    assert sorted(bot_observations(tmp_path)) == [
        "bench/bots.py:2 hands a bot something else than an observation",
        "games/engine/selfplay.py:2 hands a bot something else than an observation",
    ]
    # The bots' own dispatch is theirs; and a check that sees no call says so.
    shutil.rmtree(tmp_path / "bench")
    shutil.rmtree(tmp_path / "games")
    _write(tmp_path, "games/engine/bots/api.py", "def h(o):\n    choose_move('easy', o)\n")
    assert bot_observations(tmp_path) == [
        "only 0 calls of a bot found: the check no longer sees them"
    ]


def test_unraised_codes_finds_a_code_no_class_call_and_no_literal_raises(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "games/errors.py",
        'GONE = "by_constant"\n'
        "def check(x):\n"
        '    if x:\n        return "by_return"\n'
        '    raise IllegalMove("by_argument", code=GONE)\n'
        'MAPPING = {KeyError: ("by_mapping", 400)}\n'
        "def f():\n    raise NotYourTurn()\n",
    )
    codes = ["by_argument", "by_constant", "by_return", "by_mapping", "by_class", "nowhere"]
    classes = {"by_class": "NotYourTurn", "nowhere": "NeverRaised"}
    assert unraised_codes(codes, classes, tmp_path) == ["nowhere"]


def test_gettext_catalog_finds_an_untranslated_text_and_an_f_string(tmp_path: Path) -> None:
    _write(tmp_path, "games/views.py", "from django.utils.translation import gettext as _\n")
    (tmp_path / CATALOG).mkdir(parents=True)
    shutil.copy(ROOT / CATALOG / "django.mo", tmp_path / CATALOG / "django.mo")
    assert gettext_catalog(tmp_path) == ["only 0 wrapped texts found: the scan no longer sees them"]
    _write(
        tmp_path,
        "games/views.py",
        "def f(name):\n"
        '    a = _("A sentence no catalog holds")\n'
        '    b = _(f"Hello {name}")\n'
        '    c = pgettext(name, "ctx")\n',
    )
    _write(
        tmp_path,
        "games/templates/games/page.html",
        '{% translate "Nor this one" %}{% blocktranslate %}Hi {{ who }}{% endblocktranslate %}',
    )
    texts, problems = wrapped_texts(tmp_path)
    assert texts == [
        ("games/views.py:2", None, "A sentence no catalog holds"),
        ("games/templates/games/page.html", None, "Nor this one"),
        ("games/templates/games/page.html", None, "Hi %(who)s"),
    ]
    assert problems == [
        "games/views.py:3: f-string in gettext",
        "games/views.py:4: the context of a pgettext is not a literal",
    ]
    found = gettext_catalog(tmp_path)
    assert "untranslated: games/views.py:2: 'A sentence no catalog holds'" in found
    assert "untranslated: games/templates/games/page.html: 'Hi %(who)s'" in found


def test_the_script_exits_1_on_a_finding_and_refuses_an_unknown_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["engine-random"], tmp_path) == 1
    assert "engine-random: games/engine/state.py" in capsys.readouterr().out
    _write(tmp_path, "games/engine/state.py", "")
    assert main(["engine-random"], tmp_path) == 0
    with pytest.raises(SystemExit):
        main(["no-such-check"])
