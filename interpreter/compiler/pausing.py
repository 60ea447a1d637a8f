"""Which statements and procedures can pause: what the code generator asks before it writes
a procedure as one Python function (procedures.py) or a run of statements as one block of
resumable code (lower.py, unpaused.py)."""
from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping

from rulelang import ast

_PAUSES = (ast.Choose, ast.Menu, ast.Simultaneous, ast.Roll, ast.RandomPick, ast.Shuffle, ast.Next, ast.EndGame)
_LOOPS = (ast.For, ast.While, ast.Repeat)


def never_pausing(procedures: Mapping[str, ast.ProcedureDecl]) -> list[str]:
    """The procedures that can never pause, in declaration order."""
    calls: dict[str, set[str]] = {}
    for name, decl in procedures.items():
        called: set[str] = set()
        if decl.body is not None and _straight(decl.body, called, until_loop=False):
            calls[name] = called
    changed = True
    while changed:  # a procedure that calls one that may pause may pause
        changed = False
        for name in list(calls):
            if not calls[name] <= set(calls):
                del calls[name]
                changed = True
    return [name for name in procedures if name in calls]


def _straight(block: ast.Block, called: set[str], until_loop: bool) -> bool:
    """Whether ``block`` cannot pause by itself and needs nothing but Python's control flow
    (a 'continue' in a 'repeat ... until' would skip the test); the procedures it calls are
    added to ``called``. ``until_loop``: the innermost loop is a 'repeat ... until'."""
    for stmt in block.statements:
        if isinstance(stmt, _PAUSES) or (isinstance(stmt, ast.Continue) and until_loop):
            return False
        if isinstance(stmt, ast.Assign) and not isinstance(stmt.target, (ast.Name, ast.Attribute)):
            return False
        if isinstance(stmt, (ast.CallStmt, ast.CallLet)):
            called.add(stmt.procedure)
        inner_until = isinstance(stmt, ast.Repeat) and stmt.until is not None
        for inner in _blocks(stmt):
            if not _straight(inner, called, inner_until if isinstance(stmt, _LOOPS) else until_loop):
                return False
    return True


def runs_through(stmt: ast.Stmt, never_pausing: Collection[str], loops: int = 0) -> bool:
    """Whether ``stmt``, in a procedure that may pause, can be part of a compiled block
    (``write_block``): it cannot pause, calls only procedures that never pause, and neither
    returns nor leaves a loop outside itself ('break' and 'continue' are in its own loops)."""
    if isinstance(stmt, (*_PAUSES, ast.Return)):
        return False
    if isinstance(stmt, (ast.Break, ast.Continue)):
        return loops > 0
    if isinstance(stmt, ast.Assign) and not isinstance(stmt.target, (ast.Name, ast.Attribute)):
        return False
    if isinstance(stmt, (ast.CallStmt, ast.CallLet)):
        return stmt.procedure in never_pausing
    if isinstance(stmt, ast.Repeat) and stmt.until is not None and continues(stmt.body):
        return False
    inner = loops + 1 if isinstance(stmt, _LOOPS) else loops
    return all(runs_through(s, never_pausing, inner) for block in _blocks(stmt) for s in block.statements)


def lowered_size(stmt: ast.Stmt) -> int:
    """How many operations the lowering (lower.py) makes of ``stmt``, a statement that
    ``runs_through``, statement by statement: saved formats 1 and 2 counted them."""
    def size(block: ast.Block) -> int:
        return sum(map(lowered_size, block.statements))
    if isinstance(stmt, ast.If):
        return sum(2 + size(body) for _, body in stmt.branches) + (size(stmt.otherwise) if stmt.otherwise else 0)
    if isinstance(stmt, ast.For):
        return 4 + size(stmt.body)  # start, step, the body, jump back, drop the list
    if isinstance(stmt, ast.While):
        return 2 + size(stmt.body)  # test, the body, jump back
    if isinstance(stmt, ast.Repeat):
        return 1 + size(stmt.body)  # the body, then jump back or test
    return 1


def continues(block: ast.Block) -> bool:
    """Whether a 'continue' of ``block`` continues the loop whose body it is."""
    return any(isinstance(s, ast.Continue) or (not isinstance(s, _LOOPS) and any(continues(b) for b in _blocks(s)))
               for s in block.statements)


def _blocks(stmt: ast.Stmt) -> Iterator[ast.Block]:
    if isinstance(stmt, ast.If):
        yield from (body for _, body in stmt.branches)
        if stmt.otherwise is not None:
            yield stmt.otherwise
    elif isinstance(stmt, _LOOPS):
        yield stmt.body
