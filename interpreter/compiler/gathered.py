"""Whole zones moved onto one zone, their components' zones written once after the last move.

A run of statements that only moves whole zones onto one zone the rules name (a pile that
takes back the hands, the played cards and the leftovers), with plain writes of constants
and loops over a variable between them, writes ``State.component_zone`` for each component
it moves, one move at a time. Here the moves of whole zones onto that zone (``moves.py``'s
``zone_moved`` and ``all_moved``) move the lists only, and one mend after the run's last
move writes the zone's entries: where the zone then holds every component of its type
(``Catalog.whole_run``: one run of ids), as one slice of a constant, else each component
that entered it since the run began (the zone only grows in such a run: nothing leaves it).

Why nothing reads a stale entry: between the run's first move and the mend, its statements
are only moves of zones (which never read ``component_zone``: ``State.move_all``, the moves
in place), writes of literals, narration marks and loops over a variable's list. A move
there whose source the text does not prove a zone (it may be a component, whose move reads
its entry) has the mend written before it. A failure inside the run (the step budget in a
loop) leaves the state to be put back (``State.apply_action``, precise.py): no state with a
stale entry is seen, saved, cloned or observed.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulelang import ast

from .shuffled import named_zone

if TYPE_CHECKING:
    from .procedures import ProcedureWriter

__all__ = ["MOVES", "gathered_runs", "mend_lines", "write_statements"]

MOVES = 2
"""The moves onto the zone a run needs (a loop's moves count as MOVES): with one move, its own
writes cost what the mend does."""


def gathered_runs(statements: Sequence[ast.Stmt], writer: ProcedureWriter) -> dict[int, tuple[int, int]]:
    """By the index of its first statement: ``(last, slot)`` of each run of ``statements``
    that gathers zones onto the zone in ``slot`` (its moves at least MOVES; ``last``: the
    index of its last statement that moves)."""
    runs: dict[int, tuple[int, int]] = {}
    at = 0
    while at < len(statements):
        slot = _onto(statements[at], writer)
        if slot is None:
            at += 1
            continue
        moves, last, end = 0, at, at
        while end < len(statements) and _allowed(statements[end], slot, writer):
            counted = _moves(statements[end], slot, writer)
            if counted:
                moves, last = moves + counted, end
            end += 1
        if moves >= MOVES:
            runs[at] = (last, slot)
        at = max(last, at) + 1
    return runs


def write_statements(writer: ProcedureWriter, statements: Sequence[ast.Stmt], indent: int) -> None:
    """Each of ``statements`` written by ``writer`` in turn; a run that gathers zones onto one
    (``gathered_runs``) written with its moves' zone entries left to a mend after its last."""
    runs = gathered_runs(statements, writer) if writer.gathered is None and not writer.looping else {}
    last = -1
    try:
        for at, stmt in enumerate(statements):
            found = runs.get(at)
            if found is not None:
                last, slot = found
                mark = writer.module.fresh("_g")
                writer.gathered = (str(slot), mark)
                writer.emit(indent, f"{mark} = len(st.zones[{slot}])", stmt.span)
            getattr(writer, "_" + type(stmt).__name__)(stmt, indent)
            if at == last and writer.gathered is not None:
                for line in mend_lines(writer, *writer.gathered):
                    writer.emit(indent, line, stmt.span)
                writer.gathered = None
    finally:   # (a writer that fails here, e.g. too deep for Python, writes its next code from no run)
        if runs:
            writer.gathered = None


def mend_lines(writer: ProcedureWriter, slot: str, mark: str) -> list[str]:
    """The lines that write the zone entries of the components that entered the zone in
    ``slot`` since its length was ``mark``: all of its type's run as one slice where it
    holds the whole run, else each of them."""
    first, stop = writer.cat.whole_run[int(slot)]
    each = ["_m_of = st.component_zone",
            f"for _m_moved in st.zones[{slot}][{mark}:]:",
            f"    _m_of[_m_moved.id] = {slot}"]
    if stop - first <= 0:
        return each
    entries = writer.module.constant((int(slot),) * (stop - first), f"<the zone {slot} {stop - first} times>")
    return [f"if len(st.zones[{slot}]) == {stop - first}:   # (its type's whole run of ids: Catalog.whole_run)",
            f"    st.component_zone[{first}:{stop}] = {entries}",
            "else:",
            *("    " + line for line in each)]


def _onto(stmt: ast.Stmt, writer: ProcedureWriter) -> int | None:
    """The slot of the zone the rules name that ``stmt`` (a move, or a loop holding one)
    first moves a zone onto, else None."""
    if isinstance(stmt, ast.Move):
        zone = named_zone(writer.cat, stmt.to, writer.compiler.scope)
        return zone.slot if zone is not None and isinstance(stmt.what, (ast.Name, ast.Attribute)) else None
    if isinstance(stmt, ast.For):
        for inner in stmt.body.statements:
            found = _onto(inner, writer)
            if found is not None:
                return found
    return None


def _allowed(stmt: ast.Stmt, slot: int, writer: ProcedureWriter) -> bool:
    """Whether ``stmt`` may stand in a run that gathers onto the zone in ``slot``: it reads
    no component's zone entry (but for a move the text does not prove a zone's, which has
    the mend before it) and moves nothing out of that zone."""
    if isinstance(stmt, ast.Narrate):
        return True
    if isinstance(stmt, ast.Let):
        return isinstance(stmt.value, ast.Literal)
    if isinstance(stmt, ast.Assign):   # (a component's variable written reads its zone for the event: not here)
        target = stmt.target
        return isinstance(stmt.value, ast.Literal) and (isinstance(target, ast.Name) or (
            isinstance(target, ast.Attribute) and isinstance(target.target, ast.Name)
            and target.name in writer.cat.player_vars and target.name not in writer.cat.component_vars))
    if isinstance(stmt, ast.Move):
        zone = named_zone(writer.cat, stmt.to, writer.compiler.scope)
        return zone is not None and zone.slot == slot and isinstance(stmt.what, (ast.Name, ast.Attribute))
    if isinstance(stmt, ast.For):
        return isinstance(stmt.source, ast.Name) and stmt.var not in writer.cat.constants \
            and all(_allowed(inner, slot, writer) for inner in stmt.body.statements)
    return False


def _moves(stmt: ast.Stmt, slot: int, writer: ProcedureWriter) -> int:
    """How many moves onto the zone in ``slot`` ``stmt`` makes, a loop's counted MOVES each."""
    if isinstance(stmt, ast.Move):
        return 1
    if isinstance(stmt, ast.For):
        return MOVES * sum(_moves(inner, slot, writer) for inner in stmt.body.statements)
    return 0
