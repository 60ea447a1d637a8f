"""A decision made where a procedure run as a Python function pauses (unpaused.py).

Where such a function reaches a choice, a menu or a simultaneous choice, it pushes the frame
that goes on at the statement's operation and returns; the run loop, or the resumable
function that called it (resumable.py), then runs that frame, whose first operation is the
decision: a call of the frame's resumable function, its prologue and dispatch, only to make
the decision pending. Called by a resumable function (``_decide``), the function makes it
itself, on the frame it has just pushed: the operation's own lines, as the resumable function
writes them in place (``Module.inline``), else the operation called. It returns ``DECIDED``
then, and the caller counts that operation's step as the run loop would have counted it
(the run stops as soon as a decision is pending: the step would be counted nowhere else),
and runs the frame only if the operation went on without a decision (a choice's
'otherwise', a simultaneous choice of no one). Called by the operation of lowered code that
the run loop runs alone (``run_one``: the general path, one step an operation), it leaves
the decision to the frame's operation, counted as its own step: the steps, the states and
the errors are the same at every budget either way. An operation that fails fails alike in
place (the same state, but the callers' frames not yet made under it): the run is then made
again one operation at a time (state/precise.py), which locates the error.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..model.program import Code
    from .module import Module

__all__ = ["DECIDING", "decided_lines"]

DECIDING = (ast.Choose, ast.Menu, ast.Simultaneous)
"""The statements that pause for a decision made by their first operation."""

_GOES = re.compile(r"@\w+@|\b(?:pc|steps|return|continue|break|yield)\b")
"""What a line written in place may do that only the resumable function's loop can: go to
another operation, count steps, leave the function."""


def decided_lines(module: Module, code: Code, stmt: ast.Stmt, pc: int) -> list[tuple[str, Span | None]] | None:
    """The lines (at no indent) that run operation ``pc`` of ``code``, where ``stmt`` pauses,
    on the frame just pushed (``_f``), its locals in ``env``: where ``stmt`` is a decision's
    statement and ``pc`` its operation (one that may stop the run); else None."""
    if not isinstance(stmt, DECIDING) or pc >= len(code.ops) or pc not in code.stops:
        return None
    op = code.ops[pc]
    body = module.inline.get(op)
    if body is None or body.boxes or any(_GOES.search(line) for line in body.lines):
        return [(f"{module.constant(op, f'<operation {pc}>')}(st, _f)", stmt.span)]
    spans = body.spans if body.spans is not None else (stmt.span,) * len(body.lines)
    return [(re.sub(r"\bfr\b", "_f", line), span) for line, span in zip(body.lines, spans, strict=True)]
