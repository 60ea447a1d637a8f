"""The places of a space of a board file, which rename rewrites and references list
(``space_places``): the space's ``id`` in the board file, every id of the board file that names
it (a graph space's ``next``, the board's ``edges``), and the quoted id of every
``space(BOARD, "ID")`` of the rulesets that load that board file; its definition is the ``id``
(``declared_space``). A square board's spaces are named by the grid, and a hex without an
``id`` by its coordinates: those cannot be renamed."""
from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
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


def space_rename_edits(board_file: str, space: str, new_id: str,
                       rulesets: Mapping[str, tuple[str, Collection[str]]],
                       board_text: str | None = None) -> dict[str, list[Span]]:
    """The spans to rewrite as ``new_id`` to rename ``space`` of the board file ``board_file``
    (``space_places``: the rulesets by file, with their text and the names they load it by),
    by file; ValueError when it cannot be."""
    if not SPACE_ID.fullmatch(new_id) or '"' in new_id:
        raise ValueError(f"'{new_id}' is not a space id a board file can declare")
    text = board_text if board_text is not None else Path(board_file).read_text(encoding="utf-8")
    in_board = list(_ids_in_board(text, board_file))
    if not any(key == "id" and value == space for key, value, _ in in_board):
        raise ValueError(f"board file {Path(board_file).name} declares no space '{space}' by an id"
                         " (a square board's spaces, or a hex without one, are named by their place)")
    if any(key == "id" and value == new_id for key, value, _ in in_board):
        raise ValueError(f"board file {Path(board_file).name} already has a space '{new_id}'")
    return space_places(board_file, space, rulesets, text)


def space_places(board_file: str, space: str, rulesets: Mapping[str, tuple[str, Collection[str]]],
                 board_text: str | None = None) -> dict[str, list[Span]]:
    """Every place that names ``space`` of the board file ``board_file`` (its text
    ``board_text``, else read): the board file's ``id``, ``next`` and ``edges`` that write it,
    and the quoted id of ``space(BOARD, "SPACE")`` in ``rulesets`` (by file: its text and
    the names it loads that board file by), by file: what rename rewrites and references list."""
    text = board_text if board_text is not None else Path(board_file).read_text(encoding="utf-8")
    places = {board_file: [span for _, value, span in _ids_in_board(text, board_file) if value == space]}
    for file, (ruleset, boards) in rulesets.items():
        uses = [span for board in sorted(boards) for span in _space_calls(ruleset, file, board, space)]
        if uses:
            places.setdefault(file, []).extend(sorted(uses, key=lambda s: (s.line, s.column)))
    return places


def declared_space(board_file: str, space: str, board_text: str | None = None) -> Span | None:
    """The span of the ``id`` that declares ``space`` in a board file (None: none does)."""
    try:
        text = board_text if board_text is not None else Path(board_file).read_text(encoding="utf-8")
        return next((span for key, value, span in _ids_in_board(text, board_file)
                     if key == "id" and value == space), None)
    except (OSError, UnicodeDecodeError):
        return None


def space_id_at(board_text: str, board_file: str, line: int, column: int) -> str | None:
    """The space id a board file writes under the (1-based) position: an ``id``, a ``next``
    or an ``edges`` entry (None: no id there)."""
    for _, value, span in _ids_in_board(board_text, board_file):
        if span.line == line and span.column <= column <= span.end_column:
            return value
    return None


def _space_calls(text: str, file: str, board: str, space: str) -> Iterator[Span]:
    """The quoted ids of ``space(BOARD, "SPACE")`` in a ruleset's text."""
    for number, line in enumerate(text.splitlines(), 1):
        for call in SPACE_CALL.finditer(line):
            if call.group(1) == board and call.group(2) == space:
                yield Span(file, number, call.start(2) + 1, number, call.end(2) + 1)


def _ids_in_board(text: str, file: str) -> Iterator[tuple[str, str, Span]]:
    """Every space id a board file writes: (``id``, ``next`` or ``edges``, the id, its span)."""
    import yaml
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:   # a board file being edited: no ids until it reads again
        return
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
