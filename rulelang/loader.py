"""Loading: path or text -> parsed, merged, checked ruleset -> a runnable Game.

This is the facade, the one module (with the CLI) that joins the language's front end
(parse, merge variants, check) to the runtime (``rulelang.interpreter``). Its lint
functions are the front end's, with the runtime's data check added (decks that cannot be
built...), which only building the data can find.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from . import ast, linter
from .checker import check
from .diagnostics import Diagnostic, Span, errors_in
from .errors import RulesetError
from .interpreter.catalog import data_diagnostics
from .interpreter.game import Game
from .parser import parse
from .settings import Settings, read_settings
from .variants import read_source, resolve


def looks_like_path(source: str) -> bool:
    """A one-line string without braces names a file: no ruleset fits on such a line."""
    return bool(source.strip()) and "\n" not in source and "{" not in source


def read_ruleset(source: str | Path, path: str | None = None) -> tuple[list[ast.Decl], Path, str]:
    """(declarations, base directory, path shown in diagnostics) for a path or a text."""
    if isinstance(source, Path) or (isinstance(source, str) and looks_like_path(source)):
        file = Path(source)
        text = read_source(file)
        shown, base_dir = str(source), file.parent
    elif isinstance(source, str):
        text, shown, base_dir = source, path or "<text>", Path(path).parent if path else Path.cwd()
    else:
        raise TypeError(f"load() takes a path or the text of a ruleset, not {type(source).__name__}")
    tree = parse(text, shown)
    return resolve(tree, base_dir, (str(Path(shown).resolve()),)), base_dir, shown


def player_count(players: int | None, settings: Settings, shown: str) -> int:
    """``players``, or the lowest count the game allows; E601 for a count it does not allow."""
    low, high = settings.players
    count = low if players is None else players
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        span = settings.header.span if settings.header is not None else Span.point(shown, 1, 1)
        raise RulesetError([Diagnostic("E601", f"this game is for {low}..{high} players, not {players!r}", span)])
    return count


def load(source: str | Path, players: int | None = None, *, path: str | None = None) -> Game:
    """Load a ruleset (a path, or the text itself) as a Game for ``players`` players.

    Raises RulesetError carrying every diagnostic when the ruleset has errors.
    """
    declarations, base_dir, shown = read_ruleset(source, path)
    problems = errors_in(check(declarations, shown, base_dir))
    if problems:
        raise RulesetError(linter.sort_diagnostics(problems, shown))
    settings, _ = read_settings(declarations, shown)   # its problems were among the check's
    return Game(declarations, player_count(players, settings, shown), base_dir, settings)


# ---------------------------------------------------------------- linting, with the data check

def lint_text(text: str, path: str = "<text>") -> list[Diagnostic]:
    """Every diagnostic for the ruleset ``text`` (shown as ``path``), its data included."""
    return linter.lint_text(text, path, data_check=data_diagnostics)


def lint_file(path: Path) -> list[Diagnostic]:
    """Every diagnostic for one ruleset file, its data included."""
    return linter.lint_file(path, data_check=data_diagnostics)


def lint_paths(paths: Iterable[str | Path]) -> list[Diagnostic]:
    """Every diagnostic for the files and directories ``paths``, sorted by location."""
    return linter.lint_paths(paths, data_check=data_diagnostics)
