"""What the formatter (``format.py``) lays out: the tokens and comments of a ruleset's or a
test file's text with their places, and what the parse tree says of them: where each
statement, declaration, setting or step begins, where each field of a component begins,
and which braces hold statements and which hold fields or names.

The grammar ignores comments and whitespace; the formatter reads both from the text here,
with a scanner of its own that splits the text as Lark's lexer does (a string, a comment,
a word, an operator), so that a piece's line and column are Lark's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Token, Tree

Place = tuple[int, int]   # (line, column), both from 1, as Lark counts them

_PIECE = re.compile(r"""
    (?P<space>[ \t\f\r\n]+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*|[0-9]+)
  | (?P<operator>\.\.|==|!=|<=|>=|\+=|-=|->|[-+*/%<>=(){}\[\],.:?])
""", re.VERBOSE)

# Parse-tree rules whose every subtree child begins a line of its own (when its braces are
# laid out on several lines): the top of a ruleset or a test file, blocks, scenarios, a presentation.
_HOLDERS_OF_ALL = frozenset({"start", "block", "tests_file", "background", "scenario", "present_decl"})
# Rules of which only the children of one rule begin a line: a game's settings, a menu's options.
_HOLDERS_OF_ONE = {"game_decl": "setting", "menu_stmt": "option"}


@dataclass(frozen=True)
class Piece:
    """A token or a comment of the text (``kind``: string, comment, word or operator)."""
    kind: str
    text: str
    line: int
    column: int

    @property
    def place(self) -> Place:
        return self.line, self.column

    @property
    def is_comment(self) -> bool:
        return self.kind == "comment"


@dataclass(frozen=True)
class Structure:
    """What the parse tree says of the pieces: the places where a statement, a declaration,
    a setting, an option or a test step begins (``starts``), where a component's field
    begins (``fields``), and where a game setting's name stands (``setting_names``)."""
    starts: frozenset[Place]
    fields: frozenset[Place]
    setting_names: frozenset[Place]


class UnknownCharacter(ValueError):
    """A character the scanner does not know: the text was not parsed first."""


def scan(text: str) -> list[Piece]:
    """The tokens and comments of ``text`` in order (a comment without its line's end)."""
    found: list[Piece] = []
    line, line_start, position = 1, 0, 0
    while position < len(text):
        match = _PIECE.match(text, position)
        if match is None:
            raise UnknownCharacter(f"no token at line {line}, column {position - line_start + 1}")
        kind, piece = match.lastgroup or "", match.group()
        if kind != "space":
            found.append(Piece(kind, piece.rstrip(), line, position - line_start + 1))
        if "\n" in piece:
            line += piece.count("\n")
            line_start = match.start() + piece.rindex("\n") + 1
        position = match.end()
    return found


def structure(tree: Tree[Token]) -> Structure:
    """The starts, fields and setting names of a parse tree (positions kept by Lark)."""
    from lark import Tree
    starts: set[Place] = set()
    fields: set[Place] = set()
    names: set[Place] = set()
    for holder in tree.iter_subtrees():
        children = [child for child in holder.children if isinstance(child, Tree)]
        if holder.data in _HOLDERS_OF_ALL:
            starts.update(_place(child) for child in children)
        elif holder.data in _HOLDERS_OF_ONE:
            starts.update(_place(c) for c in children if c.data == _HOLDERS_OF_ONE[holder.data])
        elif holder.data == "component_decl":
            fields.update(_place(child) for child in children if child.data == "field_decl")
        if holder.data == "setting":
            names.add(_place(holder))
    return Structure(frozenset(starts), frozenset(fields), frozenset(names))


def _place(tree: Tree[Token]) -> Place:
    return tree.meta.line, tree.meta.column
