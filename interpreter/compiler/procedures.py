"""Procedures that never pause, compiled to Python functions.

A procedure that cannot stop for a decision or for chance (no choice, roll, random pick or
shuffle, no 'next' or 'end game', and calls of such procedures only) runs from its start to
its end within one step of its caller. It becomes one generated Python function of its
arguments, ``f(st, depth, *args)`` (``depth``: the procedures running, itself included):
its locals are Python locals, its 'if', 'for', 'while' and 'repeat' are Python's own, and
a call of another such procedure is a Python call. Each loop round and each call is
counted as a step (``State.step``), and calls are bounded in depth, as in the lowered code. Each
line of the generated source knows the span of its statement (``Module.locate``), so a
runtime error is reported where the rules wrote it.

The other procedures and the phases stay lowered (lower.py): they can pause, so their
position must be data that a state saves.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.check.tree import bound_names, walk
from rulelang.diagnostics import Span

from ..model.problems import unchecked
from ..model.program import LogTemplate, Op
from ..model.values import Component, ZoneRef
from ..tables.attributes import owned_variable
from ..tables.builtins import FREE_WORK
from ..tables.declared import SUPPLY, Declared
from ..tables.effects import log_template
from ..tables.runtime import MAX_DEPTH, MAX_INT
from .assigned_reads import written_assigning
from .bulk_rounds import charge_lines, charged_at_once, read_before_the_rounds
from .comprehensions import has_items, listed_once
from .deals import loop_or_deal
from .fields_read_once import fields_read_once
from .gathered import mend_lines, write_statements
from .globals_forwarded import globals_forwarded
from .integers import integer_bound, is_tuple, natural, short_list
from .known_lines import most_items, named_lists, one_listener, private_line_of_lists
from .lets import Facts, bound_once, facts_of, teach
from .logs import after_loud_mark, kept_after_mark, kept_line, kept_private_line, proven_texts, shows_short
from .module import CHEAP, Inline
from .moved_values import held_by_the_block
from .moves import move_lines
from .narrowed import forget, known_component, read_first
from .scope import Scope, known_kind, promise_of
from .tokens import TokenWriter
from .typed import zone_holds
from .writes import global_lines, global_update, owned_write

if TYPE_CHECKING:
    from .lower import Compiler

_READS_THE_FRAME = re.compile(r"\bfr\b|\benv\b(?!\[_k\d+\])")   # (the frame, or all its locals)


class ProcedureWriter:
    """Writes the procedures that never pause as Python functions, in the game's module."""

    def __init__(self, compiler: Compiler, names: Mapping[str, str], in_env: bool = False):
        self.compiler, self.cat, self.module = compiler, compiler.cat, compiler.module
        self.names = names  # procedure -> the name of its generated function
        # Where the locals of the rules live: Python locals (a procedure that never pauses), or
        # the running procedure's environment (a block of a procedure that may pause).
        self.in_env = in_env
        # How deep the procedures run where a call is written: a block of lowered code reads
        # it from the frames, a Python function of a procedure has it as a parameter.
        self.depth = "len(st.frames)" if in_env else "_depth"
        self.locals: dict[str, str] = {}  # environment key of a local -> its Python local
        self.lines: list[tuple[str, Span | None]] = []
        self.tokens = TokenWriter(self.cat, self.module)  # gains and pays, in place
        # The names of the procedure that one 'let' alone binds, and what is known of the
        # Python local of each such 'let' written so far (lets.py) and of each loop variable
        # of the 'for' statements being written whose items' kind or bound is certain.
        self.once: frozenset[str] = frozenset()
        self.known: dict[str, Facts] = {}
        # In the environment: the 'for' variables (by name) that their loop's body reads as
        # the Python local of the item (the body binds no variable of that name), and the
        # locals of the 'let's of ``once`` that the rest of their block reads so, within one
        # operation (``write_block``).
        self.held_locals: dict[str, str] = {}
        # While a run of moves gathers zones onto one (gathered.py): that zone's slot, and the
        # local that holds its length where the run began.
        self.gathered: tuple[str, str] | None = None
        self.looping = 0   # (the loops around what is written: no run gathers in their bodies, a mend a round)

    def write(self, decl: ast.ProcedureDecl) -> None:
        """Compile ``decl`` (one of ``names``) into the module; SyntaxError if Python cannot."""
        c = self.compiler
        c.scope = {p.name for p in decl.params}
        c.renames, c.block_names, c.loops = {}, [set()], []
        self.locals, self.lines = {}, []
        self.once, self.known = bound_once(decl), {}
        params = [self.local(p.name) for p in decl.params]
        c.writer.held.enter(decl, self.local)   # the parameters whose declared type is held
        name = self.names[decl.name]
        self.emit(0, f"def {name}({', '.join(['st', '_depth', *params])}):  # procedure at {_where(decl.span)}",
                  decl.span)
        if decl.body is not None:
            self.block(decl.body, 1)
        self.emit(1, "return None", decl.span)
        c.writer.held.enter(None, str)
        self.lines = fields_read_once(globals_forwarded(self.lines))   # (the state's tables read once a call)
        source = "\n".join(line for line, _ in self.lines) + "\n"
        self.module.define(name, source, spans=[span for _, span in self.lines], procedure=decl.name,
                           local_names={py: key for key, py in self.locals.items()})

    def write_block(self, statements: list[ast.Stmt], procedure: str, next_pc: list[int]) -> Op:
        """One operation of a procedure that may pause (lowered, with ``in_env``) that runs
        ``statements``, none of which pauses, and moves on to operation ``next_pc[0]`` (a
        jump target: where it goes is known once the procedure is lowered)."""
        self.lines = []
        name = self.module.fresh("_b")
        first = statements[0].span
        self.emit(0, f"def {name}(st, fr):  # {len(statements)} statements at {_where(first)}", first)
        self.emit(1, "env = fr.env", first)
        self.held_locals = {}
        write_statements(self, statements, 1)   # (gathered.py)
        self.held_locals = {}   # (the operations after this one read the environment)
        self.emit(1, f"fr.pc = {self.module.constant(next_pc, '<where to go next>')}[0]", statements[-1].span)
        source = "\n".join(line for line, _ in self.lines) + "\n"
        op: Op = self.module.define(name, source, spans=[span for _, span in self.lines], procedure=procedure)
        body = self.lines[2:-1]  # (in place in the resumable function: its env, and where it goes on)
        self.module.inline[op] = Inline((*(line[4:] for line, _ in body), "fr.pc = pc = @0@"),
                                        (*(span for _, span in body), statements[-1].span), (next_pc,),
                                        f"{len(statements)} statements at {_where(first)}")
        return op

    def local(self, key: str) -> str:
        """Where the procedure's local whose environment key is ``key`` is: a Python local,
        or its entry of the environment."""
        if self.in_env:
            return f"env[{self.constant(key)}]"
        found = self.locals.get(key)
        if found is None:
            found = self.locals[key] = self.module.fresh("_l")
        return found

    def bound(self, indent: int, local: str, span: Span) -> None:
        """The lines after the local ``local`` (as ``local`` writes it) is given a value:
        none here (a procedure run until it pauses also keeps it in its environment)."""

    def emit(self, indent: int, text: str, span: Span | None) -> None:
        self.lines.append(("    " * indent + text, span))

    def expr(self, node: ast.Expr) -> str:
        return self.compiler.writer.write(node, self.scope())

    def expr_once(self, node: ast.Expr, indent: int, span: Span, scope: Scope | None = None) -> str:
        """``expr`` of ``node`` (in ``scope``, else the procedure's), computed once where it
        is written: where it goes through items (a comprehension, a generator), the state's
        tables it reads of them (a variable's, a supply's) read once into locals before it
        (``Scope.tables``), written here. Nothing the expression does writes a table."""
        scope = self.scope() if scope is None else scope
        if has_items(node):
            scope.tables = {}
            if (listed := listed_once(self, node, indent, span, scope)) is not None:
                return listed
        text = self.compiler.writer.write(node, scope)
        for line in scope.table_reads(""):
            self.emit(indent, line, span)
        return text

    def scope(self) -> Scope:
        """Where the names of an expression of the procedure live, and what its 'let'
        locals and the loop variables around it are known to hold."""
        c = self.compiler
        if self.in_env:   # (the variables of the loops and the 'let's around it read as Python locals)
            held = set(self.held_locals.values())
            return teach(Scope(set(c.scope), c.key, dict(self.held_locals), "0"),
                         {local: facts for local, facts in self.known.items() if local in held})
        return teach(Scope(set(), str, {name: self.local(c.key(name)) for name in sorted(c.scope)}, "0", env="None"),
                     self.known)

    def learnt_scope(self) -> Scope:
        """``scope``, knowing the held parameters and locals of the running code as writing an
        expression learns them (``HeldParameters.learn_running``)."""
        scope = self.scope()
        self.compiler.writer.held.learn_running(scope)
        return scope

    def constant(self, value: object) -> str:
        return self.module.constant(value)

    # ---- statements ----
    def block(self, block: ast.Block, indent: int) -> None:
        c = self.compiler
        saved, held = dict(c.renames), dict(self.held_locals)
        c.block_names.append(set())
        write_statements(self, block.statements, indent)   # (gathered.py)
        if not block.statements:
            self.emit(indent, "pass", block.span)
        c.block_names.pop()
        c.renames, self.held_locals = saved, held

    def loop_body(self, block: ast.Block, indent: int) -> None:
        self.looping += 1
        try:
            self.block(block, indent)
        finally:
            self.looping -= 1

    def _Let(self, node: ast.Let, indent: int) -> None:
        value, facts = self.expr_once(node.value, indent, node.span), self.let_facts(node)
        if self.in_env:   # (a local of a procedure that may pause: held across pauses, held.py)
            self.compiler.hold_let(node, self.scope())
        local = self.local(self.compiler.bind_let(node.name, node.span))
        if local.startswith("env[") and node.name in self.once:   # (also in a Python local, read there)
            held = self.held_locals[node.name] = self.module.fresh("_l")
            self.emit(indent, f"{held} = {value}", node.span)
            self.emit(indent, f"{local} = {held}", node.span)
            local = held
        else:
            self.emit(indent, f"{local} = {value}", node.span)
        self.bound(indent, local, node.span)
        if facts is not None and local.isidentifier():
            self.known[local] = facts

    def let_facts(self, node: ast.Let) -> Facts | None:
        """What the local of ``node`` certainly holds, if no other statement binds it (lets.py)."""
        if node.name not in self.once:
            return None
        scope = self.learnt_scope()
        return facts_of(self.compiler.writer, node.value, scope)

    def _Assign(self, node: ast.Assign, indent: int) -> None:
        value, target, c = self.expr(node.value), node.target, self.compiler
        op = self.constant(node.op)
        if isinstance(target, ast.Name) and target.name in c.scope:
            local = self.local(c.key(target.name))
            if node.op == "=":
                self.emit(indent, f"{local} = {value}", node.span)
            else:
                self._update(node, local, value, indent)
            self.bound(indent, local, node.span)
        elif isinstance(target, ast.Name) and target.name in self.cat.global_vars:
            name = self.constant(target.name)
            new = value if node.op == "=" else global_update(c.writer, name, node, value, op, self.scope())
            new = c.writer.written(target.name, node.value if node.op == "=" else None, new, self.learnt_scope())
            self.global_write(indent, name, new, node.span)
        elif isinstance(target, ast.Attribute):
            owned = owned_variable(self.cat, target.name, target.span)
            owner, whose = self.expr(target.target), self.module.fresh("_t")
            update: str | None = op
            proven = owned.promise is not None and node.op == "=" and self._proven(node.value, value, owned.promise)
            if node.op == "=":  # the value first, then whose it is
                update, computed = None, self.module.fresh("_t")
                self.emit(indent, f"{computed} = {value}", node.span)
                value = computed
            self.emit(indent, f"{whose} = {owner}", node.span)
            kind = self._known_kind(target.target, owner)
            for line in owned_write(c.writer, owned, whose, value, kind, update, proven):   # (writes.py)
                self.emit(indent, line, node.span)
        else:
            name = target.name if isinstance(target, ast.Name) else "this"
            raise unchecked(f"'{name}' is not a variable", target.span)

    def _update(self, node: ast.Assign, local: str, value: str, indent: int) -> None:
        """``local += value`` (or ``-=``): in Python where the local holds an int and the
        value is a proven one too small to take it out of range; by ``runtime.updated`` (its
        checks and errors) otherwise."""
        general = f"{local} = _updated({local}, {value}, {self.constant(node.op)})"
        bound = integer_bound(self.cat, node.value, self.scope())
        if bound is None or bound > MAX_INT or node.op not in ("+=", "-="):
            self.emit(indent, general, node.span)
            return
        low, high = self.constant(bound - MAX_INT), self.constant(MAX_INT - bound)
        self.emit(indent, f"if type({local}) is int and {low} <= {local} <= {high}:", node.span)
        self.emit(indent + 1, f"{local} = {local} {node.op[0]} {value}", node.span)
        self.emit(indent, "else:", node.span)
        self.emit(indent + 1, general, node.span)

    def _proven(self, node: ast.Expr, text: str, promise: Declared) -> bool:
        """Whether the value of ``node`` (written ``text``) is certainly of type ``promise``."""
        scope = self.learnt_scope()
        return self.compiler.writer.certainly_of(node, text, scope, promise)

    def global_write(self, indent: int, name: str, new: str, span: Span) -> None:
        for line in global_lines(self.module, name, new):   # (writes.py)
            self.emit(indent, line, span)

    def _known_kind(self, node: ast.Expr, text: str) -> type | None:
        """The class of what ``node`` (written ``text``) certainly is, a player, a space or a
        component (not a list of them); else None."""
        scope = self.learnt_scope()
        known = scope.kinds.get(text) or known_kind(promise_of(self.cat, node, scope))
        return known[0] if known is not None and known[1] == 0 else None

    def _holder_slot(self, node: ast.Expr) -> str:
        """The holder slot of the tokens of ``node``, a player or a component (tokens.py)."""
        text = self.expr(node)
        return self.tokens.holder_slot(text, self._known_kind(node, text))

    def _If(self, node: ast.If, indent: int) -> None:
        narrowed: dict[str, Facts | None] = {}
        for k, (condition, body) in enumerate(node.branches):
            written = written_assigning(self.compiler.writer, condition, self.scope())
            self.emit(indent, f"{'if' if k == 0 else 'elif'} {written}:", condition.span)
            if k == 0:   # (a local read as a component by the first test: one in the rest, narrowed.py)
                narrowed = read_first(self, condition, written)
                known_component(self, narrowed)
            self.block(body, indent + 1)
        if node.otherwise is not None:
            self.emit(indent, "else:", node.span)
            self.block(node.otherwise, indent + 1)
        forget(self, narrowed)

    def _For(self, node: ast.For, indent: int) -> None:
        if self.in_env:
            self.compiler.counter += 1  # as the lowering would: its other loops keep their names
        items = self._listed(node.source, indent, node.span)
        loop_or_deal(self, node, items, indent)   # (deals.py: a deal as one call, else for_over)

    def for_over(self, node: ast.For, items: str, indent: int) -> None:
        """The loop of ``node`` over ``items``, the list of its source (computed once)."""
        var = self.local(self.compiler.bind_plain(node.var))
        held = self.module.fresh("_l") if var.startswith("env[") and not _rebound(node) else None
        # (in the environment: the item also in a Python local, which the body reads)
        charged = None
        if charged_at_once(node.body, self.cat.functions):   # (bulk_rounds.py)
            listed, charged = self.module.fresh("_s"), self.module.fresh("_b")
            for line in [f"{listed} = {items}", *charge_lines(listed, charged)]:
                self.emit(indent, line, node.span)
            items = listed
        self.emit(indent, f"for {held or var} in {items}:", node.span)
        written, entry = len(self.lines), var
        if held is not None:
            self.emit(indent + 1, f"{var} = {held}", node.span)
            outer_held, self.held_locals[node.var], var = self.held_locals.get(node.var), held, held
        self.bound(indent + 1, var, node.span)
        self.step(indent + 1, node.span, charged)
        outer = self.known.get(var)
        self._learn_item(var, node)
        self.loop_body(node.body, indent + 1)
        self.known.pop(var, None)
        if outer is not None:
            self.known[var] = outer
        if held is not None:
            self.held_locals.pop(node.var)
            if outer_held is not None:
                self.held_locals[node.var] = outer_held
            if charged is not None and not any(_READS_THE_FRAME.search(line) or entry in line
                                               for line, _ in self.lines[written + 1:]):
                # (a body that reads neither this local's entry, nor the frame or environment whole,
                # and goes through every round: the environment gets the loop's last item once, after it)
                del self.lines[written]
                self.emit(indent, f"if {items}:", node.span)
                self.emit(indent + 1, f"{entry} = {held}", node.span)
        read_before_the_rounds(self.lines, written - 1, charged, items, self.module.fresh)   # (bulk_rounds.py)

    def _listed(self, node: ast.Expr, indent: int, span: Span) -> str:
        """``as_list`` of ``node``, the source of a loop (computed once: ``expr_once``):
        itself where it is a short list (a literal, ``players``...), or a list the text
        proves, read at no cost, when short (as_list's own test: a long one is charged)."""
        scope = self.learnt_scope()
        source = self.expr_once(node, indent, span, scope)
        if short_list(self.cat, node, scope):
            return source
        if CHEAP.match(source) and is_tuple(self.cat, node, scope):
            return f"({source} if len({source}) <= {FREE_WORK} else _as_list(st, {source}))"
        return f"_as_list(st, {source})"

    def _learn_item(self, var: str, node: ast.For) -> None:
        """What the loop variable ``var`` holds in the body of ``node``, when the kind or the
        bound of each item of its source is certain (``ExpressionWriter.bind_item_kind``) and
        the body binds no variable of that name (so it holds the item throughout)."""
        if _rebound(node):
            return
        scope, writer = self.learnt_scope(), self.compiler.writer
        writer.bind_item_kind(var, node.source, scope)
        kind, bound, typed = scope.kinds.get(var), scope.integers.get(var), scope.typed.get(var)
        if kind is not None or bound is not None:
            self.known[var] = Facts(bound, False, kind, typed=typed)

    def _While(self, node: ast.While, indent: int) -> None:
        self.emit(indent, f"while {self.expr(node.condition)}:", node.span)
        self.step(indent + 1, node.span)
        self.loop_body(node.body, indent + 1)

    def _Repeat(self, node: ast.Repeat, indent: int) -> None:
        self.emit(indent, "while True:", node.span)
        self.step(indent + 1, node.span)
        self.loop_body(node.body, indent + 1)
        if node.until is not None:
            self.emit(indent + 1, f"if {self.expr(node.until)}:", node.until.span)
            self.emit(indent + 2, "break", node.until.span)

    def _Break(self, node: ast.Break, indent: int) -> None:
        self.emit(indent, "break", node.span)

    def _Continue(self, node: ast.Continue, indent: int) -> None:
        self.emit(indent, "continue", node.span)

    def _Move(self, node: ast.Move, indent: int) -> None:
        gathered = self.gathered
        if gathered is not None and self._certain_class(node.what) is not ZoneRef:   # (its move may read an entry)
            for line in [*mend_lines(self, *gathered), f"{gathered[1]} = len(st.zones[{gathered[0]}])"]:
                self.emit(indent, line, node.span)
        for line in move_lines(node, self.cat, self.expr, self.module, self._certain_class, self._typed,
                               lambda what: self.compiler.writer.component_type(what, self.learnt_scope()),
                               None if gathered is None else gathered[0]):
            self.emit(indent, line, node.span)

    def _typed(self, node: ast.Expr) -> str | None:
        """The component type that ``node`` is (or none), or that the zone ``node`` holds,
        where the text proves it (typed.py)."""
        scope, writer = self.learnt_scope(), self.compiler.writer
        return writer.component_type(node, scope) or zone_holds(writer, node, scope)

    def _certain_class(self, node: ast.Expr) -> type | None:
        """ZoneRef or Component, if ``node`` is certainly a zone or a component; else None."""
        scope, writer = self.learnt_scope(), self.compiler.writer
        if writer.zone_read(node, scope):
            return ZoneRef
        return Component if writer.items_kind(node, scope) == (Component, 0) else None

    def _supply(self, name: str, span: Span) -> str:
        """The supply a 'gain'/'pay' names: a supply, or a variable holding one."""
        variable = self.compiler.supply_variable(name, span)
        if variable is None:
            return self.constant(name)
        scope = self.learnt_scope()
        return self.tokens.supply_named(self.expr(variable), name, promise_of(self.cat, variable, scope) == SUPPLY)

    def _amount(self, node: ast.Expr) -> str:
        """The amount of a 'gain' or 'pay', checked unless the text proves it never below zero."""
        return self.tokens.amount(node, self.expr(node), natural(self.cat, node, self.learnt_scope()))

    def _Gain(self, node: ast.Gain, indent: int) -> None:
        supply, who = self._supply(node.supply, node.span), self._holder_slot(node.player)
        amount = self._amount(node.amount)
        self._transfer(indent, (supply, "0", who, amount), node.span)

    def _Pay(self, node: ast.Pay, indent: int) -> None:
        payee = "0"
        if node.payee is not None:
            payee = self.module.fresh("_t")
            self.emit(indent, f"{payee} = {self._holder_slot(node.payee)}", node.span)
        supply, payer = self._supply(node.supply, node.span), self._holder_slot(node.payer)
        amount = self._amount(node.amount)
        self._transfer(indent, (supply, payer, payee, amount), node.span)

    def _transfer(self, indent: int, args: tuple[str, str, str, str], span: Span) -> None:
        """``st.transfer(*args)`` (supply, from, to, amount), in place where no event is
        recorded (``transfer_lines``): its arguments computed first, in their order."""
        names = [text if _CONSTANT.match(text) and k < 3 else self.module.fresh("_t") for k, text in enumerate(args)]
        for name, text in zip(names, args, strict=True):   # (the amount a local: lowered to what is held)
            if name != text:
                self.emit(indent, f"{name} = {text}", span)
        for depth, line in transfer_lines(names, self.module.fresh("_t"), self.module.fresh("_t")):
            self.emit(indent + depth, line, span)

    def _call(self, node: ast.CallStmt | ast.CallLet) -> str:
        proc = self.cat.procedure_called(node)
        args = self.compiler.writer.arguments(proc, node.args, self.scope())   # checked where not proven
        return f"{self.names[proc.name]}({', '.join(['st', f'{self.depth} + 1', *args])})"

    def enter(self, indent: int, span: Span) -> None:
        """The lines before a call of a compiled procedure: bounded in depth and counted as a
        step, in place; past a bound, ``_enter_procedure`` raises its error."""
        self.emit(indent, f"if {self.depth} >= {MAX_DEPTH} or st.rounds >= st.max_steps:", span)
        self.emit(indent + 1, f"_enter_procedure(st, {self.depth})", span)
        self.emit(indent, "st.rounds += 1", span)

    def step(self, indent: int, span: Span, charged: str | None = None) -> None:
        """A round of a loop counted as a step, in place (``State.step`` past the bound,
        which raises its error); where the local ``charged`` is true, counted already."""
        if charged is not None:
            self.emit(indent, f"if not {charged}:", span)
            indent += 1
        self.emit(indent, "if st.rounds >= st.max_steps:", span)
        self.emit(indent + 1, "st.step()", span)
        self.emit(indent, "st.rounds += 1", span)

    def _CallStmt(self, node: ast.CallStmt, indent: int) -> None:
        call = self._call(node)
        self.enter(indent, node.span)
        self.emit(indent, call, node.span)

    def _CallLet(self, node: ast.CallLet, indent: int) -> None:
        call = self._call(node)
        self.enter(indent, node.span)
        local = self.local(self.compiler.bind_let(node.name, node.span))
        self.emit(indent, f"{local} = {call}", node.span)
        self.bound(indent, local, node.span)

    def _Return(self, node: ast.Return, indent: int) -> None:
        self.emit(indent, f"return {self.expr(node.value) if node.value is not None else 'None'}", node.span)

    def _Narrate(self, node: ast.Narrate, indent: int) -> None:
        self.emit(indent, "if st.event_log is not None:", node.span)
        self.emit(indent + 1, f"st.event_log.append(('narrate', {node.mark!r}))", node.span)

    def _Turn(self, node: ast.Turn, indent: int) -> None:
        self.emit(indent, "if st.event_log is not None:", node.span)
        self.emit(indent + 1, f"_turn_begins(st, {self.expr(node.player)})", node.span)

    def _Log(self, node: ast.Log, indent: int) -> None:
        audience = "" if node.audience is None else f", {self.expr(node.audience)}, True"
        parts = text_and_values(node.message)
        if parts is None:
            self.emit(indent, f"_log(st, _lazy_text({self.expr(node.message)}, ''){audience})", node.span)
            return
        # "text" + a + b...: its literal texts in a template, its other operands' values beside
        first, operands = parts
        layout = [o.value if isinstance(o, ast.Literal) and type(o.value) is str else None for o in operands]
        shown = [o for o, text in zip(operands, layout, strict=True) if text is None]
        texts = held_by_the_block([line for line, _ in self.lines[-200:]], indent, [self.expr(o) for o in shown])
        values = "".join(f"{text}, " for text in texts)
        made = log_template(self.cat, first, layout)
        template = self.module.constant(made, "a log line's texts")
        if made.room < 0:
            self.emit(indent, f"_say(st, {template}, ({values}){audience})", node.span)
            return
        unproven, spent = proven_texts(shown, [k for k, o in enumerate(shown) if not self._shown_short(o)], made.room)
        if node.audience is not None:
            lines = (self._line_of_lists(node, shown, unproven, made, template, values, spent)
                     or kept_private_line(template, values, unproven, self.module.fresh("_t"),
                                          self.expr(node.audience), self.module.fresh("_h"), spent))
            for depth, line in lines:
                self.emit(indent + depth, line, node.span)
            return
        written = kept_line
        if after_loud_mark(self.lines, indent):   # (the end of the quiet block just before: one test for both)
            del self.lines[-2:]
            written = kept_after_mark
        lists = named_lists(self.compiler.writer, shown, unproven, self.learnt_scope())   # (their lengths alone tested)
        for depth, line in written(template, values, unproven, self.module.fresh("_t"), spent,
                                   most_items(made, spent) if lists else None):
            self.emit(indent + depth, line, node.span)

    def _line_of_lists(self, node: ast.Log, shown: list[ast.Expr], unproven: list[int], made: LogTemplate,
                       template: str, values: str, spent: int) -> list[tuple[int, str]] | None:
        """The lines of a line to one player whose unproven values are lists of names, all of
        it known to the compiler (known_lines.py); else None."""
        scope = self.learnt_scope()
        assert node.audience is not None
        listener = one_listener(self.compiler.writer, node.audience, scope)
        if listener is None or not named_lists(self.compiler.writer, shown, unproven, scope):
            return None
        return private_line_of_lists(template, values, unproven, most_items(made, spent), self.module.fresh("_t"),
                                     self.expr(node.audience), self.expr(listener), self.module.fresh("_h"))

    def _shown_short(self, node: ast.Expr) -> bool:
        """Whether the value of ``node`` certainly shows within the room a log template
        gives each value (``shows_short``)."""
        scope = self.learnt_scope()
        return shows_short(self.compiler.writer, node, scope)

    def _Reveal(self, node: ast.Reveal, indent: int) -> None:
        self.emit(indent, f"_reveal(st, {self.expr(node.value)}, {self.expr(node.audience)})", node.span)


def text_and_values(message: ast.Expr) -> tuple[str, list[ast.Expr]] | None:
    """A log message ``"text" + a + b...`` as its text and the values joined to it, in
    order; None for any other message."""
    operands: list[ast.Expr] = []
    node = message
    while isinstance(node, ast.BinaryOp) and node.op == "+":
        operands.append(node.right)
        node = node.left
    if not operands or not (isinstance(node, ast.Literal) and isinstance(node.value, str)):
        return None
    return node.value, operands[::-1]


_CONSTANT = re.compile(r"(\d+|_k\d+)$")


def transfer_lines(args: list[str], holders: str, held: str) -> list[tuple[int, str]]:
    """What ``State.transfer(*args)`` does, as lines (with their depth) over Python names
    ``args`` (the amount a local), where no event is recorded; else the call."""
    supply, source, target, amount = args
    return [(0, "if st.event_log is None:"), (1, f"{holders} = st.supply_counts[{supply}]"),
            (1, f"{held} = {holders}[{source}]"), (1, f"if {amount} > {held}:"), (2, f"{amount} = {held}"),
            (1, f"{holders}[{source}] = {held} - {amount}"), (1, f"{holders}[{target}] += {amount}"),
            (0, "else:"), (1, f"st.transfer({', '.join(args)})")]


def _where(span: Span) -> str:
    return f"line {span.line}, column {span.column}"


def _rebound(node: ast.For) -> bool:
    """Whether the body of ``node`` binds or assigns a variable of its loop variable's name."""
    return any(node.var in bound_names(n) or (isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)
                                              and n.target.name == node.var) for n in walk(node.body))
