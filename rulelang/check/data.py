"""The data check of a ruleset whose data declarations are written out: boards built by
``square_grid`` from numbers or ``load_board`` from a file name, supplies of a written
total, dice of written faces. The front end builds them itself, with the diagnostics the
runtime's catalog gives for them (E401, E205, E402), so that a lint needs no runtime.

A declaration whose value needs evaluating (a deck, a total or faces computed by an
expression, a grid sized by a name) is the catalog's: ``data_diagnostics`` then answers
None, and the caller asks the runtime for the whole check.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import cast

from rulelang import ast, boards
from rulelang.diagnostics import Diagnostic, Span

_DATA = (ast.BoardDecl, ast.SupplyDecl, ast.DieDecl, ast.DeckDecl)


def data_diagnostics(decls: Sequence[ast.Decl], base_dir: Path) -> list[Diagnostic] | None:
    """The problems of the boards, supplies and dice of ``decls`` in source order, as the
    runtime's catalog finds them, or None when some declaration needs evaluating."""
    constants = _constant_names(decls)
    data = [d for d in decls if isinstance(d, _DATA)]
    if not all(_written_out(d, constants) for d in data):
        return None
    problems = [p for d in data if isinstance(d, ast.BoardDecl) for p in _board_problems(d, base_dir)]
    if not problems:   # as in the catalog: a board not built leaves the rest unchecked
        problems = [p for d in data for p in _value_problems(d)]
    return sorted(problems, key=_place)


def _place(diagnostic: Diagnostic) -> tuple[int, int]:
    span = diagnostic.span
    return (span.line, span.column) if span is not None else (0, 0)


def _constant_names(decls: Sequence[ast.Decl]) -> frozenset[str]:
    """The names whose value is known without running: the values of the enums, unless a
    shared variable (which the compiler reads first, from the state) has the name too."""
    shared = {d.name for d in decls if isinstance(d, ast.VarDecl) and d.owner is None}
    return frozenset(v for d in decls if isinstance(d, ast.EnumDecl) for v in d.values) - shared


def _written_out(decl: ast.Decl, constants: frozenset[str]) -> bool:
    """Whether the value of data declaration ``decl`` is known from its text."""
    if isinstance(decl, ast.BoardDecl):
        return _grid_arguments(decl.source) is not None or _board_file(decl.source) is not None
    if isinstance(decl, ast.SupplyDecl):
        return isinstance(decl.total, ast.Literal)
    if isinstance(decl, ast.DieDecl):
        faces = decl.faces
        return isinstance(faces, ast.ListExpr) and all(_constant(item, constants) for item in faces.items)
    return False   # a deck: only running its list tells what it makes


def _constant(expr: ast.Expr, constants: frozenset[str]) -> bool:
    return isinstance(expr, ast.Literal) or (isinstance(expr, ast.Name) and expr.name in constants)


def _grid_arguments(source: ast.Expr | None) -> tuple[int, int, int | None] | None:
    """(width, height, diagonal or None) of ``square_grid(W, H)`` or ``square_grid(W, H,
    diagonal: D)`` written with numbers (true and false among them), else None."""
    if not (isinstance(source, ast.Call) and source.function == "square_grid"):
        return None
    sizes = [a for a in source.args if not isinstance(a, ast.KeywordArg)]
    named = [a for a in source.args if isinstance(a, ast.KeywordArg)]
    if len(sizes) != 2 or len(named) > 1 or any(a.name != "diagonal" for a in named):
        return None
    width, height = (_number(a) for a in sizes)
    diagonal = _number(named[0].value) if named else None
    if width is None or height is None or (named and diagonal is None):
        return None
    return width, height, diagonal


def _number(expr: ast.Expr) -> int | None:
    """The value of a written whole number, true or false (a bool is an int here)."""
    if isinstance(expr, ast.Literal) and isinstance(expr.value, int):
        return expr.value
    return None


def _board_file(source: ast.Expr | None) -> str | None:
    """The file name of ``load_board("...")``, else None."""
    if not (isinstance(source, ast.Call) and source.function == "load_board" and len(source.args) == 1):
        return None
    arg = source.args[0]
    return arg.value if isinstance(arg, ast.Literal) and isinstance(arg.value, str) else None


def _board_problems(decl: ast.BoardDecl, base_dir: Path) -> list[Diagnostic]:
    """The E401 (or E402) of a board that cannot be built, as the catalog words it."""
    source = decl.source
    assert source is not None   # _written_out said it is a call
    grid, file = _grid_arguments(source), _board_file(source)
    try:
        if grid is not None:
            width, height, diagonal = grid
            if diagonal is None:
                boards.square_grid(decl.name, width, height)
            else:   # as the runtime passes it: a number that is no bool is the schema's to refuse
                boards.square_grid(decl.name, width, height, diagonal=cast(bool, diagonal))
        elif file is not None:
            boards.load_board_file(decl.name, base_dir / file)
    except boards.BoardError as error:
        return [_board_error(error, decl.name, source.span)]
    except (TypeError, AttributeError) as error:
        return [Diagnostic("E402", f"cannot evaluate this while loading: {error}", source.span)]
    return []


def _board_error(error: boards.BoardError, board: str, source_span: Span) -> Diagnostic:
    """E401 for a board that cannot be built, pointing into its data file when it can
    (the catalog's wording)."""
    if error.file and error.line:
        column = error.column or 1
        where = Span(error.file, error.line, column, error.line, column + 1)
        return Diagnostic("E401", error.message, where, hint=f"the data of board '{board}', loaded at {source_span}")
    return Diagnostic("E401", str(error), source_span)


def _value_problems(decl: ast.Decl) -> list[Diagnostic]:
    """E205 for a supply's total that is no whole number, or a die without faces."""
    if isinstance(decl, ast.SupplyDecl) and isinstance(decl.total, ast.Literal):
        total = decl.total.value
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            return [Diagnostic("E205", "a supply's total must be a whole number", decl.total.span)]
    if isinstance(decl, ast.DieDecl) and isinstance(decl.faces, ast.ListExpr) and not decl.faces.items:
        return [Diagnostic("E205", "a die needs a non-empty list of faces", decl.faces.span)]
    return []
