"""Checks that read the source instead of running it (``make lint`` runs them all).

    .venv/bin/python scripts/check_source.py            # every check
    .venv/bin/python scripts/check_source.py NAME ...   # the named ones

Each check walks files of the repository (Python source parsed with ``ast``, templates, the
Arabic catalog) and returns its findings, one sentence each; the script prints them and exits
1 if there is any. They were tests once; they moved here because they run no code of the
project, so they belong with ruff and mypy rather than in the test tiers (tests/README.md, "Tiers").
tests/scripts/test_check_source.py proves that each one catches a bad case.
"""

from __future__ import annotations

import argparse
import ast
import gettext
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

Check = Callable[[Path], list[str]]


# --- saudi-citations: rules-saudi.md's rules and worked examples have their tests ------------

SAUDI_TESTS = Path("tests/engine/saudi")
SAUDI_RULES = range(1, 31)
# rules-saudi.md S.10, in its order.
WORKED_EXAMPLES = [
    "SE02",
    "SE05",
    "SE06",
    "SE08",
    "SE10",
    "SE13",
    "SE16",
    "SE18",
    "SE19",
    "SE20",
    "SE25",
    "SE28",
    "SE33",
    "SE34",
    "SE38",
    "SE41",
    "SE43",
    "SE44",
    "SE50",
    "SE53",
    "SE59",
    "SE61",
    "SE65",
]


def _test_functions(folder: Path) -> list[tuple[str, str]]:
    """(name, docstring) of every test function in the ``test_*.py`` files of ``folder``."""
    out = []
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append((node.name, ast.get_docstring(node) or ""))
    return out


def saudi_citations(root: Path) -> list[str]:
    """Every rule S1-S30 of rules-saudi.md is cited by a test of tests/engine/saudi (in its
    name or docstring), and every worked example of its section S.10 has a test named after
    it (``test_SE02_...``)."""
    tests = _test_functions(root / SAUDI_TESTS)
    cited: set[int] = set()
    for name, doc in tests:
        cited |= {int(n) for n in re.findall(r"(?<![A-Z0-9])S(\d{1,2})(?!\d)", f"{name} {doc}")}
    problems = [f"no test of {SAUDI_TESTS} cites S{n}" for n in sorted(set(SAUDI_RULES) - cited)]
    names = " ".join(name for name, _ in tests)
    problems += [
        f"no test of {SAUDI_TESTS} is named after {e} (test_{e}_...)"
        for e in WORKED_EXAMPLES
        if f"test_{e}_" not in names
    ]
    return problems


# --- engine-random: the engine never uses the global random (rules.md R2) -------------------

ENGINE = Path("games/engine")


def global_random_uses(source: str) -> list[str]:
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


def engine_random(root: Path) -> list[str]:
    """Only injected ``random.Random`` instances are allowed anywhere in games/engine: the
    deck and the bots' choices come from the caller's generator (rules.md R2)."""
    engine = root / ENGINE
    sources = sorted(engine.rglob("*.py"))
    if engine / "state.py" not in sources:
        return [f"{ENGINE}/state.py is not where the check looks"]
    return [
        f"{ENGINE / path.relative_to(engine)} uses the global random: {', '.join(uses)}"
        for path in sources
        if (uses := global_random_uses(path.read_text()))
    ]


# --- bot-observations: a bot is only ever handed an observation ----------------------------


def _observation_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names bound in ``function`` to the result of an ``observation(...)`` call."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _is_observation_call(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _is_observation_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name == "observation"


def bot_observations(root: Path) -> list[str]:
    """Every ``choose_move`` call in the project (Django layer, benches, engine) passes, as the
    observation, an ``observation(state, seat)`` call or a name bound to one in the same
    function; selfplay's ``bots[seat](...)`` does the same. A bot that saw the state would
    see the other hands."""
    problems: list[str] = []
    calls = 0
    for path in [*(root / "games").rglob("*.py"), *(root / "bench").rglob("*.py")]:
        where = path.relative_to(root)
        if "bots" in where.parts[:3] and path.parent.name == "bots":
            continue  # the bots' own internals dispatch an observation they were given
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            bound = _observation_names(function)
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "choose_move":
                    obs = node.args[1] if len(node.args) > 1 else None
                elif isinstance(func, ast.Subscript) and path.name == "selfplay.py":
                    obs = node.args[0] if node.args else None
                else:
                    continue
                calls += 1
                if obs is None:
                    problems.append(f"{where}:{node.lineno} hands a bot no observation")
                elif not (
                    _is_observation_call(obs) or (isinstance(obs, ast.Name) and obs.id in bound)
                ):
                    problems.append(
                        f"{where}:{node.lineno} hands a bot something else than an observation"
                    )
    if calls < 4:
        problems.append(f"only {calls} calls of a bot found: the check no longer sees them")
    return problems


# --- error-codes: every published error code is raised somewhere ---------------------------

CODE_SOURCES = ("core", "accounts", "games", "moderation", "players", "tournaments", "baloot_site")


def code_uses(root: Path) -> tuple[set[str], set[str]]:
    """What the code base raises: the names of the classes it calls, and the strings it passes
    as arguments (``IllegalMove("illegal_call", ...)``, ``problem_response(413,
    "payload_too_large", ...)``, ``code=CODE``) or maps DRF's and Django's refusals to."""
    called: set[str] = set()
    strings: set[str] = set()
    for package in CODE_SOURCES:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            constants = {
                target.id: node.value.value
                for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                for target in node.targets
                if isinstance(target, ast.Name)
            }

            def value_of(node: ast.expr, constants: Mapping[str, object] = constants) -> object:
                if isinstance(node, ast.Constant):
                    return node.value
                if isinstance(node, ast.Name):
                    return constants.get(node.id)
                return None

            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    func = node.func
                    called.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
                    args = [*node.args, *(k.value for k in node.keywords)]
                    strings.update(v for v in map(value_of, args) if isinstance(v, str))
                elif isinstance(node, ast.Dict):  # the DRF exception -> code mapping
                    values = [
                        value_of(e)
                        for v in node.values
                        if v is not None
                        for e in (v.elts if isinstance(v, ast.Tuple) else [v])
                    ]
                    strings.update(v for v in values if isinstance(v, str))
                elif isinstance(node, ast.Return) and node.value is not None:
                    # The engine's checks return the refusal's code to the one raise that
                    # names it (``IllegalMove(..., code=code)``).
                    returned = value_of(node.value)
                    if isinstance(returned, str):
                        strings.add(returned)
    return called, strings


def unraised_codes(codes: list[str], classes: dict[str, str], root: Path) -> list[str]:
    """The ``codes`` that no call of a class (``classes``: code -> class name) raises and no
    literal of the source names."""
    called, strings = code_uses(root)
    raised = {code for code, name in classes.items() if name in called}
    return [code for code in codes if code not in raised | strings]


def error_codes(root: Path) -> list[str]:
    """Every code published in the schema's ErrorCodeEnum (baloot_site/errors.py) is raised
    somewhere: by a DomainError subclass the code calls, or as a literal the source passes
    or maps to. A published code nothing raises is a promise to clients that means nothing."""
    # The published codes are a registry built at import: the settings must be loaded, from
    # the tree being checked.
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    import django

    django.setup()
    from baloot_site.errors import ERROR_CODES
    from core.errors import domain_error_classes

    classes = {cls.code: cls.__name__ for cls in domain_error_classes()}
    return [
        f"the published error code {code!r} is raised nowhere"
        for code in unraised_codes(ERROR_CODES, classes, root)
    ]


# --- gettext-catalog: every text wrapped for translation has its Arabic --------------------

APPS = ("accounts", "baloot_site", "core", "games", "live", "moderation", "players")
CATALOG = Path("baloot_site/locale/ar/LC_MESSAGES")
ARABIC = re.compile("[\u0600-\u06ff]")
# The gettext functions and the argument positions of (context, message).
GETTEXT: dict[str, tuple[int | None, int]] = {
    "_": (None, 0),
    "gettext": (None, 0),
    "gettext_lazy": (None, 0),
    "gettext_noop": (None, 0),
    "pgettext": (0, 1),
    "pgettext_lazy": (0, 1),
}


def wrapped_texts(root: Path) -> tuple[list[tuple[str, str | None, str]], list[str]]:
    """(where, context, message) of every literal passed to a gettext function in the apps'
    source and templates; and the calls whose message can't be in a catalog."""
    found: list[tuple[str, str | None, str]] = []
    problems: list[str] = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in GETTEXT:
                    continue
                ctx_at, msg_at = GETTEXT[name]
                args = node.args
                where = f"{path.relative_to(root)}:{node.lineno}"
                if len(args) <= msg_at:
                    continue
                message = args[msg_at]
                # An f-string can't be in a catalog: its words change with its values.
                if isinstance(message, ast.JoinedStr):
                    problems.append(f"{where}: f-string in gettext")
                    continue
                if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
                    continue  # a variable: its texts are checked where they are written
                context = None
                if ctx_at is not None:
                    context_node = args[ctx_at]
                    if not isinstance(context_node, ast.Constant):
                        problems.append(f"{where}: the context of a pgettext is not a literal")
                        continue
                    context = str(context_node.value)
                found.append((where, context, message.value))
        for path in sorted((root / app).rglob("templates/**/*.html")):
            text = path.read_text()
            for match in re.finditer(r'{%\s*(?:translate|trans)\s+"([^"]+)"', text):
                found.append((str(path.relative_to(root)), None, match.group(1)))
            for match in re.finditer(
                r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", text, re.S
            ):
                block = re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", match.group(1))
                found.append((str(path.relative_to(root)), None, block))
    return found, problems


def gettext_catalog(root: Path) -> list[str]:
    """Every literal wrapped in gettext (source and templates) has its Arabic in the committed
    catalog (.mo); no f-string is wrapped. Fix: makemessages -l ar, translate,
    compilemessages."""
    texts, problems = wrapped_texts(root)
    if len(texts) <= 150:
        problems.append(f"only {len(texts)} wrapped texts found: the scan no longer sees them")
    with (root / CATALOG / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for where, context, message in texts:
        arabic = compiled.pgettext(context, message) if context else compiled.gettext(message)
        if arabic == message or not ARABIC.search(arabic):
            problems.append(f"untranslated: {where}: {message!r}")
    return problems


CHECKS: dict[str, Check] = {
    "saudi-citations": saudi_citations,
    "engine-random": engine_random,
    "bot-observations": bot_observations,
    "error-codes": error_codes,
    "gettext-catalog": gettext_catalog,
}


def run(names: list[str], root: Path = ROOT) -> Iterator[tuple[str, str]]:
    """(check, finding) of every finding of the named checks."""
    for name in names:
        for problem in CHECKS[name](root):
            yield name, problem


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("checks", nargs="*", metavar="CHECK", help=", ".join(CHECKS))
    args = parser.parse_args(argv)
    names: list[str] = args.checks or list(CHECKS)
    if unknown := [name for name in names if name not in CHECKS]:
        parser.error(f"unknown check(s): {', '.join(unknown)}; the checks: {', '.join(CHECKS)}")
    failed = 0
    for name, problem in run(names, root):
        print(f"{name}: {problem}")
        failed += 1
    if failed:
        print(f"check_source: {failed} finding(s)", file=sys.stderr)
        return 1
    print(f"check_source: {', '.join(names)}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
