"""Strict validation of answers against the live schema: every body must be exactly what its
operation's response schema says (JSON Schema 2020-12, as OpenAPI 3.1 defines its schemas,
formats checked), its status and media type must be declared, and the headers the contract
speaks of (``ETag``, ``Retry-After``) must be declared where they are sent.

The Python counterpart of the TypeScript client's Ajv check (tests/clients/ts/src/validate.ts).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

# jsonschema ships no type information, and types-jsonschema is not a dev dependency.
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = "https://schema.invalid/openapi.json"
WATCHED_HEADERS = ("etag", "retry-after")


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


@dataclass
class StrictSchema:
    document: dict[str, Any]
    validated: int = 0
    findings: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        top = {k: v for k, v in self.document.items() if k != "$schema"}
        resource: Resource[Any] = DRAFT202012.create_resource(top)
        self.registry: Registry[Any] = Registry().with_resource(ROOT, resource)
        self.templates = [
            (re.compile("^" + re.sub(r"\{[^}/]+\}", "[^/]+", path) + "$"), path)
            for path in self.document["paths"]
        ]
        self._validators: dict[str, Draft202012Validator] = {}
        # Every component must itself be a valid 2020-12 schema.
        for name, schema in self.document["components"]["schemas"].items():
            Draft202012Validator.check_schema(schema)
            assert name

    def _validator(self, ref: str) -> Draft202012Validator:
        if ref not in self._validators:
            self._validators[ref] = Draft202012Validator(
                {"$ref": f"{ROOT}#/{ref}"},
                registry=self.registry,
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            )
        return self._validators[ref]

    def template(self, path: str) -> str | None:
        return next((t for pattern, t in self.templates if pattern.match(path)), None)

    def check(
        self,
        method: str,
        url: str,
        status: int,
        content_type: str | None,
        headers: dict[str, str],
        body: bytes,
    ) -> None:
        """Record every way this answer departs from the schema (see ``findings``)."""
        method = method.lower()
        path = urlsplit(url).path
        template = self.template(path)
        where = f"{method.upper()} {template or path} {status}"
        operation = self.document["paths"].get(template or "", {}).get(method)
        if operation is None:
            self.findings[f"{where}: operation not in the schema"] += 1
            return
        answer = operation["responses"].get(str(status))
        if answer is None:
            self.findings[f"{where}: status not declared"] += 1
            return
        declared = {name.lower() for name in answer.get("headers", {})}
        for name in WATCHED_HEADERS:
            if name in headers and name not in declared:
                self.findings[f"{where}: response header {name} not declared"] += 1
        content = answer.get("content", {})
        if not body:
            if content:
                self.findings[f"{where}: empty body where the schema declares content"] += 1
            return
        media = (content_type or "").split(";")[0].strip()
        if media not in content:
            self.findings[f"{where}: media type {media or '(none)'} not declared"] += 1
            return
        ref = _pointer("paths", template or "", method, "responses", str(status), "content", media)
        validator = self._validator(f"{ref}/schema")
        self.validated += 1
        for error in validator.iter_errors(json.loads(body)):
            at = "/".join(str(p) for p in error.absolute_path) or "(body)"
            self.findings[f"{where}: {at}: {error.message[:200]}"] += 1

    def report(self) -> str:
        return "\n".join(f"{count} x {finding}" for finding, count in self.findings.most_common())
