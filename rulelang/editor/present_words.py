"""The property words of a ``present { }`` block (docs/language.md, "Presentation") in the
editor: hover gives a property's help rather than the declaration of a name it happens to
share (``colour`` the property, not ``enum colour``), completion inside an entry offers the
properties that entry allows, and the index leaves property words out of the names it
resolves (so that renaming ``enum colour`` does not rewrite a ``colour`` property).

What each entry allows comes from the checker's tables (``rulelang.check.presentation``),
so the editor offers exactly what the linter accepts (E802).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from rulelang import ast
from rulelang.check.presentation import (
    BOARD_PROPERTIES,
    BOARD_VALUE_PROPERTIES,
    COMPONENT_PROPERTIES,
    ENUM_VALUE_PROPERTIES,
    VARIABLE_PROPERTIES,
)
from rulelang.diagnostics import Span
from rulelang.present_ast import PresentDecl
from rulelang.syntax.format_pieces import Piece, UnknownCharacter, scan

PROPERTY_HELP = {
    "name": "the display name: how views write the enum value, component kind, variable, supply or zone "
            "(of a board's value: how its legend writes it)",
    "colour": "a colour (`#rgb`, `#rrggbb` or a colour name); on a component, also the name of an enum "
              "field: the card takes its value's colour; on a board, the name of the attribute whose values "
              "colour its spaces (`BOARD.VALUE { colour \"...\" }`: the colour of the spaces with that value)",
    "symbol": "a mark of 1 to 3 characters drawn for the enum value or component kind",
    "title": "the card face's title: a text whose `{field}` placeholders are the component's fields",
    "corner": "the text in a card's corner (`{field}` placeholders), or drawn in each space's corner of a "
              "board (placeholders: the space's attributes, space variables, `name`, `index`)",
    "body": "the card face's body: a text whose `{field}` placeholders are the component's fields",
    "on": "the field (or component variable) holding a space: the component is drawn on that space",
    "within": "a zone: the component is drawn on its space only while it lies in that zone",
    "label": "the text drawn on each space of the board (placeholders: the space's attributes, space "
             "variables, `name`, `index`)",
}
SHOW_HELP = ("**`show a, b, ...`** (in `present`)\n\nthe variables (global, player, space, component) and "
             "supplies players are shown; once a ruleset has a `show`, the others stay out of tables and boards")
BOARD_VALUE = "a board's colouring value"
ENTRY_KINDS: Mapping[str, Mapping[str, str]] = {
    "an enum value": ENUM_VALUE_PROPERTIES, "a component kind": COMPONENT_PROPERTIES, "a board": BOARD_PROPERTIES,
    BOARD_VALUE: BOARD_VALUE_PROPERTIES, "a variable, supply or zone": VARIABLE_PROPERTIES}
KIND_OF_DECLARATION = {"component": "a component kind", "board": "a board", "var": "a variable, supply or zone",
                       "supply": "a variable, supply or zone", "zone": "a variable, supply or zone"}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PRESENT_START = re.compile(r"^[ \t]*(?:override[ \t]+)?present[ \t]*\{", re.M)


@dataclass(frozen=True)
class PresentPlace:
    """A place inside ``present { }``: at the top of the block (``target`` None: where
    entries and ``show`` go), or inside an entry: its target (``card``, or ``suit`` and member
    ``hearts``, or a board and a value of its colouring attribute), and whether a property's
    word goes there (else its value)."""

    target: str | None
    member: str | None
    at_property: bool


def property_help(word: str, entry_kind: str | None) -> str:
    """Markdown for a property word (``entry_kind``: what the entry presents, if known)."""
    allowed = ENTRY_KINDS.get(entry_kind or "", {})
    kinds = [kind for kind, properties in ENTRY_KINDS.items() if word in properties]
    where = f"a property of {entry_kind}" if word in allowed else f"a property of {' or '.join(kinds)}"
    if entry_kind is not None and word not in allowed:
        where += f" (not of {entry_kind}: E802)"
    form = allowed.get(word) or next((p[word] for p in ENTRY_KINDS.values() if word in p), "a text")
    return f"**`{word}`** ({where}, in `present`): {form}\n\n{PROPERTY_HELP.get(word, '')}".rstrip()


def entry_kind(place: PresentPlace, kinds: Mapping[str, str]) -> str | None:
    """What an entry presents, from the kind each declared name has (None: not known)."""
    if place.member is not None:
        return BOARD_VALUE if kinds.get(place.target or "") == "board" else "an enum value"
    return KIND_OF_DECLARATION.get(kinds.get(place.target or "", ""))


def allowed_properties(kind: str | None) -> dict[str, str]:
    """The properties an entry of ``kind`` may have (every property when it is not known),
    each with the form of its value."""
    if kind is not None:
        return dict(ENTRY_KINDS[kind])
    return {word: form for properties in ENTRY_KINDS.values() for word, form in properties.items()}


def present_place(text: str, line: int, column: int) -> PresentPlace | None:
    """The entry of ``present { }`` the (1-based) position is inside, if any, read from the
    text before the position (a half-typed text too); the word that ends at the position
    is the one being typed, not counted."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    before = "\n".join([*lines[:line - 1], lines[line - 1][:column - 1]])
    before = re.sub(NAME.pattern + "$", "", before)
    starts = list(PRESENT_START.finditer(before))
    if not starts:
        return None
    try:
        pieces = [p for p in scan(before[starts[-1].end():]) if not p.is_comment]
    except UnknownCharacter:
        return None
    return _place_after(pieces)


def _place_after(pieces: Sequence[Piece]) -> PresentPlace | None:
    """The place after the pieces that follow ``present {``: inside an entry's braces or at
    the top of the block (None: after its closing brace)."""
    target: list[str] | None = None
    written = 0
    for piece in pieces:
        if target is None:
            if piece.text == "}":
                return None   # the block is closed
            if piece.text == "{":
                target, written = [], 0
            continue
        if piece.text == "}":
            target = None
        elif piece.text != "{":
            written += 1
    return PresentPlace(None, None, False) if target is None else _entry(pieces, written)


def _entry(pieces: Sequence[Piece], written: int) -> PresentPlace | None:
    """The entry whose ``{`` is the last one of ``pieces``: ``NAME [. NAME] {``."""
    opening = max(i for i, piece in enumerate(pieces) if piece.text == "{")
    head = [piece.text for piece in pieces[:opening]]
    if len(head) >= 3 and head[-2] == ".":
        return PresentPlace(head[-3], head[-1], written % 2 == 0)
    if head:
        return PresentPlace(head[-1], None, written % 2 == 0)
    return None


def property_word_spans(declarations: Sequence[ast.Decl]) -> Iterator[Span]:
    """The span of each property's word in the ``present`` blocks of ``declarations``."""
    for decl in declarations:
        if isinstance(decl, PresentDecl):
            for look in decl.looks:
                for prop in look.properties:
                    start = prop.span
                    yield Span(start.file, start.line, start.column, start.line, start.column + len(prop.name))


def present_hover(text: str, line: int, column: int, kinds: Mapping[str, str]) -> str | None:
    """The help of the property word (or ``show``) under the (1-based) position inside
    ``present { }``, if it is one (``kinds``: each declared name's kind)."""
    lines = text.split("\n")
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    word = next((m for m in NAME.finditer(current) if m.start() < column <= m.end() + 1), None)
    place = present_place(text, line, word.start() + 1) if word is not None else None
    if word is None or place is None:
        return None
    if place.target is None:
        return SHOW_HELP if word.group() == "show" else None
    if not place.at_property or word.group() not in PROPERTY_HELP:
        return None
    return property_help(word.group(), entry_kind(place, kinds))


def present_completions(place: PresentPlace, kinds: Mapping[str, str]) -> list[tuple[str, str]]:
    """The property words an entry allows where one goes, each with one line: its value's
    form and its help."""
    allowed = allowed_properties(entry_kind(place, kinds))
    return [(word, f"{word} ({form}): {PROPERTY_HELP.get(word, '')}") for word, form in allowed.items()]
