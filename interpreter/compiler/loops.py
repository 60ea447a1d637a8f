"""The body of a function of the ruleset as Python statements: a comprehension (or one of
those an ``if ... then ... else`` chooses between) as nested ``for`` statements, so its
items need no call to charge them, and ``count(x for x in ...)`` of one clause in the
source of a clause (``for k in [count(...)]``) as a loop that counts in a local.

The work is charged where and as ``runtime.items`` and ``runtime.Visits`` charge it (each
source once its value is known, then the items visited), so the step budget and its errors
are those of the expression (codegen.py ``_list``). Where the body reads an item of a list
(proven a list, by an integer) with a plain subscript, an ``IndexError`` recomputes the
body by the expression's path, which raises the rules' error, with the work charged before
the body (``_w``) given back first.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast

from ..tables import runtime
from ..tables.builtins import FREE_WORK
from .calls_in_place import in_place
from .comprehensions import has_items, lifted, work_charged
from .integers import is_tuple
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter


def function_body(writer: ExpressionWriter, body: ast.Expr, scope: Scope) -> list[str]:
    """The lines (not indented) that return the value of ``body``, a function's, its items
    of lists read by plain subscripts (``scope.plain_items``): followed, if one was
    written, by a handler of ``IndexError`` and the expression's path."""
    scope.plain_items = True
    fast = _returned(writer, body, scope)
    scope.plain_items = False
    kept = work_kept(fast)
    if not scope.plain_used and kept is None:
        return fast
    handlers = []
    if scope.plain_used:   # (the rules' error, by the general path)
        handlers = ["except IndexError:", "    st.work = _w", f"    return {writer.write(body, scope)}"]
    if kept is not None:   # (the work counted so far, as the state would hold it)
        handlers += ["except BaseException:", "    st.work = _x", "    raise"]
    return ["try:", *_indented(kept or fast), *handlers]


_CHARGED = ["st.work = _x", "if _x > st.max_steps:", "st.charge(0)"]
"""The lines after ``_x = st.work + ...`` that charge work (``_LoopNest.charge``)."""
_STATE_USED = re.compile(r"\bst\b(?!\.(?:zones|component_values|player_values|space_values|global_values)\[)")
"""A use of the state in a line that is not a read of one of its tables: a call that may
charge work, or the work itself."""


def work_kept(lines: list[str]) -> list[str] | None:
    """``lines`` (a function's, after its prologue has charged its call, ``_w``) counting
    the work in the local ``_x``, given to the state before each ``return`` and where a
    charge passes the budget (whose error ``st.charge`` raises); None if a line uses the
    state otherwise (a call that may charge work itself), or if no loop charges work (the
    state's own count is then as cheap)."""
    kept, i, looped = ["_x, _lim = _w, st.max_steps"], 0, False
    loops = [len(line) - len(line.lstrip()) for line in lines if line.lstrip().startswith("for ")]
    while i < len(lines):
        line = lines[i]
        text = line.lstrip()
        indent = line[:len(line) - len(text)]
        if text.startswith("_x = st.work + ") and [later.strip() for later in lines[i + 1:i + 4]] == _CHARGED:
            kept += [f"{indent}_x += {text.removeprefix('_x = st.work + ')}", f"{indent}if _x > _lim:",
                     f"{indent}    st.work = _x", f"{indent}    st.charge(0)"]
            looped = looped or any(len(indent) > outer for outer in loops)
            i += 4
            continue
        if _STATE_USED.search(line):
            return None
        kept += [f"{indent}st.work = _x", line] if text.startswith("return ") else [line]
        i += 1
    return kept if looped else None


def has_loop(node: ast.Expr) -> bool:
    """Whether ``node`` is a comprehension, or an ``if`` one of whose values has one."""
    if isinstance(node, ast.Comprehension):
        return True
    return isinstance(node, ast.IfExpr) and (has_loop(node.then) or has_loop(node.otherwise))


def _returned(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> list[str]:
    if isinstance(node, ast.IfExpr) and has_loop(node):
        condition = writer.write(node.condition, scope)
        return [f"if {condition}:", *_indented(_returned(writer, node.then, scope)),
                *_returned(writer, node.otherwise, scope)]   # (the lines of each value return)
    if isinstance(node, ast.Comprehension):
        return _LoopNest(writer, scope).comprehension(node)
    if _joins_a_comprehension(writer, node, scope):
        assert isinstance(node, ast.BinaryOp)
        return _LoopNest(writer, scope).joined(node)
    if isinstance(node, ast.BinaryOp) and node.op in ("and", "or") and has_items(node.right):
        either = writer.module.fresh("_e")   # (the left one's value, if it decides; a small call in place)
        before, left = in_place(writer.module, writer.write(node.left, scope))
        return [*before, f"{either} = {left}", f"if {'' if node.op == 'or' else 'not '}{either}:",
                f"    return {either}", *_returned(writer, node.right, scope)]
    found = lifted(writer, node, scope)   # (a comprehension computed first: before it)
    if found is None:
        return [f"return {writer.write(node, scope)}"]
    before, value = in_place(writer.module, found[0])   # (after the list, a small call in place)
    return [*found[1], *before, f"return {value}"]


def _joins_a_comprehension(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is ``a + b`` of two lists the text proves lists (``runtime.concat``
    of them), one of them a comprehension."""
    return isinstance(node, ast.BinaryOp) and node.op == "+" \
        and (isinstance(node.left, ast.Comprehension) or isinstance(node.right, ast.Comprehension)) \
        and is_tuple(writer.cat, node.left, scope) and is_tuple(writer.cat, node.right, scope)


class _LoopNest:
    """Writes one comprehension as nested loops, in lines indented as they nest."""

    def __init__(self, writer: ExpressionWriter, scope: Scope):
        self.writer, self.scope, self.module = writer, scope, writer.module
        self.lines: list[str] = []
        self.indent = ""
        self.reads: dict[str, str] = {}   # a table read of a clause's source -> the local it is in

    def add(self, *lines: str) -> None:
        for line in lines:
            for read, local in self.reads.items():
                line = line.replace(read, local)
            self.lines.append(self.indent + line)

    def comprehension(self, node: ast.Comprehension) -> list[str]:
        """Lines that return the list ``node`` makes."""
        out = self.module.fresh("_o")
        self.add(f"{out} = []")
        self.gather(node, out)
        self.add(f"return tuple({out})")
        return self.lines

    def joined(self, node: ast.BinaryOp) -> list[str]:
        """Lines that return ``a + b`` of two lists (``_joins_a_comprehension``): the items of
        each, a comprehension's gathered by its loops, in one list, each side computed and
        charged as its expression is; the join then as ``runtime.concat`` makes it, which
        neither charges nor refuses a list of at most FREE_WORK items (a longer one is
        joined by it)."""
        out, left = self.module.fresh("_o"), self.module.fresh("_a")
        if isinstance(node.left, ast.Comprehension):
            self.add(f"{out} = []")
            self.gather(node.left, out)
            self.add(f"{left} = tuple({out})")
        else:
            self.add(f"{left} = {self.listed(node.left)}", f"{out} = [*{left}]")
        if isinstance(node.right, ast.Comprehension):
            self.gather(node.right, out)
        else:
            self.add(f"{out} += {self.listed(node.right)}")
        self.add(f"if len({out}) > {FREE_WORK}:",
                 f"    return _concat(st, tuple({left}), tuple({out}[len({left}):]))",
                 f"return tuple({out})")
        return self.lines

    def listed(self, node: ast.Expr) -> str:
        """The source of the items of list ``node``: ``list(z)`` of a zone its list read in
        place, charged as ``runtime.zone_seen`` charges it (a function changes no zone),
        anything else its value."""
        cat = self.writer.cat
        if not (isinstance(node, ast.Call) and node.function == "list" and len(node.args) == 1
                and "list" not in cat.functions and "list" not in cat.component_types
                and "list" not in cat.load_time_functions and self.writer.zone_read(node.args[0], self.scope)):
            return self.writer.write(node, self.scope)
        found = self.module.fresh("_z")
        self.add(f"{found} = st.zones[{self.writer.write(node.args[0], self.scope)}.slot]",
                 f"if len({found}) > {FREE_WORK}:", f"    st.charge(len({found}))")
        return found

    def gather(self, node: ast.Comprehension, out: str) -> None:
        """The loops of ``node`` appending each of its items to the list ``out``."""
        # (a count of the items visited only where the step budget does not bound it first:
        # each clause charges as many items of work as it visits, before it counts them)
        counted = len(node.clauses) > 1 and self.writer.cat.max_steps > runtime.MAX_VISITS
        visits = self.module.fresh("_n") if counted else None
        if visits:
            self.add(f"{visits} = 0")
        saved = dict(self.scope.python)
        for clause in node.clauses:
            self.clause(clause, visits)
        self.add(f"{out}.append({self.writer.write(node.element, self.scope)})")
        self.scope.python = saved
        self.indent = ""

    def clause(self, clause: ast.CompClause, visits: str | None) -> None:
        """The loop of ``clause`` (a local bound once for a list of one item), and its test."""
        source = clause.source
        single = isinstance(source, ast.ListExpr) and len(source.items) == 1
        if single:
            assert isinstance(source, ast.ListExpr)
            value = self.value(source.items[0])
            self.charge("1", visits)
        else:
            items = self.items(source)
            if visits is not None:   # (its length read once)
                self.add(f"_m = len({items})")
            self.charge("_m" if visits is not None else f"len({items})", visits)
        counted = single and re.fullmatch(r"_r\d+", value) is not None   # (a count's local: its value, kept)
        var = self.scope.python[clause.var] = value if counted else self.module.fresh("_v")
        self.writer.bind_item_kind(var, source, self.scope)
        if single and not counted:
            self.add(f"{var} = {value}")
        elif not single:
            self.add(f"for {var} in {items}:")
            self.indent += "    "
        if clause.condition is not None:
            self.add(f"if {self.writer.write(clause.condition, self.scope)}:")
            self.indent += "    "

    def items(self, source: ast.Expr) -> str:
        """A local holding the items of ``source``, as ``runtime.items`` finds them (a
        zone's, read in place: a function changes no zone while it goes through them)."""
        text = self.writer.write(source, self.scope)
        local = self.module.fresh("_s")
        if is_tuple(self.writer.cat, source, self.scope):
            self.add(f"{local} = {text}")
            if _TABLE_READ.fullmatch(text.strip("()")):   # read again below: the local (no table changes)
                self.reads[text] = local
        elif self.writer.zone_read(source, self.scope):
            self.add(f"{local} = st.zones[{text}.slot]")
        else:
            self.add(f"{local} = {text}", f"if type({local}) is not tuple:", f"    {local} = _sequence(st, {local})")
        return local

    def charge(self, work: str, visits: str | None) -> None:
        """Charge ``work`` items, as ``runtime.items`` would, and count them as visited
        (``runtime.Visits``), where the comprehension has several clauses."""
        self.add(*work_charged(work))
        if visits is not None:
            error = self.module.constant(runtime.too_many_visits, "<the error of too many items visited>")
            self.add(f"{visits} += {work}", f"if {visits} > {runtime.MAX_VISITS}:", f"    raise {error}()")

    def value(self, node: ast.Expr) -> str:
        """The source of ``node``'s value: ``count(...)`` of one clause counted by a loop
        written before it, anything else as the expression."""
        gen = node.args[0] if isinstance(node, ast.Call) and len(node.args) == 1 else None
        cat = self.writer.cat
        if not (isinstance(node, ast.Call) and node.function == "count" and isinstance(gen, ast.Generator)
                and gen.key is None and len(gen.clauses) == 1 and "count" not in cat.functions
                and "count" not in cat.component_types):
            return self.writer.write(node, self.scope)
        counted = self.module.fresh("_r")
        saved, indent = dict(self.scope.python), self.indent
        self.add(f"{counted} = 0")
        self.clause(gen.clauses[0], None)
        loop = len(self.lines) - (1 if gen.clauses[0].condition is None else 2)   # its "for" line
        element = self.writer.write(gen.element, self.scope)
        kind = self.scope.kinds.get(element)
        if kind is None or kind[1] != 0:   # (counted unless false or none, as runtime.count)
            self.add(f"_e = {element}", "if _e is not False and _e is not None:")
            self.indent += "    "
        self.add(f"{counted} += 1")
        self.hoist(loop, self.scope.python[gen.clauses[0].var], indent)
        self.scope.python, self.indent = saved, indent
        return counted

    def hoist(self, loop: int, var: str, indent: str) -> None:
        """Read once, before the loop of ``var`` that starts at line ``loop``, the variables
        its lines read of a player, space or component known to be one and bound outside it
        (a table read of a function, ``_t3[_v2.id]``: it cannot fail, and nothing in the
        function writes it): right after the loop that binds their owner, if one of the
        nest does, else before the loop of ``var``."""
        reads: dict[str, str] = {}
        owners: dict[str, str] = {}
        for i in range(loop + 1, len(self.lines)):
            for read, owner in _TABLE_READ.findall(self.lines[i]):
                known = self.scope.kinds.get(owner)
                if owner != var and known is not None and known[1] == 0 and read not in reads:
                    reads[read], owners[read] = self.module.fresh("_h"), owner
            for read, local in reads.items():
                self.lines[i] = self.lines[i].replace(read, local)
        places = {read: self._bound_at(owners[read], loop) for read in reads}
        for read, local in sorted(reads.items(), key=lambda pair: -places[pair[0]][0]):
            at, where = places[read]
            self.lines[at:at] = [f"{where if at != loop else indent}{local} = {read}"]

    def _bound_at(self, owner: str, loop: int) -> tuple[int, str]:
        """Where a read of ``owner``'s variable may go: the first line of the body of the
        loop of the nest (before line ``loop``) that binds it, and that body's indent; else
        line ``loop``."""
        for i in range(loop - 1, -1, -1):
            line = self.lines[i]
            if line.lstrip().startswith(f"for {owner} in "):
                return i + 1, line[:len(line) - len(line.lstrip())] + "    "
        return loop, ""


_TABLE_READ = re.compile(r"(_t\d+\[(_v\d+)\.(?:id|index)(?: \+ _k\d+)?\])")
"""A read of a variable of players, spaces or components from a table read at the start of
the function (codegen.py ``_read``): the read, and whose it is."""


def _indented(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]
