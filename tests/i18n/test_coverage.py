"""Every message the service shows a person has its Arabic: a test fails on a missing one.

Generic on purpose, so it also catches strings added later by anyone: it walks the registries
of user-facing text at run time (every DomainError subclass, the problem titles, the engine's
refusals, bot names, score-sheet labels, push texts). The texts wrapped in gettext in every
app's source and templates are checked against the committed catalog by a source check,
``gettext-catalog`` in scripts/check_source.py (make lint); no xgettext needed. And the catalog
itself: no empty or fuzzy entry, its .mo the compiled .po."""

from __future__ import annotations

import ast
import gettext
import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from baloot_site.errors import ENGINE_DETAILS
from core.errors import domain_error_classes
from core.problems import problem_titles
from games.engine.errors import ALL_ILLEGAL_CODES
from games.models import BotLevel
from games.selectors.labels import all_labels
from games.selectors.seats import BOT_NAMES
from live.push import kinds

APPS = ("accounts", "baloot_site", "core", "games", "live", "moderation", "players")
CATALOG = Path(settings.LOCALE_PATHS[0]) / "ar" / "LC_MESSAGES"
ARABIC = re.compile("[\u0600-\u06ff]")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w*)\}")


def _import_every_module() -> None:
    """Import every module of the apps, so every DomainError subclass is registered."""
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{app}."):
            if ".migrations" in info.name or info.name.endswith(("asgi", "wsgi")):
                continue
            importlib.import_module(info.name)


def _renders(text: Any) -> tuple[str, str]:
    with translation.override("en"):
        english = str(text)
    with translation.override("ar"):
        arabic = str(text)
    return english, arabic


def _assert_arabic(text: Any, where: str) -> None:
    english, arabic = _renders(text)
    assert arabic != english, f"{where}: no Arabic for {english!r}"
    assert ARABIC.search(arabic), f"{where}: {arabic!r} has no Arabic letters"
    assert sorted(PLACEHOLDER.findall(arabic)) == sorted(PLACEHOLDER.findall(english)), where


def test_every_domain_error_reads_in_arabic() -> None:
    _import_every_module()
    classes = domain_error_classes()
    assert len(classes) > 20  # the walk found the apps' errors, not just core's
    for cls in classes:
        _assert_arabic(cls.default_detail, f"{cls.__module__}.{cls.__qualname__}")


def test_every_problem_title_and_engine_refusal_reads_in_arabic() -> None:
    for status, title in problem_titles().items():
        _assert_arabic(title, f"title of {status}")
    assert set(ENGINE_DETAILS) == {*ALL_ILLEGAL_CODES, "malformed"}
    for code, detail in ENGINE_DETAILS.items():
        _assert_arabic(detail, f"engine refusal {code}")


def test_every_bot_level_has_a_name_in_both_languages() -> None:
    assert set(BOT_NAMES) == set(BotLevel.values)
    for level, name in BOT_NAMES.items():
        _assert_arabic(name, f"bot name {level}")


def test_every_score_sheet_label_and_push_text_reads_in_arabic() -> None:
    for label in all_labels():
        _assert_arabic(label, "score sheet")
    for text in kinds.all_texts():
        _assert_arabic(text, "push text")


def _compiled() -> gettext.GNUTranslations:
    with (CATALOG / "django.mo").open("rb") as handle:
        return gettext.GNUTranslations(handle)


def _po_entries(text: str) -> list[dict[str, Any]]:
    """The entries of a .po file: flags, context, message and translation."""
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {"flags": "", "ctxt": None, "id": None, "str": None}
    field = "id"
    for line in [*text.splitlines(), ""]:
        if not line.strip():
            if entry["id"] is not None:
                entries.append(entry)
            entry, field = {"flags": "", "ctxt": None, "id": None, "str": None}, "id"
        elif line.startswith("#,"):
            entry["flags"] += line
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field] += ast.literal_eval(line)
        else:
            keyword, _, value = line.partition(" ")
            field = {"msgctxt": "ctxt", "msgid": "id", "msgstr": "str"}[keyword]
            entry[field] = ast.literal_eval(value)
    return entries


def test_the_catalog_has_no_empty_or_fuzzy_entry_and_its_mo_is_its_po_compiled() -> None:
    entries = [e for e in _po_entries((CATALOG / "django.po").read_text()) if e["id"]]
    assert len(entries) > 150
    compiled = _compiled()
    for entry in entries:
        name = f"{entry['ctxt']!r} {entry['id']!r}"
        assert entry["str"], f"empty: {name}"
        assert "fuzzy" not in entry["flags"], f"fuzzy: {name}"
        assert ARABIC.search(entry["str"]), f"not Arabic: {name}"
        if entry["ctxt"]:
            assert compiled.pgettext(entry["ctxt"], entry["id"]) == entry["str"], name
        else:
            assert compiled.gettext(entry["id"]) == entry["str"], name
    # Nothing in the .mo that the .po lost (a stale compile).
    keys = {e["id"] if not e["ctxt"] else f"{e['ctxt']}\x04{e['id']}" for e in entries}
    assert set(compiled._catalog) - {""} <= keys  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["Easy bot", "Normal bot"])
def test_the_bot_names_are_reserved_in_arabic_too(name: str) -> None:
    from accounts.names import claims_to_be_a_bot

    with translation.override("ar"):
        arabic = str(BOT_NAMES[BotLevel.EASY if name.startswith("Easy") else BotLevel.NORMAL])
    assert claims_to_be_a_bot(arabic), arabic  # no player can pass for a bot in Arabic
