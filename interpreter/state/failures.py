"""Failures while the rules run, as errors of rulelang's family: the rules' own errors
(RulesRuntimeError) and rulelang's bugs (InternalError), located at a span of the ruleset.
"""
from __future__ import annotations

from rulelang.boards import BoardError
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import BUG_HINT, InternalError, RulelangError, RulesRuntimeError

from ..model.values import RuleError


def cause_of(error: Exception) -> BaseException | None:
    """The error to chain to the one rulelang raises for ``error``: none for an error of the
    rules (the user needs no Python traceback), the Python error itself for a bug, and its
    own cause for an error of the family, raised again as it is."""
    if isinstance(error, (RuleError, RecursionError, BoardError)):   # BoardError before the family it is of
        return None
    return error.__cause__ if isinstance(error, RulelangError) else error


def rulelang_error(error: Exception, span: Span | None, where: str) -> RulelangError:
    """What went wrong evaluating the rules, as an error of the family: the rules' own error
    (RulesRuntimeError) or rulelang's (InternalError), located at ``span``; ``where`` (" (in
    PROCEDURE)") ends the message."""
    if isinstance(error, BoardError):  # a board query the board cannot answer (before the family it is of)
        return RulesRuntimeError(Diagnostic("E602", error.message + where, span))
    if isinstance(error, RulelangError):
        return error
    if isinstance(error, RuleError):
        return RulesRuntimeError(Diagnostic(error.code, error.message + where, span))
    if isinstance(error, RecursionError):
        return RulesRuntimeError(Diagnostic("E603", "the rules nest calls too deeply" + where, span))
    message = f"rulelang failed while running the rules{where}: {type(error).__name__}: {error}"
    return InternalError(message, Diagnostic("E900", message, span, hint=BUG_HINT))


def runs_disagree(error: Exception, span: Span | None) -> InternalError:
    """The compiled run failed with ``error`` where the same run, one operation at a time,
    did not: a bug of rulelang (E900), never accepted as either run's outcome."""
    message = (f"rulelang's compiled code failed where its run one operation at a time did not: "
               f"{type(error).__name__}: {error}")
    return InternalError(message, Diagnostic("E900", message, span, hint=BUG_HINT))
