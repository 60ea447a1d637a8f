"""Whole zones moved onto one zone, their components' zones written once after the last move.

A run of statements that only moves whole zones onto one zone the rules name (a pile that
takes back the hands, the pieces played and the leftovers), with plain writes of constants
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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulelang import ast

from .shuffled import named_zone

if TYPE_CHECKING:
    from .procedures import ProcedureWriter

__all__ = ["MOVES", "Gathering", "gathered_runs", "mend_lines", "write_statements"]

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


class Gathering:
    """The runs of one block's statements that gather zones onto one (``gathered_runs``), as
    ``writer`` writes the statements in turn: ``before`` a statement, where a run begins, the
    zone's length is marked; ``after`` a run's last move, the mend is written. Used as a
    context (``with``): a writer that fails inside it writes its next code from no run.
    ``keep`` (each statement of a run, else the run is not taken) lets a writer refuse runs."""

    def __init__(self, writer: ProcedureWriter, statements: Sequence[ast.Stmt],
                 keep: Callable[[ast.Stmt], bool] | None = None):
        runs = gathered_runs(statements, writer) if writer.gathered is None and not writer.looping else {}
        if keep is not None:
            runs = {at: found for at, found in runs.items() if all(map(keep, statements[at:found[0] + 1]))}
        self.writer, self.runs, self.last = writer, runs, -1

    def __enter__(self) -> Gathering:
        return self

    def __exit__(self, *_: object) -> None:
        if self.runs:
            self.writer.gathered = None

    def before(self, at: int, stmt: ast.Stmt, indent: int) -> None:
        """Where a run begins at the statement ``at``: the zone's length marked."""
        found = self.runs.get(at)
        if found is not None:
            self.last, slot = found
            mark = self.writer.module.fresh("_g")
            self.writer.gathered = (str(slot), mark)
            self.writer.emit(indent, f"{mark} = len(st.zones[{slot}])", stmt.span)

    def after(self, at: int, stmt: ast.Stmt, indent: int) -> None:
        """After the statement ``at``, where it is a run's last move: the mend."""
        writer = self.writer
        if at == self.last and writer.gathered is not None:
            for line in mend_lines(writer, *writer.gathered):
                writer.emit(indent, line, stmt.span)
            writer.gathered = None


def write_statements(writer: ProcedureWriter, statements: Sequence[ast.Stmt], indent: int) -> None:
    """Each of ``statements`` written by ``writer`` in turn; a run that gathers zones onto one
    (``gathered_runs``) written with its moves' zone entries left to a mend after its last."""
    with Gathering(writer, statements) as runs:
        for at, stmt in enumerate(statements):
            runs.before(at, stmt, indent)
            getattr(writer, "_" + type(stmt).__name__)(stmt, indent)
            runs.after(at, stmt, indent)


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
    """How many moves of a zone onto the zone in ``slot`` ``stmt`` makes, a loop's counted
    MOVES each (a move of a local, which may be a component, is not counted: a run of such
    moves would write the mend before each)."""
    if isinstance(stmt, ast.Move):
        return 1 if _names_a_zone(stmt.what, writer) else 0
    if isinstance(stmt, ast.For):
        return MOVES * sum(_moves(inner, slot, writer) for inner in stmt.body.statements)
    return 0


def _names_a_zone(what: ast.Expr, writer: ProcedureWriter) -> bool:
    """Whether ``what`` reads as a zone: a zone the rules name, or a player's zone
    (``p.hand``, the name of a per-player zone)."""
    if isinstance(what, ast.Attribute):
        zone = writer.cat.zones.get(what.name)
        return zone is not None and zone.owner == "player"
    return named_zone(writer.cat, what, writer.compiler.scope) is not None
