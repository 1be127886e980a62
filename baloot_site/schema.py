"""Schema hooks that need every app at once, which only the top layer may import."""

from __future__ import annotations

from typing import Any

from baloot_site.errors import ERROR_CODES


def add_error_code_enum(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Publish ErrorCodeEnum (every code the API answers with) as the component the problem
    schema's ``code`` refers to, in the shape drf-spectacular gives its own enums."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorCodeEnum"] = {
        "enum": list(ERROR_CODES),
        "type": "string",
        "description": "\n".join(f"* `{code}` - {code}" for code in ERROR_CODES),
    }
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
