"""The one family of errors that rulelang raises to its callers.

Every error carries diagnostics (code, location, message, hint), so a host can show
``path:line:col: CODE message`` for any of them. Which class tells whose fault it is:

- ``RulesetError``: the ruleset (or a file it names) is wrong; raised by ``rulelang.load``.
- ``IllegalActionError`` (a ``ValueError``): the host made a call that is not legal here
  (an action not offered, a player not to act, a bad argument); the state is unchanged.
- ``RulesRuntimeError``: the rules did something impossible while running; its diagnostic
  has the span of the rule that failed; the state is left as it was before the call.
- ``StateDataError`` (a ``ValueError``): saved state data that does not fit the game.
- ``InternalError``: rulelang itself failed; a bug to report, never the user's fault.
- ``rulelang.boards.BoardError`` (a ``ValueError``, defined with the boards): bad board data
  or a query a board cannot answer (E401).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulelang.diagnostics import Diagnostic


class RulelangError(Exception):
    """Base class of every error rulelang raises on purpose; ``diagnostics`` says why."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics) or type(self).__name__)

    @property
    def diagnostic(self) -> Diagnostic:
        """The first (for most errors, the only) diagnostic."""
        return self.diagnostics[0]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, arguments and attributes (its diagnostics among them), whatever
        its constructor takes, so that an error reaches another process (a worker's parent, a
        Dask client) unchanged."""
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(cls: type[RulelangError], args: tuple[Any, ...], attributes: dict[str, Any]) -> RulelangError:
    """An error of ``cls`` with these arguments and attributes (unpickling; no constructor runs)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(attributes)
    return error


class RulesetError(RulelangError):
    """A ruleset that cannot be loaded; carries every diagnostic found."""


class IllegalActionError(RulelangError, ValueError):
    """A host call that is not legal in this state (an action not offered, a player not to
    act, a bad argument); the state is left unchanged."""

    def __init__(self, message: str, code: str = "E607"):
        super().__init__([Diagnostic(code, message)])


class RulesRuntimeError(RulelangError):
    """The rules did something impossible while running; the diagnostic points at the rule."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__([diagnostic])


class StateDataError(RulelangError, ValueError):
    """Saved state data (JSON data or a position's text) that does not fit this game (E606).
    ``path`` is the JSON path of the value at fault (``$.frames[0].pc``) when there is one;
    a position's problems come as several diagnostics, each located in its text."""

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] | None = None, *, path: str | None = None):
        super().__init__(diagnostics if diagnostics is not None else [Diagnostic("E606", message)])
        self.path = path


class InternalError(RulelangError):
    """rulelang itself failed: a bug in rulelang, reported as such (E900)."""

    def __init__(self, message: str, diagnostic: Diagnostic | None = None):
        super().__init__([diagnostic or Diagnostic("E900", message, hint=BUG_HINT)])


BUG_HINT = "this is a bug in rulelang; please report it with the ruleset"
