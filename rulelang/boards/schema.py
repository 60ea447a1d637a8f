"""Validating board data against ``schemas/board.schema.json``: the first violation (the
earliest in the file) as a BoardError that quotes no more of the file than a key or a short
value, and the shapes of board data once the schema has accepted it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias, TypedDict, cast

from rulelang.files import compiled_schema

from .errors import BoardError
from .parsing import JSON, Locator

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SCHEMA_PATH = Path(__file__).parent.parent / "schemas" / "board.schema.json"

Scalar: TypeAlias = "int | str | bool"   # a value of a square board's attribute grid


# Board data once the schema has accepted it. Each "...Keys" class holds the keys that
# the schema requires, its subclass the optional ones (attributes are further keys).

class _GraphSpaceKeys(TypedDict):
    id: str | int


class GraphSpaceData(_GraphSpaceKeys, total=False):
    next: str | int | list[str | int]


class _GraphBoardKeys(TypedDict):
    kind: Literal["graph"]
    spaces: list[GraphSpaceData]


class GraphBoardData(_GraphBoardKeys, total=False):
    edges: list[list[str | int]]


class _HexKeys(TypedDict):
    q: int
    r: int


class _HexData(_HexKeys, total=False):
    id: str | int


class HexBoardData(TypedDict):
    kind: Literal["hex"]
    hexes: list[_HexData]


class _SquareBoardKeys(TypedDict):
    kind: Literal["square"]
    width: int
    height: int


class SquareBoardData(_SquareBoardKeys, total=False):
    diagonal: bool
    attributes: dict[str, list[list[Scalar]]]


BoardData: TypeAlias = "GraphBoardData | HexBoardData | SquareBoardData"


@cache
def _validator() -> Validator:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _accepted_at_once(data: JSON) -> bool:
    """Whether the schema compiled by fastjsonschema accepts ``data``, plain JSON data
    only (mappings with string keys, lists, strings, numbers, booleans, null): jsonschema
    then accepts it too, and is not imported. Anything else (data it refuses, or any
    failure of its own) goes to jsonschema, which says what is wrong, if anything:
    fastjsonschema may refuse more (its ``$`` is ``\\Z``) but accepts no more."""
    if not _plain(data):
        return False
    try:
        _fast_validator()(data)
    except Exception:   # refused (or failed): the full validator decides and explains
        return False
    return True


def _plain(data: JSON) -> bool:
    """Whether ``data`` holds only JSON's own types (no tuple, no other mapping)."""
    stack: list[object] = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            mapping = cast("dict[object, object]", item)
            if any(type(key) is not str for key in mapping):
                return False
            stack.extend(mapping.values())
        elif kind is list:
            stack.extend(cast("list[object]", item))
        elif kind not in _SCALARS:
            return False
    return True


_SCALARS = (str, int, float, bool, type(None))


@cache
def _fast_validator() -> Callable[[object], object]:
    """The board schema as a Python function (fastjsonschema), its code kept in rulelang's
    cache folder (``compiled_schema``)."""
    return compiled_schema("board-schema", json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def validate(data: JSON, loc: Locator) -> None:
    """Raise a BoardError for the first schema violation (earliest in the file)."""
    if not isinstance(data, dict):   # not a board document: say nothing of what it holds
        raise BoardError("a board file holds a mapping (kind: ...) at its top", loc.file, quotable=False)
    if _accepted_at_once(data):
        return
    errors = list(_validator().iter_errors(data))
    if not errors:
        return
    if loc.root is None:
        import jsonschema

        error: ValidationError = jsonschema.exceptions.best_match(errors)
    else:
        error = min(errors, key=lambda e: loc.position(e.absolute_path, _offending_key(e)) or (0, 0))
    raise loc.error(_message(error), tuple(error.absolute_path), _offending_key(error))


def _message(error: ValidationError) -> str:
    """jsonschema's message, made specific where it says only "not valid under any"."""
    schema = error.schema
    if error.validator in ("anyOf", "oneOf") and isinstance(schema, Mapping) and "description" in schema:
        return f"{_quoted(error.instance)} is not allowed here. {schema['description']}"
    instance = repr(error.instance)
    message = error.message.replace(instance, _quoted(error.instance))
    if len(message) > 4 * MAX_QUOTED:   # never echo more of a file than a key or a short value
        return f"does not fit the board schema (rule '{error.validator}')"
    return message


MAX_QUOTED = 60   # the longest value from a board file that a message repeats


def _quoted(value: object) -> str:
    """``repr(value)`` when it is short, else a description that quotes none of it."""
    text = repr(value)
    if isinstance(value, (str, int, float, bool)) and len(text) <= MAX_QUOTED and "\\n" not in text:
        return text
    if isinstance(value, str):
        return "a long string"
    return "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else "this value"


def _offending_key(error: ValidationError) -> str | None:
    """For errors about a mapping's keys, the key at fault (so we point at it)."""
    if "propertyNames" in error.absolute_schema_path:
        return error.instance if isinstance(error.instance, str) else None
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        return next((k for k in error.instance if k not in known), None)
    return None
