"""scripts/check_docs.py (run by ``make lint``) finds what it says it finds: a rule id cited but
not defined in docs/rules, and a relative link that leads nowhere, on small trees built here.
No database, no git: the checker's functions take the files to read."""

from __future__ import annotations

from pathlib import Path

from scripts import check_docs

# Ids no rules file defines, spelled so that the checker, which scans this file too in
# `make lint`, does not take them for citations.
UNDEFINED_RULE = "R" + "44"
UNDEFINED_EXAMPLE = "E" + "57"

RULES = """# Rules

### R1 Players and partnerships

Four players.

### R23 Locked

| ID | Contract |
|---|---|
| E04 | Sun |

- **E99** A Hokum round.
- **V1b Positional partner exemption.**
"""

SAUDI = """# Saudi

### S5 Following (Hokum)

| ID | Rule |
|---|---|
| SE13 | S5 |
"""


def _tree(root: Path, code: str, readme: str) -> list[Path]:
    files = {
        "docs/rules/rules.md": RULES,
        "docs/rules/rules-saudi.md": SAUDI,
        "games/engine/play.py": code,
        "README.md": readme,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return [Path(name) for name in files]


CLEAN_CODE = '''"""Play (rules.md R1, R23; examples E04, E99; rules-saudi.md S5b, SE13; V1b)."""
LEAD = 1  # R1-R23: the two ends of a span
'''
CLEAN_README = (
    "See [the rules](docs/rules/rules.md#r23-locked) and [Saudi](docs/rules/rules-saudi.md).\n"
)


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    files = _tree(tmp_path, CLEAN_CODE, CLEAN_README)
    assert check_docs.missing_ids(tmp_path, files) == []
    assert check_docs.broken_links(tmp_path, files) == []


def test_an_undefined_id_is_reported_with_its_place(tmp_path: Path) -> None:
    code = CLEAN_CODE + f"# {UNDEFINED_RULE}: no such rule\n"
    code += f"def test_{UNDEFINED_EXAMPLE}_no_such_example() -> None: ...\n"
    files = _tree(tmp_path, code, CLEAN_README)
    assert check_docs.missing_ids(tmp_path, files) == [
        f"games/engine/play.py:3: {UNDEFINED_RULE} is cited but docs/rules/ defines no "
        f"{UNDEFINED_RULE}",
        f"games/engine/play.py:4: {UNDEFINED_EXAMPLE} is cited but docs/rules/ defines no "
        f"{UNDEFINED_EXAMPLE}",
    ]


def test_a_broken_link_and_a_missing_heading_are_reported(tmp_path: Path) -> None:
    readme = (
        CLEAN_README
        + "[gone](docs/nothing.md) and [no heading](docs/rules/rules.md#r2-direction)\n"
    )
    readme += "[outside](../elsewhere/rules.md)\n"
    files = _tree(tmp_path, CLEAN_CODE, readme)
    assert check_docs.broken_links(tmp_path, files) == [
        "README.md:2: (docs/nothing.md) names no file",
        "README.md:2: (docs/rules/rules.md#r2-direction) names no heading #r2-direction in "
        "docs/rules/rules.md",
        "README.md:3: (../elsewhere/rules.md) points outside the repository",
    ]


def test_links_in_code_and_urls_are_not_checked(tmp_path: Path) -> None:
    readme = "```\n[not a link](nowhere.md)\n```\n`[nor this](nowhere.md)` [web](https://example.com/x.md)\n"
    files = _tree(tmp_path, CLEAN_CODE, readme)
    assert check_docs.broken_links(tmp_path, files) == []


def test_what_counts_as_a_citation() -> None:
    text = "\n".join(
        [
            "from x import y  # noqa: E402",  # a ruff code
            "url = 'ticket=%E2%91%A0'",  # a percent-encoded byte
            "stage = Stage.R1_OPEN  # E2E",  # an identifier, a word
            "(S-KAM, rules.md 6.11)",  # a source key, a section
            "R33-R43, S5-S7 and R21-24",  # spans: their ends
            "S5b and E35b",  # a clause of a rule
            "def test_S1_S20_a_saudi_match() -> None:",  # a test's name
        ]
    )
    assert check_docs.cited_ids(text, python=True) == [
        (5, "R33"),
        (5, "R43"),
        (5, "S5"),
        (5, "S7"),
        (5, "R21"),
        (5, "R24"),
        (6, "S5"),
        (6, "E35"),
        (7, "S1"),
        (7, "S20"),
    ]


def test_headings_anchor_as_on_github() -> None:
    markdown = "# The `saudi` ruleset\n## S.0 Variant decisions at a glance\n## Players' features\n"
    markdown += "## Moves\n## Moves\n```\n# not a heading\n```\n"
    assert check_docs.anchors(markdown) == {
        "the-saudi-ruleset",
        "s0-variant-decisions-at-a-glance",
        "players-features",
        "moves",
        "moves-1",
    }
