"""Places in a shipped ruleset as they are once it is formatted (``rulelang fmt``).

A doc or a test that quotes a place in a ruleset of games/ quotes it in the formatted layout,
and a test reads the place the engine gives through ``place_when_formatted``: the same before
and after the files are formatted, as formatting keeps the syntax tree and only moves it.
"""
from __future__ import annotations

from pathlib import Path

from rulelang.check.tree import walk
from rulelang.syntax.format import format_source
from rulelang.syntax.parser import parse


def _starts(text: str, path: str) -> list[tuple[int, int]]:
    """Where each node of the ruleset ``text`` starts, in the order of the syntax tree."""
    return [(node.span.line, node.span.column) for node in walk(parse(text, path).declarations)]


def place_when_formatted(path: Path, place: str) -> str:
    """``place`` ("LINE:COL", where a node starts in the ruleset ``path`` as it is) once the
    ruleset is formatted."""
    text = path.read_text(encoding="utf-8")
    line, column = (int(part) for part in place.split(":"))
    before, after = _starts(text, str(path)), _starts(format_source(text, str(path)), str(path))
    assert len(before) == len(after), path
    moved = after[before.index((line, column))]
    return f"{moved[0]}:{moved[1]}"
