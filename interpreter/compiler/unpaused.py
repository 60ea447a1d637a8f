"""Procedures that may pause, run as Python functions until they do.

Most calls of a procedure that may pause do not pause: the choice is in a branch not taken,
after an early 'return', or in a loop that runs no round. Such a call needs no frame. Each
procedure that may pause also becomes a Python function of its arguments, ``f(st, depth,
*args)``, written like a procedure that never pauses (procedures.py): its locals are Python
locals, each value given one also written to a dict, ``env``, keyed as the lowered code keys
them (so ``env`` holds what the lowered code's would, in the same order), and its parameters
are read as their declared types promise where held (each call checks its arguments). It
runs the statements itself up to the first one it does not run (a choice, a chance event,
'next', 'end game', an item of a list assigned, a loop whose 'continue' skips its test):
there it pushes the frame the lowered code would have, at that statement's first operation,
with ``env`` (``pause``), and returns a ``Paused``, so that each caller run the same way
pushes its own frame under it (``Paused.under``). The state is then the one the lowered code
reaches at that operation: the same frames, program counters and locals, so saved states,
clones and replays are unchanged. A call that returns returns its value, and no frame was made.

A 'shuffle' of a zone the rules name is a chance event only with explicit chance: without it
the function draws it at once, as the operation would (``chance.shuffle_zone_in_place``: the
same draws, events and knowledge), and goes on; with it, it pauses there as before. Such a
function draws from the random generator without pausing, so each call of one (or of one
that calls one) is in its code's ``draws``: a new game's start, shared by every seed, stops
before it (``State._run_until_decision``).

Where each name is bound by one statement and none in a loop (``env_made_at_pauses``), the
function keeps its locals and the walk of its 'for' in Python locals alone, and makes ``env``
only where it pauses, in the order the lowered code would have bound them.

Where the lowering put each statement (``Snapshot``: its first operation, and the compiler's
names as they were then) is recorded while the procedure is lowered, so the function names
every local by the same key. Its loops and calls are counted as steps and bounded in depth as
in a procedure that never pauses.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, NamedTuple

from rulelang import ast
from rulelang.check.tree import walk
from rulelang.diagnostics import Span

from ..model.program import Code
from ..tables.builtins import FREE_WORK
from . import gathered as gathering
from .chance import shuffle_zone_in_place
from .decided import decided_lines
from .fields_read_once import fields_read_once
from .globals_forwarded import globals_forwarded
from .integers import is_tuple
from .lets import bound_once, teach
from .pausing import continues, runs_through
from .procedures import ProcedureWriter
from .scope import Scope
from .shuffled import named_zone
from .written_after import written_after_the_loop

if TYPE_CHECKING:
    from ..tables.catalog import Catalog
    from .lower import Compiler

__all__ = ["Snapshot", "UnpausedWriter", "drawing_in_place", "env_made_at_pauses", "pauses_at_once", "snapshot"]

_PAUSING = (ast.Choose, ast.Menu, ast.Simultaneous, ast.Roll, ast.RandomPick, ast.Shuffle, ast.Next, ast.EndGame)


class Snapshot(NamedTuple):
    """Where the lowering of a procedure was when it reached a statement: the operation the
    statement starts at, and the compiler's names then (its locals, their keys, the names of
    each block, the count of 'for' loops)."""

    pc: int
    scope: frozenset[str]
    renames: tuple[tuple[str, str], ...]
    block_names: tuple[frozenset[str], ...]
    counter: int


def snapshot(compiler: Compiler, pc: int) -> Snapshot:
    """The compiler's names now, at operation ``pc``."""
    return Snapshot(pc, frozenset(compiler.scope), tuple(compiler.renames.items()),
                    tuple(frozenset(b) for b in compiler.block_names), compiler.counter)


class _Binding(NamedTuple):
    """A local of a procedure whose environment is made where it pauses: its key, its Python
    text, the blocks it was bound in (bound for certain in a block they begin), and whether it
    leaves the environment with them (a loop's walk)."""

    key: str
    local: str
    path: tuple[int, ...]
    scoped: bool


class UnpausedWriter(ProcedureWriter):
    """Writes a procedure that may pause (already lowered to ``code``) as a Python function
    that runs it until it pauses."""

    def __init__(self, compiler: Compiler, names: Mapping[str, str], unpaused: Mapping[str, str],
                 snapshots: Mapping[int, Snapshot], code: Code):
        super().__init__(compiler, names, in_env=True)
        self.depth = "_depth"
        self.unpaused = unpaused  # procedure that may pause -> the name of its function
        self.snapshots = snapshots
        self.code = code
        self.walks: list[tuple[str, str, str]] = []   # the loops that may pause around: walk key, list, next index

    def write_unpaused(self, decl: ast.ProcedureDecl, name: str) -> None:
        """Compile ``decl`` as function ``name``; SyntaxError if Python cannot, or if a
        statement has no recorded place."""
        c = self.compiler
        c.scope = {p.name for p in decl.params}
        c.renames, c.block_names, c.loops = {}, [set()], []
        self.lines, self.locals = [], {}
        self.once, self.known = bound_once(decl), {}
        params = [self.local(p.name) for p in decl.params]
        self.emit(0, f"def {name}({', '.join(['st', '_depth', *params, '_decide=False'])}):  # procedure at"
                  f" {_where(decl.span)},"
                  " until it pauses", decl.span)
        self.lazy = env_made_at_pauses(decl)
        self.returning: set[tuple[int, ...]] = set()   # the paths of blocks that return or pause
        self.bindings = [_Binding(p.name, a, (), False) for p, a in zip(decl.params, params, strict=True)]
        self.path = [0]
        if not self.lazy:
            pairs = ", ".join(f"{self.constant(b.key)}: {b.local}" for b in self.bindings)
            self.emit(1, f"env = {{{pairs}}}", decl.span)
        c.writer.held.enter(decl, self.local)   # checked by every call
        try:
            if decl.body is not None:
                self.block(decl.body, 1)
        finally:
            c.writer.held.enter(None, str)
        self.emit(1, "return None", decl.span)
        self.lines = fields_read_once(globals_forwarded(self.lines))   # (the state's tables read once a call)
        source = "\n".join(line for line, _ in self.lines) + "\n"
        self.module.define(name, source, spans=[span for _, span in self.lines], procedure=decl.name,
                           local_names={py: key for key, py in self.locals.items()})

    def local(self, key: str) -> str:
        """The Python local that holds the local whose environment key is ``key`` (read
        there; each value it is given is also written to ``env``: ``bound``)."""
        found = self.locals.get(key)
        if found is None:
            found = self.locals[key] = self.module.fresh("_l")
        return found

    def bound(self, indent: int, local: str, span: Span) -> None:
        key = next(k for k, py in self.locals.items() if py == local)
        if not self.lazy:
            self.emit(indent, f"env[{self.constant(key)}] = {local}", span)
        elif all(b.key != key for b in self.bindings):
            self.bindings.append(_Binding(key, local, tuple(self.path), False))

    def made_env(self, indent: int, span: Span) -> None:
        """Where the procedure pauses, when its environment is made there: ``env`` as the
        lowered code's is here, its locals in the order they were first bound (none is bound
        twice, none in a loop: ``env_made_at_pauses``), those bound only on some ways here if they
        are. Else the walks of the loops it pauses in written to ``env`` (``_walk``)."""
        if not self.lazy:
            for walk, seq, i in self.walks:
                self.emit(indent, f"env[{walk}] = ({seq}, {i})", span)
            return
        here, entries = tuple(self.path), []
        for b in self.bindings:
            certain = here[:len(b.path)] == b.path
            if not certain and self._left_by_return(b.path, here):
                continue   # (a Python local certainly not bound here)
            if certain or not b.scoped:
                entries.append((b, certain))
        self.emit(indent, "env = {}", span)
        for b, certain in entries:
            if not certain:   # (a Python local not bound yet is a NameError)
                self.emit(indent, "try:", span)
            self.emit(indent + (not certain), f"env[{self.constant(b.key)}] = {b.local}", span)
            if not certain:
                self.emit(indent, "except NameError:", span)
                self.emit(indent + 1, "pass", span)

    def _left_by_return(self, bound: tuple[int, ...], here: tuple[int, ...]) -> bool:
        """Whether a block of ``bound`` (where a local was bound) that is not one of
        ``here`` returns or pauses, with no 'break' or 'continue' that may leave it before:
        the function did not go on past it."""
        return any(bound[:k] != here[:k] and bound[:k] in self.returning for k in range(1, len(bound) + 1))

    def scope(self) -> Scope:
        """The names of the procedure are its Python locals (``env`` kept for what is passed
        it; none when it is made only where the procedure pauses)."""
        c = self.compiler
        return teach(Scope(set(), str, {name: self.local(c.key(name)) for name in sorted(c.scope)}, "0",
                           env="None" if self.lazy else "env"), self.known)

    def _For(self, node: ast.For, indent: int) -> None:
        """A 'for' that does not pause: its variable bound in it (not for certain after it)."""
        self.path.append(len(self.lines))
        super()._For(node, indent)
        self.path.pop()

    def for_over(self, node: ast.For, items: str, indent: int) -> None:
        """``ProcedureWriter.for_over``, the environment written after the loop rather than
        in each of its rounds where that keeps it (written_after.py)."""
        start = len(self.lines)
        super().for_over(node, items, indent)
        if not self.lazy:
            written_after_the_loop(self.lines, start)

    def block(self, block: ast.Block, indent: int) -> None:
        """The statements of ``block``: each at the names the lowering had there."""
        c = self.compiler
        saved = dict(c.renames)
        c.block_names.append(set())
        self.path.append(len(self.lines))
        statements = block.statements
        with gathering.Gathering(self, statements, lambda stmt: runs_through(stmt, self.names)) as runs:
            for at, stmt in enumerate(statements):   # (a run's statements run here: none pauses)
                place = self.snapshots.get(id(stmt))
                if place is not None:
                    self._restore(place)
                runs.before(at, stmt, indent)
                if runs_through(stmt, self.names):
                    getattr(self, "_" + type(stmt).__name__)(stmt, indent)
                elif self._unrun(stmt, indent, place):
                    if not any(isinstance(n, (ast.Break, ast.Continue)) for n in walk(block)):
                        self.returning.add(tuple(self.path))   # (nothing leaves it before)
                    break  # (what follows in the block runs in the frame, if at all)
                runs.after(at, stmt, indent)
        if not block.statements:
            self.emit(indent, "pass", block.span)
        self.path.pop()
        c.block_names.pop()
        c.renames = saved

    def _restore(self, place: Snapshot) -> None:
        c = self.compiler
        c.scope, c.renames = set(place.scope), dict(place.renames)
        c.block_names, c.counter = [set(b) for b in place.block_names], place.counter

    def _unrun(self, stmt: ast.Stmt, indent: int, place: Snapshot | None) -> bool:
        """A statement that the lowering made operations of: run here when it is control flow
        or a call, or a shuffle of a zone the rules name drawn at once (without explicit
        chance), else the frame goes on from its first operation. Whether the block goes no
        further here (it returned or paused)."""
        c = self.compiler
        if isinstance(stmt, (ast.If, ast.While, ast.Return, ast.Break, ast.Continue)) or (
                isinstance(stmt, ast.Repeat) and not (stmt.until is not None and continues(stmt.body))):
            getattr(self, "_" + type(stmt).__name__)(stmt, indent)
            return isinstance(stmt, ast.Return)
        if isinstance(stmt, ast.For):
            self._walk(stmt, indent)
        elif place is None:
            raise SyntaxError("a statement the lowering did not place")
        elif isinstance(stmt, (ast.CallStmt, ast.CallLet)) and stmt.procedure in self.unpaused:
            self._paused_call(stmt, indent, place)
        elif isinstance(stmt, ast.Shuffle) and (zone := named_zone(self.cat, stmt.target, c.scope)) is not None:
            self.emit(indent, "if st.explicit_chance:", stmt.span)   # (a chance decision a place: the operation's)
            self._pause(stmt, indent + 1, place.pc)
            in_place = self.module.constant(shuffle_zone_in_place, "<a zone shuffled in place>")
            self.emit(indent, f"{in_place}(st, {self.constant(zone)})", stmt.span)   # (drawn at once: shuffled.py)
        else:
            self._pause(stmt, indent, place.pc)
            return True
        return False

    def _pause(self, stmt: ast.Stmt, indent: int, pc: int) -> None:
        """The frame the lowered code would have at operation ``pc`` (``stmt``'s first),
        pushed with the environment made here, and the function's return: it paused. Where
        ``stmt`` is a decision's, a caller that counts its operation's step (``_decide``) has
        it made here first (decided.py)."""
        where = self.constant(self.code.name), self.module.constant(self.code.ops, "<its operations>")
        self.made_env(indent, stmt.span)
        self.emit(indent, "_f = _new_frame(_Frame)", stmt.span)   # (Frame(...) without a call of __init__)
        fields = f"{where[0]}, {where[1]}, {pc}, env, None"
        self.emit(indent, f"_f.name, _f.code, _f.pc, _f.env, _f.ret = {fields}", stmt.span)
        self.emit(indent, "st.frames.append(_f)", stmt.span)
        decided = decided_lines(self.module, self.code, stmt, pc)
        if decided is not None:
            self.emit(indent, "if _decide:", stmt.span)
            for line, span in decided:
                self.emit(indent + 1, line, span)
            self.emit(indent + 1, "return _DECIDED", stmt.span)
        self.emit(indent, "return _PAUSED", stmt.span)   # (program.pause in place)

    def _walk(self, node: ast.For, indent: int) -> None:
        """A 'for' whose body may pause: its walk (the list and the next index) in Python
        locals, written to ``env`` as the lowered code keeps it where the body pauses (and
        first, so that it takes its place in ``env`` before the variable), so that a frame can
        go on inside it."""
        c = self.compiler
        source, listed = self.expr(node.source), self._a_list(node.source)
        c.counter += 1
        walk, var = self.constant(f"$for{c.counter}"), self.constant(node.var)
        local = self.local(c.bind_plain(node.var))
        if self.lazy:
            self._walk_in_locals(node, indent, source, f"$for{c.counter}", local, listed)
            return
        seq, i = self.module.fresh("_seq"), self.module.fresh("_i")
        for depth, line in (*_as_list_lines(seq, source, listed), (0, f"env[{walk}] = ({seq}, 0)"), (0, f"{i} = 0"),
                            (0, f"for {local} in {seq}:"), (1, f"{i} += 1"), (1, f"env[{var}] = {local}")):
            self.emit(indent + depth, line, node.span)
        self.step(indent + 1, node.span)
        self.walks.append((walk, seq, i))
        self._walked_body(node, local, indent + 1)
        self.walks.pop()
        self.emit(indent, f"env.pop({walk}, None)", node.span)

    def _a_list(self, source: ast.Expr) -> bool:
        """Whether ``source``, a walk's, is a variable the text proves a list (``is_tuple``:
        declared one, so held to a tuple at every write and in a state read back)."""
        return isinstance(source, (ast.Name, ast.Attribute)) and is_tuple(self.cat, source, self.learnt_scope())

    def _walk_in_locals(self, node: ast.For, indent: int, source: str, walk: str, local: str,
                        listed: bool = False) -> None:
        """``_walk`` where the environment is made at a pause: the list and the next index in
        Python locals, in the environment (before the variable) only inside the loop."""
        seq, i = self.module.fresh("_seq"), self.module.fresh("_i")
        self.path.append(len(self.lines))
        self.bindings.append(_Binding(walk, f"({seq}, {i})", tuple(self.path), True))
        for depth, line in (*_as_list_lines(seq, source, listed), (0, f"{i} = 0"),
                            (0, f"for {local} in {seq}:"), (1, f"{i} += 1")):
            self.emit(indent + depth, line, node.span)
        self.bound(indent + 1, local, node.span)
        self.step(indent + 1, node.span)
        self._walked_body(node, local, indent + 1)
        self.path.pop()

    def _walked_body(self, node: ast.For, local: str, indent: int) -> None:
        """The body of a walk, what its variable's Python ``local`` holds known there where
        each item of the source is certainly a player, space or component, or an integer of a
        bound, and the body binds no variable of its name (``_learn_item``): the function
        returns where the body pauses, so the local holds the item wherever it is read."""
        outer = self.known.get(local)
        self._learn_item(local, node)
        self.loop_body(node.body, indent)
        self.known.pop(local, None)
        if outer is not None:
            self.known[local] = outer

    def _paused_call(self, node: ast.CallStmt | ast.CallLet, indent: int, place: Snapshot) -> None:
        """A call of a procedure that may pause, run as its function: if it paused, this
        procedure's frame goes on after the call (its one operation) once it is done."""
        args = self.compiler.writer.arguments(self.cat.procedure_called(node), node.args, self.scope())
        ret = self.compiler.bind_let(node.name, node.span) if isinstance(node, ast.CallLet) else None
        called = self.unpaused[node.procedure]
        self.enter(indent, node.span)
        self.emit(indent, f"_r = {called}({', '.join(['st', '_depth + 1', *args, '_decide'])})", node.span)
        self.emit(indent, "if type(_r) is _Paused:", node.span)
        where = self.constant(self.code.name), self.module.constant(self.code.ops, "<its operations>")
        self.made_env(indent + 1, node.span)
        self.emit(indent + 1, f"return _r.under(st, {where[0]}, {where[1]}, {place.pc + 1}, env, "
                              f"{self.module.constant(ret)})", node.span)
        if ret is not None and self.lazy:
            self.emit(indent, f"{self.local(ret)} = _r", node.span)
            self.bound(indent, self.local(ret), node.span)
        elif ret is not None:
            self.emit(indent, f"env[{self.constant(ret)}] = {self.local(ret)} = _r", node.span)


def pauses_at_once(decl: ast.ProcedureDecl, cat: Catalog) -> bool:
    """Whether procedure ``decl`` starts with a statement that pauses: its function would
    only push its frame, as the call of lowered code does. A shuffle of a zone the rules
    name pauses only with explicit chance (its function draws it at once otherwise)."""
    first = decl.body.statements[0] if decl.body is not None and decl.body.statements else None
    if isinstance(first, ast.Shuffle) and named_zone(cat, first.target, {p.name for p in decl.params}) is not None:
        return False
    return isinstance(first, _PAUSING)


def drawing_in_place(procedures: Mapping[str, ast.ProcedureDecl], unpaused: Collection[str], cat: Catalog
                     ) -> frozenset[str]:
    """The procedures of ``unpaused`` (those run as Python functions) whose function may draw
    from the random generator without pausing: a 'shuffle' of a zone the rules name (drawn at
    once without explicit chance), or a call of such a procedure, anywhere in its body (more
    than it may: a superset is safe, a call of one is only where a new game's start stops)."""
    def shuffles(decl: ast.ProcedureDecl) -> bool:
        return decl.body is not None and any(isinstance(node, ast.Shuffle) and named_zone(cat, node.target, set())
                                             is not None for node in walk(decl.body))

    def calls(decl: ast.ProcedureDecl) -> set[str]:
        return {node.procedure for node in walk(decl.body) if isinstance(node, (ast.CallStmt, ast.CallLet))} \
            if decl.body is not None else set()
    found = {name for name in unpaused if shuffles(procedures[name])}
    grown = True
    while grown:
        more = {name for name in unpaused if name not in found and calls(procedures[name]) & found}
        found |= more
        grown = bool(more)
    return frozenset(found)


def env_made_at_pauses(decl: ast.ProcedureDecl) -> bool:
    """Whether the function of ``decl`` may keep its locals in Python locals alone and make
    its environment where it pauses: each name bound by one statement ('let', 'for', a call's
    'let'; none a parameter's), none inside a loop (but a 'for''s own), so that the order the
    lowered code first binds them in is the order of the text."""
    names = [p.name for p in decl.params]

    def binds(block: ast.Block, in_loop: bool) -> bool:
        for stmt in block.statements:
            if isinstance(stmt, (ast.Let, ast.CallLet, ast.For)):
                if in_loop:
                    return False
                names.append(stmt.name if not isinstance(stmt, ast.For) else stmt.var)
            inner: list[ast.Block | None] = [b for _, b in stmt.branches] if isinstance(stmt, ast.If) else []
            if isinstance(stmt, ast.If):
                inner.append(stmt.otherwise)
            loop = [stmt.body] if isinstance(stmt, (ast.For, ast.While, ast.Repeat)) else []
            if not all(binds(b, in_loop) for b in inner if b is not None) or not all(binds(b, True) for b in loop):
                return False
        return True
    return decl.body is not None and binds(decl.body, False) and len(set(names)) == len(names)


def _where(span: Span) -> str:
    return f"line {span.line}, column {span.column}"


def _as_list_lines(seq: str, source: str, listed: bool) -> tuple[tuple[int, str], ...]:
    """``seq = as_list(source)``, as lines (depth, text): a ``source`` certainly a list
    (``listed``) taken as it is unless long (as_list's own test: a long one is charged)."""
    if not listed:
        return ((0, f"{seq} = _as_list(st, {source})"),)
    return ((0, f"{seq} = {source}"), (0, f"if len({seq}) > {FREE_WORK}:"), (1, f"{seq} = _as_list(st, {seq})"))
