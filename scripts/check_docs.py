"""Check that the repository's documentation holds together (run by ``make lint``).

Two checks, each printing one line per finding and failing (exit 1) if there is any:

1. **Every rule id cited exists.** The code, the tests and the guides cite the rules by id
   (docs/rules/README.md, "Citing a rule"); each id they cite must be defined in docs/rules/.

   *A citation* is, in any tracked text file outside node_modules/ (Python, TypeScript,
   JavaScript, HTML, shell, the Makefile, Markdown; docs/rules/ itself included, for its
   cross-references):

   * a token ``R<n>``, ``S<n>``, ``E<n>``, ``SE<n>`` or ``V<n>`` (1 to 3 digits, optionally
     followed by one lowercase letter naming a clause, as in ``S5b`` or ``E35b``, which cites
     the rule itself) standing alone: neither preceded by a letter, a digit, ``_`` or ``%`` nor
     followed by a letter, a digit or ``_``. So ``Stage.R1_OPEN``, ``E2E``, ``%E2`` (a
     percent-encoded byte) and ``S-KAM`` (a source key) are not citations;
   * both ends of a range such as ``R33-R43``, ``S5-S7`` or ``R21-24`` (hyphen or en dash). What
     lies between is not checked: the worked examples are a numbered selection with gaps, so
     ``E82-E90`` names the examples there are in that span, not nine;
   * in a Python test's name (``def test_E55_...``, ``def test_S1_S20_...``), each part between
     underscores that is such an id.

   Ruff's rule codes in ``noqa`` comments (``# noqa: E402``) are not citations.

   *A definition* is, in docs/rules/*.md, an id at the start of a heading (``### R12 ...``), in
   bold (``**E99**``, ``**V1b ...**``), or alone in a table row's first cell (``| E04 |``).

2. **Every relative link resolves.** In every tracked ``*.md`` file (node_modules/ excluded),
   each inline link or image ``[text](target)`` whose target has no scheme must name an existing
   file or folder, relative to the Markdown file. A ``#fragment`` (also a bare ``#fragment``,
   within the same file) must match a ``#`` heading of the target Markdown file (the repository
   has no underlined headings and no HTML anchors) under GitHub's
   slug rules: lower case, punctuation other than ``-`` and ``_`` dropped, spaces to
   hyphens, ``-1``, ``-2``... for repeated headings; compared without regard to case, as
   GitHub's pages jump to them. A fragment into a file that is not Markdown is not checked.
   Links inside code blocks and code spans are not links; reference-style links are not read.

Usage: ``python scripts/check_docs.py`` (from any directory: it checks the checkout it is in).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

RULES_DIR = Path("docs") / "rules"

# Files whose text may cite a rule: code, tests, scripts and guides.
CITING_SUFFIXES = frozenset({".py", ".ts", ".mjs", ".js", ".html", ".sh", ".md"})
CITING_NAMES = frozenset({"Makefile"})

_ID = r"(SE|R|S|E|V)(\d{1,3})[a-z]?"
# An id standing alone, optionally the start of a range ("R33-R43", "R21-24").
_CITATION = re.compile(
    r"(?<![A-Za-z0-9_%])" + _ID + r"(?:\s?[-\u2013]\s?(?:\1)?(\d{1,3})[a-z]?)?(?![A-Za-z0-9_])"
)
_TEST_NAME = re.compile(r"\bdef (test_\w+)")
_TEST_PART = re.compile(r"^" + _ID + r"$")
_NOQA = re.compile(r"noqa:\s*[A-Z0-9, ]+")

# Definitions in docs/rules: a heading's first word, a bold id, a table row's first cell.
_DEFINITION = re.compile(
    r"^#{1,6}\s+" + _ID + r"\b"
    r"|\*\*" + _ID + r"\b"
    r"|^\|\s*" + _ID + r"\s*\|",
    re.MULTILINE,
)

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*\s*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def tracked_files(root: Path) -> list[Path]:
    """The files git tracks under ``root``, relative to it, node_modules/ left out."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    return [Path(name) for name in listed.split("\0") if name and "node_modules" not in name]


def _normal(prefix: str, number: int | str) -> str:
    # Examples are numbered with two digits (E01, SE02): "E1" and "E01" are one id.
    value = int(number)
    return f"{prefix}{value:02d}" if prefix in {"E", "SE"} else f"{prefix}{value}"


def cited_ids(text: str, *, python: bool = False) -> list[tuple[int, str]]:
    """Every id ``text`` cites, as (line number, id), in order (see the module docstring)."""
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = _NOQA.sub("", line)
        for match in _CITATION.finditer(line):
            prefix, first, last = match.group(1), match.group(2), match.group(3)
            # A range cites its two ends: the examples are a numbered selection with gaps
            # (E60-E72 names thirteen, E82-E90 names three), so what lies between is not cited.
            found.extend((number, _normal(prefix, n)) for n in (first, last) if n is not None)
        if python:
            for name in _TEST_NAME.findall(line):
                for part in name.split("_"):
                    if whole := _TEST_PART.match(part):
                        found.append((number, _normal(whole.group(1), whole.group(2))))
    return found


def defined_ids(rules_dir: Path) -> set[str]:
    """The ids docs/rules/*.md defines (see the module docstring)."""
    defined: set[str] = set()
    for path in sorted(rules_dir.glob("*.md")):
        for match in _DEFINITION.finditer(path.read_text(encoding="utf-8")):
            groups = [g for g in match.groups() if g is not None]
            defined.add(_normal(groups[0], groups[1]))
    return defined


def _cites(path: Path) -> bool:
    return path.suffix in CITING_SUFFIXES or path.name in CITING_NAMES


def missing_ids(root: Path, files: Iterable[Path]) -> list[str]:
    """One line per citation, among ``files`` (relative to ``root``), of an undefined id."""
    defined = defined_ids(root / RULES_DIR)
    findings: list[str] = []
    for path in files:
        if not _cites(path) or not (root / path).is_file():
            continue
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        for line, rule in cited_ids(text, python=path.suffix == ".py"):
            if rule not in defined:
                findings.append(
                    f"{path}:{line}: {rule} is cited but {RULES_DIR}/ defines no {rule}"
                )
    return findings


def _without_code(markdown: str) -> str:
    # Keep the line count (for messages): a removed block leaves its newlines behind.
    def blank(match: re.Match[str]) -> str:
        return "\n" * match.group(0).count("\n")

    return _CODE_SPAN.sub(blank, _FENCE.sub(blank, markdown))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading anchor of a Markdown text, repeats numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    fences = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), markdown)
    for heading in _HEADING.findall(fences):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(root: Path, files: Iterable[Path]) -> list[str]:
    """One line per relative link, in the Markdown ``files``, that does not resolve."""
    findings: list[str] = []
    for path in files:
        if path.suffix != ".md" or not (root / path).is_file():
            continue
        text = _without_code((root / path).read_text(encoding="utf-8"))
        for line_number, line in enumerate(text.splitlines(), start=1):
            for target in _LINK.findall(line):
                problem = _link_problem(root, path, target)
                if problem:
                    findings.append(f"{path}:{line_number}: ({target}) {problem}")
    return findings


def _link_problem(root: Path, source: Path, target: str) -> str | None:
    if not target or _SCHEME.match(target) or target.startswith("//"):
        return None  # a URL (https:, mailto:, ...), not a file of this repository
    name, _, fragment = target.partition("#")
    root = root.resolve()
    if name.startswith("/"):  # GitHub reads a leading / as the repository's root
        resolved = (root / name.lstrip("/")).resolve()
    else:
        resolved = ((root / source).parent / name).resolve() if name else root / source
    if not resolved.is_relative_to(root):
        return "points outside the repository"
    if not resolved.exists():
        return "names no file"
    if (
        fragment
        and resolved.suffix == ".md"
        and resolved.is_file()
        and fragment.lower() not in anchors(resolved.read_text(encoding="utf-8"))
    ):
        return f"names no heading #{fragment} in {resolved.relative_to(root)}"
    return None


def main() -> int:
    root = Path(__file__).resolve().parent.parent  # this file is scripts/check_docs.py
    files = tracked_files(root)
    findings = missing_ids(root, files) + broken_links(root, files)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check_docs: {len(findings)} problem(s)", file=sys.stderr)
        return 1
    print(
        f"check_docs: every rule id cited is defined in {RULES_DIR}/, every relative link resolves"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
