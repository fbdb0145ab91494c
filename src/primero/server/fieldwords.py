"""A refused request's fields in a person's words (docs/protocol.md: bad input gets a clear
error): the REST bodies and queries (``400``) and the WebSocket messages (``error``) say
each field, then what it must be, never a validation library's wording ("Input should
be ...", "Field required") nor a 0-based list index.

>>> from pydantic import BaseModel, Field, ValidationError
>>> class Body(BaseModel):
...     seats: list[int] = Field(max_length=2)
...     name: str
>>> try:
...     Body.model_validate({"seats": [1, "x"]})
... except ValidationError as exc:
...     field_words(exc.errors())
'seats, item 2 must be a whole number; name is missing'
>>> try:
...     Body.model_validate({"seats": [1, 2, 3], "name": None})
... except ValidationError as exc:
...     field_words(exc.errors())
'seats must have at most 2 items; name must be text'
>>> class Settings(BaseModel):
...     hand_pause_seconds: int = Field(le=3600)
>>> try:
...     Settings.model_validate({"hand_pause_seconds": 3601})
... except ValidationError as exc:
...     field_words(exc.errors())
"Seconds a hand's result stays must be at most 3600"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from primero.play.settle import CHIP_VALUE_WORDS, CURRENCY_WORDS
from primero.server.setting_words import labelled

__all__ = ["field_words"]

#: A bound's error type: its words and the key of its limit in the error's ``ctx``.
_BOUNDS: dict[str, tuple[str, str]] = {
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("more than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}

#: Error types that say what a field must be, whatever its limits.
_KINDS: dict[str, str] = {
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be a JSON object",
    "model_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
    "extra_forbidden": "is not a field of this request",
}


def _where(loc: Sequence[object]) -> str:
    """A field's place in words: ``seats, item 2`` for ``("body", "seats", 1)`` (items
    counted from 1, as a person counts them); a setting a form shows by its label
    (``Seconds a hand's result stays`` for ``("body", "hand_pause_seconds")``)."""
    parts = [
        f"item {x + 1}" if isinstance(x, int) else str(x)
        for x in loc
        if x not in ("body", "query", "path")
    ]
    if len(parts) == 1:
        return labelled(parts[0])
    return ", ".join(parts) or "the request body"


def _one(err: Mapping[str, Any]) -> str:
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    where = _where(err.get("loc", ()))
    if kind == "missing":
        return f"{where} is missing"
    if kind in _KINDS:
        return f"{where} {_KINDS[kind]}"
    if kind in _BOUNDS:
        words, key = _BOUNDS[kind]
        return f"{where} must be {words} {ctx.get(key)}"
    if kind in ("literal_error", "enum"):
        return f"{where} must be one of {ctx.get('expected')}"
    if kind == "string_too_long":
        return f"{where} must be at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        least = ctx.get("min_length")
        if least == 1:
            return f"{where} is empty"
        return f"{where} must be at least {least} characters"
    if kind == "too_long":
        return f"{where} must have at most {ctx.get('max_length')} items"
    if kind == "too_short":
        return f"{where} must have at least {ctx.get('min_length')} items"
    if kind == "text":  # the text rules of docs/protocol.md (play/text.py): they name the field
        said = str(err.get("msg", f"{where} is not valid"))
        return said[:1].upper() + said[1:]
    if kind == "value_error":  # the message a validator of ours raised, in our words
        return f"{where}: {ctx.get('error', err.get('msg', 'not valid'))}"
    if kind == "string_pattern_mismatch" and err.get("loc", ("",))[-1] in _PATTERN_WORDS:
        return f"{_PATTERN_WORDS[err['loc'][-1]]}, not {str(err.get('input'))[:20]!r}"
    return f"{where} is not valid"


#: The fields whose form the OpenAPI document gives as a pattern, said in words.
_PATTERN_WORDS: dict[object, str] = {"chip_value": CHIP_VALUE_WORDS, "currency": CURRENCY_WORDS}


def field_words(errors: Iterable[Mapping[str, Any]]) -> str:
    """The refused fields in words, one sentence per field, joined by ``"; "``.

    Args:
        errors: pydantic's error details (``ValidationError.errors()``, or FastAPI's
            ``RequestValidationError.errors()``: each with ``type``, ``loc`` and ``ctx``).

    Returns:
        ``"seats, item 2 must be one of ..."``-like sentences; a body that is not JSON at
        all is said alone (``"the body is not valid JSON: send one JSON object"``).
    """
    said = []
    for err in errors:
        if err.get("type") == "json_invalid":
            return "the body is not valid JSON: send one JSON object"
        said.append(_one(err))
    return "; ".join(said) or "the request is not valid"
