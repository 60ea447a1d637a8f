"""The game header's settings: the one validator that loading and linting share.

``read_settings`` turns the ``game "Title" { ... }`` header of a merged ruleset into a
``Settings`` value and the E202 diagnostics of every setting that is unknown or has a
value the engine cannot use. Nothing else reads the header's settings.
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from rulelang import ast
from rulelang.diagnostics import Diagnostic, Span

DEFAULT_PLAYERS = (1, 8)
DEFAULT_MAX_STEPS = 500_000
MAX_PLAYERS = 64   # the most players a ruleset may declare
MAX_DUMMIES = 16   # the most dummy seats
MAX_MAX_STEPS = 10_000_000  # the highest 'max_steps' (a runaway stops within seconds)
MAX_DECISIONS = 2**63 - 1  # 'max_decisions' only has to be a number the engine can count to
MAX_SCORE = 2**53   # 'score_sum' and 'score_range' stay within what a float (a return) holds exactly


@dataclass(frozen=True)
class Settings:
    """The header of a ruleset, as plain values (defaults where a setting is absent)."""

    title: str = "untitled"
    players: tuple[int, int] = DEFAULT_PLAYERS   # the lowest and highest player count
    max_decisions: int | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    dummies: int = 0
    start: str | None = None                      # the first phase (default: the first declared)
    score_sum: int | None = None                  # declared: the scores of every ended game sum to it
    score_range: tuple[int, int] | None = None    # declared: every score lies in it
    header: ast.GameDecl | None = None            # where the settings are written, for spans

    def span_of(self, name: str, path: str) -> Span:
        """Where setting ``name`` is written (the header, or the file's start, when it is not)."""
        if self.header is not None:
            for setting in self.header.settings:
                if setting.name == name:
                    return setting.span
            return self.header.span
        return Span.point(path, 1, 1)


def _count(expr: ast.Expr, low: int, high: int) -> int | None:
    """The whole number ``expr`` writes, when it is a literal from ``low`` to ``high``."""
    if isinstance(expr, ast.Literal) and type(expr.value) is int and low <= expr.value <= high:
        return expr.value
    return None


def _players(expr: ast.Expr) -> tuple[int, int] | None:
    single = _count(expr, 1, MAX_PLAYERS)
    if single is not None:
        return single, single
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        low, high = _count(expr.left, 1, MAX_PLAYERS), _count(expr.right, 1, MAX_PLAYERS)
        if low is not None and high is not None and low <= high:
            return low, high
    return None


def _signed(expr: ast.Expr) -> int | None:
    """The whole number ``expr`` writes, negative ones too, within +-MAX_SCORE."""
    if isinstance(expr, ast.UnaryOp) and expr.op == "-":
        magnitude = _count(expr.operand, 1, MAX_SCORE)
        return None if magnitude is None else -magnitude
    return _count(expr, 0, MAX_SCORE)


def _score_range(expr: ast.Expr) -> tuple[int, int] | None:
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        low, high = _signed(expr.left), _signed(expr.right)
        if low is not None and high is not None and low <= high:
            return low, high
    return None


def _name(expr: ast.Expr) -> str | None:
    return expr.name if isinstance(expr, ast.Name) else None


# Each setting: how to read its value, and what to say when it cannot be read.
READERS = {
    "players": (_players, f"setting 'players' needs a whole number from 1 to {MAX_PLAYERS} or a range like 2..4"),
    "max_decisions": (lambda e: _count(e, 1, MAX_DECISIONS),
                      f"setting 'max_decisions' needs a whole number from 1 to {MAX_DECISIONS}"),
    "max_steps": (lambda e: _count(e, 1, MAX_MAX_STEPS),
                  f"setting 'max_steps' needs a whole number from 1 to {MAX_MAX_STEPS}"),
    "dummies": (lambda e: _count(e, 0, MAX_DUMMIES), f"setting 'dummies' needs a whole number from 0 to {MAX_DUMMIES}"),
    "start": (_name, "setting 'start' needs the name of a phase"),
    "score_sum": (_signed, f"setting 'score_sum' needs a whole number from -{MAX_SCORE} to {MAX_SCORE}"),
    "score_range": (_score_range, "setting 'score_range' needs a range of whole numbers like -2..2 (low first)"),
}
KNOWN_SETTINGS = frozenset(READERS)


def read_settings(declarations: Sequence[ast.Decl], path: str) -> tuple[Settings, list[Diagnostic]]:
    """The settings of the last game header (variants merge theirs into one) and the E202
    diagnostics of those that are unknown or malformed (a malformed one keeps its default)."""
    headers = [d for d in declarations if isinstance(d, ast.GameDecl)]
    if not headers:
        return Settings(), []
    header = headers[-1]
    values: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for setting in header.settings:
        reader = READERS.get(setting.name)
        if reader is None:
            problems.append(_unknown(setting))
            continue
        read, message = reader
        value = read(setting.value)
        if value is None:
            problems.append(Diagnostic("E202", message, setting.value.span))
        else:
            values[setting.name] = value
    return Settings(title=header.title, header=header, **values), problems  # type: ignore[arg-type]


def _unknown(setting: ast.Setting) -> Diagnostic:
    close = difflib.get_close_matches(setting.name, KNOWN_SETTINGS, n=1)
    hint = f"did you mean '{close[0]}'?" if close else "settings are: " + ", ".join(sorted(KNOWN_SETTINGS))
    return Diagnostic("E202", f"unknown setting '{setting.name}'", setting.span, hint=hint)
