"""Every rule S1-S30 of rules-saudi.md is cited by a test of this package, and every worked
example of its section S.10 has a test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
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


def _tests() -> list[tuple[str, str]]:
    """(name, docstring) of every test function in the package but this one."""
    out = []
    for path in HERE.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append((node.name, ast.get_docstring(node) or ""))
    return out


def test_every_rule_is_cited() -> None:
    cited: set[int] = set()
    for name, doc in _tests():
        cited |= {int(n) for n in re.findall(r"(?<![A-Z0-9])S(\d{1,2})(?!\d)", f"{name} {doc}")}
    assert set(range(1, 31)) - cited == set()


def test_every_worked_example_is_a_named_test() -> None:
    names = " ".join(name for name, _ in _tests())
    assert [e for e in WORKED_EXAMPLES if f"test_{e}_" not in names] == []
