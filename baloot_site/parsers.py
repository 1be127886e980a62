"""The API's JSON parser: DRF's, with the nesting depth bounded before decoding.

Python's ``json`` module decodes recursively, so ``"[" * 100000`` raises RecursionError (a
500) instead of a parse error. Every body this API accepts is at most a few levels deep, so
anything deeper than ``MAX_DEPTH`` is refused as ``400 parse_error`` before ``json`` sees it.
The depth is measured by a flat scan, never by recursion.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import IO, Any

from rest_framework.exceptions import ParseError

# get_encoding: DRF's own charset check, which djangorestframework-stubs 3.18 does not declare.
from rest_framework.parsers import JSONParser, get_encoding  # type: ignore[attr-defined]
from rest_framework.utils import json as drf_json

MAX_DEPTH = 32

# A complete JSON string literal (escapes included), in the unrolled form that never backtracks.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "+", "{": "+", "]": "-", "}": "-"})


def nesting_depth(text: str) -> int:
    """The deepest array/object nesting of ``text``, brackets inside strings not counted.

    Drops string literals, keeps only the brackets, then takes the highest running sum of
    +1 per opening and -1 per closing bracket: linear, and with no recursion.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_STEP)
    if not brackets:
        return 0
    return max(accumulate(1 if step == "+" else -1 for step in brackets))


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser, refusing documents nested deeper than ``MAX_DEPTH``."""

    max_depth = MAX_DEPTH

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        # DRF's own charset check: text encodings only (no bz2_codec bombs).
        encoding = get_encoding(parser_context or {})
        parse_constant = drf_json.strict_constant if self.strict else None
        try:
            text = codecs.getreader(encoding)(stream).read()
            if nesting_depth(text) > self.max_depth:
                raise ValueError(f"nested deeper than {self.max_depth} levels")
            return json.loads(text, parse_constant=parse_constant)
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
            raise ParseError(f"JSON parse error - {exc}") from None
