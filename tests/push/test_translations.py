"""Every push text has its Arabic translation, with the same placeholders, and the committed
catalog (.mo) is the compiled form of its source (.po)."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

from django.conf import settings
from django.utils import translation

from live.push import kinds
from live.push.payloads import texts

# The one project catalog (settings.LOCALE_PATHS) holds the push texts too.
CATALOG = Path(settings.LOCALE_PATHS[0]) / "ar" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_push_text_reads_in_arabic_with_the_same_placeholders() -> None:
    all_texts = kinds.all_texts()
    assert len(all_texts) == 2 * (len(kinds.TEXTS) + len(kinds.FINISHED_TEXTS))
    for text in all_texts:
        with translation.override("en"):
            english = str(text)
        with translation.override("ar"):
            arabic = str(text)
        assert arabic != english, english
        assert re.search("[\u0600-\u06ff]", arabic), arabic
        assert sorted(PLACEHOLDER.findall(arabic)) == sorted(PLACEHOLDER.findall(english))


def test_every_kind_has_a_text_in_both_languages() -> None:
    data = {
        "result": "won",
        "scores": {"mine": 152, "theirs": 90},
        "tournament": "Eid cup",
        "round": 2,
    }
    for kind in kinds.EventKind:
        for language in ("en", "ar"):
            title, body = texts(kind, data, 7, language)
            assert title and body and "%(" not in body


def _po_entries(path: Path) -> dict[str, str]:
    """msgid (with its context, as gettext keys it) -> msgstr, from a .po file."""
    entries: dict[str, str] = {}
    context = msgid = None
    for line in path.read_text().splitlines():
        for keyword in ("msgctxt", "msgid", "msgstr"):
            if line.startswith(keyword + " "):
                value = ast.literal_eval(line[len(keyword) + 1 :])
                if keyword == "msgctxt":
                    context = value
                elif keyword == "msgid":
                    msgid = value if context is None else f"{context}\x04{value}"
                elif msgid:
                    entries[msgid] = value
                    context = msgid = None
    return entries


def test_the_compiled_catalog_matches_its_source() -> None:
    with (CATALOG / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    source = _po_entries(CATALOG / "django.po")
    assert source
    for msgid, msgstr in source.items():
        assert compiled.gettext(msgid) == msgstr, msgid
