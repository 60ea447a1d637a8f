"""Loading: path or text -> parsed, merged, checked ruleset -> a runnable Game.

This is the facade, the one module (with the CLI) that joins the language's front end
(parse, merge variants, check) to the runtime (``rulelang.interpreter``). Its lint
functions are the front end's, with the data check added: the front end's own for data
written out (rulelang/check/data.py), else the runtime's (decks that cannot be built...),
which only building the data can find.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.check import linter
from rulelang.check.checker import check
from rulelang.check.data import data_diagnostics as written_data_diagnostics
from rulelang.check.settings import Settings, read_settings
from rulelang.check.variants import read_source, resolve
from rulelang.diagnostics import Diagnostic, Span, errors_in
from rulelang.errors import RulesetError
from rulelang.files import real_path
from rulelang.syntax.parser import parse

if TYPE_CHECKING:
    from rulelang.interpreter.game import Game


def looks_like_path(source: str | Path) -> bool:
    """The one rule that tells a path from a text: a ``pathlib.Path``, or a string of one
    line that ends with ``.rules``. Anything else is the text of a ruleset."""
    return isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                        and "\r" not in source and source.endswith(".rules"))


def read_ruleset(source: str | Path, path: str | None = None,
                 root: str | Path | None = None) -> tuple[list[ast.Decl], Path, str]:
    """(declarations, root folder, path shown in diagnostics) for a path or a text.

    The files the ruleset names (``extends``, ``load_board``) must lie in ``root``: by
    default the folder of the ruleset file; for a text, the current directory (or the folder
    of ``path`` when that lies outside it)."""
    if isinstance(source, Path) or (isinstance(source, str) and looks_like_path(source)):
        file = Path(source)
        shown, base_dir = str(source), file.parent
        text = read_source(file, shown)
    elif isinstance(source, str):
        text, shown, base_dir = source, path or "<text>", Path(path).parent if path else Path.cwd()
    else:
        raise RulesetError([Diagnostic("E001", f"load() takes a path or the text of a ruleset, "
                                               f"not {type(source).__name__}", Span.point("<text>", 1, 1))])
    top = Path(root) if root is not None else _default_root(base_dir, is_text=not looks_like_path(source))
    tree = parse(text, shown)
    declarations = resolve(tree, base_dir, (real_path(shown),), top)
    return declarations, top, shown


def _default_root(folder: Path, *, is_text: bool) -> Path:
    """The folder of a ruleset file; for a text, the current directory, or the folder of its
    ``path=`` when that lies outside the current directory."""
    if not is_text:
        return folder
    cwd = Path.cwd()
    real = Path(os.path.realpath(folder))
    return cwd if real == Path(os.path.realpath(cwd)) or Path(os.path.realpath(cwd)) in real.parents else folder


def player_count(players: int | None, settings: Settings, shown: str) -> int:
    """``players``, or the lowest count the game allows; E601 for a count it does not allow."""
    low, high = settings.players
    count = low if players is None else players
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        span = settings.header.span if settings.header is not None else Span.point(shown, 1, 1)
        raise RulesetError([Diagnostic("E601", f"this game is for {low}..{high} players, not {players!r}", span)])
    return count


def load(source: str | Path, players: int | None = None, *, path: str | None = None,
         root: str | Path | None = None) -> Game:
    """Load a ruleset (a path, or the text itself) as a Game for ``players`` players.

    ``root`` is the folder that files named by the ruleset (``extends``, ``load_board``)
    must lie in (default: the ruleset's folder). Raises RulesetError carrying every
    diagnostic when the ruleset has errors, and no other exception for any input.
    """
    for value, what in ((path, "path"), (root, "root")):
        if value is not None and (not isinstance(value, (str, Path)) or "\0" in str(value)):
            raise RulesetError([Diagnostic("E001", f"load(): {what}= must be a file name, not {value!r:.40}",
                                           Span.point("<text>", 1, 1))])
    try:
        declarations, base_dir, shown = read_ruleset(source, path, root)
    except RecursionError:
        where = Span.point(path or "<text>", 1, 1)
        raise RulesetError([Diagnostic("E005", "the text nests too deeply", where)]) from None
    problems = errors_in(check(declarations, shown, base_dir))
    if problems:
        raise RulesetError(linter.sort_diagnostics(problems, shown))
    settings, _ = read_settings(declarations, shown)   # its problems were among the check's
    from rulelang.interpreter.game import Game  # the runtime, imported when a game is first loaded
    return Game(declarations, player_count(players, settings, shown), base_dir, settings)


# ---------------------------------------------------------------- linting, with the data check

def data_diagnostics(declarations: Sequence[ast.Decl], settings: Settings, base_dir: Path) -> list[Diagnostic]:
    """The problems of a ruleset's data (boards, decks, supplies...): found by the front end
    when its data is written out (grids, board files, written totals and faces), else by
    building the runtime's catalog (the compiler's driver evaluates its declarations),
    which is imported the first time a ruleset's data needs it (a deck...)."""
    written = written_data_diagnostics(declarations, base_dir)
    if written is not None:
        return written
    from rulelang.interpreter.compiler.driver import data_diagnostics as found_by_the_catalog
    return found_by_the_catalog(declarations, settings, base_dir)


def lint_text(text: str, path: str = "<text>", root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for the ruleset ``text`` (shown as ``path``), its data included;
    ``root`` as for ``load``."""
    return linter.lint_text(text, path, data_check=data_diagnostics, root=root)


def lint_file(path: Path, root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for one ruleset file, its data included."""
    return linter.lint_file(path, data_check=data_diagnostics, root=root)


def lint_paths(paths: Iterable[str | Path], root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for the files and directories ``paths``, sorted by location."""
    return linter.lint_paths(paths, data_check=data_diagnostics, root=root)
