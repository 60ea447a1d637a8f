"""The problems found while loading a game, and their diagnostics.

Building a game's tables finds problems that only evaluating its declarations can show (a
board whose data is wrong, E401; a deck that cannot be built, E402; a value that is not
what its declaration needs). Each is a ``CompileError``; the catalog collects them and the
game reports them all as one RulesetError (``diagnostics_of``).
"""
from __future__ import annotations

from collections.abc import Iterable

from rulelang.diagnostics import Diagnostic, Span


class CompileError(Exception):
    """A problem found while building a game's tables (the catalog collects them; the Game
    reports them all as one RulesetError)."""

    def __init__(self, message: str, span: Span | None, code: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.span, self.code, self.hint = message, span, code, hint


def diagnostics_of(problems: Iterable[CompileError]) -> list[Diagnostic]:
    """The problems found while loading a game, as diagnostics in source order."""
    found = sorted(problems, key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))
    return [Diagnostic(e.code, e.message, e.span, hint=e.hint) for e in found]
