"""Renaming a space of a board file from where a ruleset names it (``space(BOARD, "ID")``):
the space's ``id`` in the board file, every id of the board file that names it (a graph
space's ``next``, the board's ``edges``), and the quoted id of every ``space(BOARD, "ID")`` of
the rulesets that load that board file. A square board's spaces are named by the grid, and a
hex without an ``id`` by its coordinates: those cannot be renamed."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from rulelang.diagnostics import Span
from rulelang.editor.features import SPACE_CALL

SPACE_ID = re.compile(r"\S+")   # a space id, as the board schema allows one


def space_named_at(line: str, column: int) -> tuple[str, str] | None:
    """The board and the space id of the ``space(BOARD, "ID")`` whose quoted id the (1-based)
    ``column`` of ``line`` is on."""
    for call in SPACE_CALL.finditer(line):
        if call.start(2) <= column <= call.end(2) + 1:
            return call.group(1), call.group(2)
    return None


def space_rename_edits(board: str, board_file: str, space: str, new_id: str,
                       rulesets: Mapping[str, str]) -> dict[str, list[Span]]:
    """The spans to rewrite as ``new_id`` to rename ``space`` of the board file ``board_file``
    (``board`` in the rulesets: their text by file), by file; ValueError when it cannot be."""
    if not SPACE_ID.fullmatch(new_id) or '"' in new_id:
        raise ValueError(f"'{new_id}' is not a space id a board file can declare")
    in_board = list(_ids_in_board(Path(board_file).read_text(encoding="utf-8"), board_file))
    declared = [span for key, value, span in in_board if key == "id" and value == space]
    if not declared:
        raise ValueError(f"board file {Path(board_file).name} declares no space '{space}' by an id"
                         " (a square board's spaces, or a hex without one, are named by their place)")
    if any(key == "id" and value == new_id for key, value, _ in in_board):
        raise ValueError(f"board file {Path(board_file).name} already has a space '{new_id}'")
    edits = {board_file: [span for _, value, span in in_board if value == space]}
    for file, text in rulesets.items():
        uses = list(_space_calls(text, file, board, space))
        if uses:
            edits.setdefault(file, []).extend(uses)
    return edits


def _space_calls(text: str, file: str, board: str, space: str) -> Iterator[Span]:
    """The quoted ids of ``space(BOARD, "SPACE")`` in a ruleset's text."""
    for number, line in enumerate(text.splitlines(), 1):
        for call in SPACE_CALL.finditer(line):
            if call.group(1) == board and call.group(2) == space:
                yield Span(file, number, call.start(2) + 1, number, call.end(2) + 1)


def _ids_in_board(text: str, file: str) -> Iterator[tuple[str, str, Span]]:
    """Every space id a board file writes: (``id``, ``next`` or ``edges``, the id, its span)."""
    import yaml
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode):
        return
    for key, value in root.value:
        if key.value == "spaces" and isinstance(value, yaml.SequenceNode):
            for space in value.value:
                if isinstance(space, yaml.MappingNode):
                    for field, ids in space.value:
                        if field.value in ("id", "next"):
                            yield from ((field.value, *found) for found in _scalars(ids, file))
        elif key.value == "edges":
            yield from (("edges", *found) for found in _scalars(value, file))


def _scalars(node: object, file: str) -> Iterator[tuple[str, Span]]:
    """The scalars of a node (inside lists too), each with the span of its text (quotes left out)."""
    import yaml
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _scalars(item, file)
    elif isinstance(node, yaml.ScalarNode):
        start, end = node.start_mark, node.end_mark
        quoted = 1 if node.style in ("'", '"') else 0
        yield str(node.value), Span(file, start.line + 1, start.column + 1 + quoted,
                                    end.line + 1, end.column + 1 - quoted)
