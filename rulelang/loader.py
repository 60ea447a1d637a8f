"""Loading: path or text -> parsed, merged, checked ruleset -> a runnable Game."""
from __future__ import annotations

from pathlib import Path

from . import ast
from .diagnostics import Diagnostic, Span, errors_in
from .errors import RulesetError
from .parser import parse
from .variants import read_source, resolve


def looks_like_path(source: str) -> bool:
    """A one-line string without braces names a file: no ruleset fits on such a line."""
    return bool(source.strip()) and "\n" not in source and "{" not in source


def read_ruleset(source, path: str | None = None):
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


def game_settings(declarations) -> tuple[str, dict, ast.GameDecl | None]:
    """The title and settings of the game header, evaluated as plain values."""
    headers = [d for d in declarations if isinstance(d, ast.GameDecl)]
    if not headers:
        return "untitled", {}, None
    header = headers[-1]
    settings = {}
    for s in header.settings:
        settings[s.name] = _setting_value(s)
    return header.title, settings, header


def _setting_value(setting: ast.Setting):
    v = setting.value
    if isinstance(v, ast.Literal):
        return v.value
    if isinstance(v, ast.Name):
        return v.name
    if isinstance(v, ast.BinaryOp) and v.op == ".." and isinstance(v.left, ast.Literal) \
            and isinstance(v.right, ast.Literal):
        return (v.left.value, v.right.value)
    raise RulesetError([Diagnostic("E202", f"setting '{setting.name}' needs a number, a name or a range "
                                           f"like 2..4", v.span)])


def player_range(settings) -> tuple[int, int]:
    """The (lowest, highest) player count of the 'players' setting (1..8 when absent)."""
    value = settings.get("players", (1, 8))
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return 1, 8  # a malformed value: the checker reports it (E202)


def _validate_settings(settings, header, shown) -> list[Diagnostic]:
    problems = []
    spans = {s.name: s.span for s in header.settings} if header else {}
    for name in ("players", "max_decisions", "max_steps", "dummies"):
        value = settings.get(name)
        low = 0 if name == "dummies" else 1
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= low) or (
            name == "players" and isinstance(value, tuple) and all(isinstance(v, int) and v > 0 for v in value)
            and value[0] <= value[1])
        if not ok:
            problems.append(Diagnostic("E202", f"setting '{name}' needs a {'' if low == 0 else 'positive '}whole number"
                                               + (" or a range like 2..4" if name == "players" else ""),
                                       spans.get(name) or Span.point(shown, 1, 1)))
    return problems


def load(source, players: int | None = None, *, path: str | None = None):
    """Load a ruleset (a path, or the text itself) as a Game for ``players`` players.

    Raises RulesetError carrying every diagnostic when the ruleset has errors.
    """
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.lower import CompileError

    from .checker import check

    declarations, base_dir, shown = read_ruleset(source, path)
    problems = errors_in(check(declarations, shown))
    if problems:
        raise RulesetError(problems)
    title, settings, header = game_settings(declarations)
    problems = _validate_settings(settings, header, shown)
    if problems:
        raise RulesetError(problems)
    low, high = player_range(settings)
    count = low if players is None else players
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        span = header.span if header else Span.point(shown, 1, 1)
        raise RulesetError([Diagnostic("E601", f"this game is for {low}..{high} players, not {players!r}", span)])
    try:
        return Game(declarations, count, base_dir, settings, title)
    except CompileError as error:
        raise RulesetError([Diagnostic(e.code, e.message, e.span or Span.point(shown, 1, 1), hint=e.hint)
                            for e in error.all]) from None
