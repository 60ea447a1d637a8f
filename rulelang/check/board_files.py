"""The boards of a ruleset as the name checks see them: the attributes of their spaces,
read from their board files (cached while a file is unchanged), and E401 in the data file
for a board that cannot be built from its declaration."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from rulelang import ast, boards
from rulelang.check.signatures import BOARD, names_with_role
from rulelang.diagnostics import Diagnostic, Span

AttributeValues = dict[str, frozenset[str]]
"""The text values each attribute of a board's spaces takes: ``{attribute: {value, ...}}``."""
_ValuesRead = tuple[tuple[str, frozenset[str]], ...]
_BoardRead = _ValuesRead | boards.BoardError


def board_attributes(decls: Sequence[ast.Decl], base_dir: Path) -> tuple[frozenset[str] | None, list[Diagnostic]]:
    """The attributes of every board's spaces (None when some board is only known by
    running) and an E401 for each board that cannot be built from its declaration."""
    found: set[str] = set()
    known = True
    problems: list[Diagnostic] = []
    for decl in decls:
        if not isinstance(decl, ast.BoardDecl) or decl.source is None:
            continue
        read = _board_source(decl, decl.source, base_dir)
        if isinstance(read, Diagnostic):
            problems.append(read)
        if isinstance(read, frozenset):
            found |= read
        else:
            known = False
    return (frozenset(found) if known else None), problems


SQUARE_GRID_ATTRIBUTES = frozenset({"x", "y"})
"""The attributes of every space of a square_grid(...): its column and row (boards/building.py)."""


def _board_source(decl: ast.BoardDecl, source: ast.Expr, base_dir: Path) -> frozenset[str] | Diagnostic | None:
    """The space attributes of board ``decl`` built by ``source``, its E401, or None when
    only running tells."""
    if not (isinstance(source, ast.Call) and source.function in names_with_role(BOARD)):
        return Diagnostic("E401", f"board '{decl.name}' must be built by square_grid(...) or load_board(...)",
                          source.span)
    if source.function == "square_grid":
        return SQUARE_GRID_ATTRIBUTES
    file = _literal_file(source)
    if source.function == "load_board" and file is None:
        return Diagnostic("E401", "load_board takes the name of a file in quotes", source.span)
    if source.function != "load_board" or file is None:
        return None
    read = _read_board_file(decl.name, str(base_dir / file), _stamp(base_dir / file))
    return _board_error(read, decl, source) if isinstance(read, boards.BoardError) else frozenset(dict(read))


def _literal_file(call: ast.Call) -> str | None:
    arg = call.args[0] if len(call.args) == 1 else None
    return arg.value if isinstance(arg, ast.Literal) and isinstance(arg.value, str) else None


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells a changed file from the one read before: its modification time and size."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=32)
def _read_board_file(board: str, path: str, stamp: tuple[int, int] | None) -> _BoardRead:
    """The attributes of the spaces of a board file with the text values each takes, or why
    it cannot be read (cached)."""
    try:
        loaded = boards.load_board_file(board, path)
    except boards.BoardError as error:
        return error
    found: dict[str, set[str]] = {}
    for space in loaded.spaces:
        for name, value in space.attributes.items():
            found.setdefault(name, set()).update([value] if isinstance(value, str) else [])
    return tuple((name, frozenset(values)) for name, values in found.items())


def _board_error(error: boards.BoardError, decl: ast.BoardDecl, source: ast.Expr) -> Diagnostic:
    """E401 in the data file, where the fix belongs, when the error says where."""
    if error.file and error.line and error.quotable:   # the file is a board document: show its line
        column = error.column or 1
        where = Span(error.file, error.line, column, error.line, column + 1)
        hint = f"the data of board '{decl.name}', loaded at {source.span}"
        return Diagnostic("E401", error.message, where, hint=hint)
    return Diagnostic("E401", str(error), source.span)


def board_text_values(decl: ast.BoardDecl, base_dir: Path) -> AttributeValues | None:
    """The text values each attribute of board ``decl``'s spaces takes (an attribute whose
    values are all numbers takes none: a square_grid's x and y); None when only running
    tells, or when the board's data does not load (E401 says why)."""
    source = decl.source
    if not isinstance(source, ast.Call):
        return None
    if source.function == "square_grid":
        return dict.fromkeys(SQUARE_GRID_ATTRIBUTES, frozenset())
    file = _literal_file(source)
    if source.function != "load_board" or file is None:
        return None
    read = _read_board_file(decl.name, str(base_dir / file), _stamp(base_dir / file))
    return None if isinstance(read, boards.BoardError) else dict(read)

