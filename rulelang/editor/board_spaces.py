"""Which space of a board file a request is about, and the open rulesets that load that
board file: what go to definition, find references and rename of a space read (the places
themselves are found by ``space_rename``, once for all three).

A request is about a space on the quoted id of ``space(BOARD, "ID")`` in a ruleset, or, in
a board file the editor has asked the server about, on an ``id``, a ``next`` or an
``edges`` entry.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rulelang.editor.index import NameIndex, real_file
from rulelang.editor.space_rename import space_id_at, space_named_at

BOARD_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class BoardSpace:
    """A space of a board file: the file's full path and the space's id."""

    board_file: str
    space: str


def is_board_file(path: str) -> bool:
    """A board's data file (YAML), not a ruleset: the server does not lint it."""
    return path.lower().endswith(BOARD_SUFFIXES)


def space_at(index: NameIndex | None, path: str, text: str, line: int, column: int) -> BoardSpace | None:
    """The space named under the (1-based) position of the file ``path`` (its text ``text``):
    a board file's id, or the id of a ruleset's ``space(BOARD, "ID")`` whose board is loaded
    from a file."""
    if is_board_file(path):
        found = space_id_at(text, path, line, column)
        return BoardSpace(path, found) if found is not None else None
    lines = text.split("\n")
    named = space_named_at(lines[line - 1], column) if 0 < line <= len(lines) else None
    if index is None or named is None or named[0] not in index.board_files:
        return None
    return BoardSpace(real_file(index.board_files[named[0]]), named[1])


def loading_rulesets(indexes: Iterable[NameIndex], texts: Mapping[str, str],
                     board_file: str) -> dict[str, tuple[str, set[str]]]:
    """The files of the rulesets (``indexes``: the open ones) that load ``board_file``, and
    of their bases, each with its text (the editor's, else as saved) and the names it loads
    the board file by."""
    found: dict[str, tuple[str, set[str]]] = {}
    for index in indexes:
        names = {name for name, file in index.board_files.items() if real_file(file) == board_file}
        if not names:
            continue
        for file in index.occurrences:
            text = found[file][0] if file in found else texts[file] if file in texts else _saved(file)
            found[file] = (text, (found[file][1] if file in found else set()) | names)
    return found


def _saved(file: str) -> str:
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
