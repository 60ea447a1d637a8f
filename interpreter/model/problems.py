"""The problems found while loading a game, and their diagnostics.

Building a game's tables finds problems that only evaluating its declarations can show (a
board whose data is wrong, E401; a deck that cannot be built, E402; a value that is not
what its declaration needs). Each is a ``CompileError``; the catalog collects them and the
game reports them all as one RulesetError (``diagnostics_of``). Every other problem of the
rules is the front end's to report; the compiler and the catalog meet one only if the
checker let it through, a bug (``unchecked``).
"""
from __future__ import annotations

from collections.abc import Iterable

from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import BUG_HINT, InternalError


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


def unchecked(message: str, span: Span | None) -> InternalError:
    """The error for a problem of the rules found while loading that the front end reports
    (it owns every static diagnostic: rulelang/check/), so that it cannot reach the loading
    of a checked ruleset: if it ever does, it is a bug of rulelang (E900), not the user's."""
    text = f"{message}, which the checker let through"
    return InternalError(text, Diagnostic("E900", text, span, hint=BUG_HINT))
