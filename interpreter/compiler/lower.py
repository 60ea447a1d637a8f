"""Lowering: AST procedures -> flat lists of small operations (closures) that run fast.

Expressions become closures ``f(st, env) -> value``. A procedure becomes a ``Code``: a list
of operations ``op(st, frame)`` that each move ``frame.pc`` on, and the span of each for
error messages. Control flow is jumps; a decision is an operation that stops the run
loop by setting ``st.pending``. All of a running procedure's data is in its frame's
``env`` (a dict of plain values), so a state pauses and resumes anywhere. The statements
that stop for a decision are lowered by choices.py (players' choices) and chance.py.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from rulelang import ast
from rulelang.check.tree import bound_by_one, names_bound_once

from ..model.problems import unchecked
from ..model.program import Code, Env, Expr, Frame, LogLine, Op, Ops, Paused, pause
from ..model.values import Value
from ..tables import effects
from ..tables.attributes import attribute_setter, is_owned_variable
from ..tables.builtins import as_list
from ..tables.declared import Declared, global_promise
from ..tables.runtime import make_room_for_calls
from .chance import ChanceLowering
from .choices import ChoiceLowering
from .codegen import ExpressionWriter
from .held import hold_item, let_promise
from .let_keys import hidden_key, let_ordinals
from .lets import facts_of
from .module import Module
from .pausing import lowered_size, never_pausing, runs_through
from .places import global_access, item_access, local_access
from .procedures import ProcedureWriter, text_and_values
from .resumable import write_run
from .scope import Scope
from .unpaused import Snapshot, UnpausedWriter, drawing_in_place, pauses_at_once, snapshot

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..state.state import State
    from ..tables.attributes import Write
    from ..tables.catalog import Catalog

__all__ = ["Compiler"]

Box = list[int]  # a jump target (-1 until patched, once the code it jumps to is emitted)
Action: TypeAlias = Callable[["State", Env], None]  # what a step does: ``action(st, env)``


class _Loop(TypedDict):
    """The jumps of a loop being lowered that 'break' and 'continue' patch once it ends."""

    breaks: list[Box]
    continues: list[Box]
    continue_target: int


class Compiler:
    """Turns the AST of a merged ruleset into closures, against a catalog of declarations."""

    def __init__(self, catalog: Catalog):
        self.cat = catalog
        self.scope: set[str] = set()
        # Block scoping of 'let': a 'let' of a name bound outside the current block makes a new
        # variable for the rest of the block, kept in the environment under another key.
        self.renames: dict[str, str] = {}
        self.block_names: list[set[str]] = [set()]
        self.let_ordinals: dict[Span, int] = {}   # each 'let''s place among its name's (let_keys.py)
        self.hidden: dict[str, dict[str, tuple[int, int]]] = {}   # the lowered procedure's Code.hidden
        self.loops: list[_Loop] = []
        self.counter = 0
        self.module = Module()  # the generated code of the game's expressions
        self.writer = ExpressionWriter(catalog, self.module)
        self.never_pausing: dict[str, str] = {}  # procedure -> the name of its compiled function
        # The procedures that may pause, each also a Python function that runs it until it
        # pauses (unpaused.py): procedure -> its declaration, and the name of that function;
        # while one is lowered, where each of its statements starts (by the statement's id).
        self.pausing: dict[str, ast.ProcedureDecl] = {}
        self.unpaused: dict[str, str] = {}
        self.drawing: frozenset[str] = frozenset()   # of those, the ones that may draw at once (unpaused.py)
        self.snapshots: dict[int, Snapshot] | None = None
        # In the procedure being lowered: the unconditional jumps (operation -> its target), and
        # every target that a jump, a test, a compiled block or a choice goes on to (``_thread``).
        self.jumps: dict[int, Box] = {}
        self.targets: list[Box] = []
        self.block_writer = ProcedureWriter(self, self.never_pausing, in_env=True)
        # The names of the procedure being lowered that one statement alone binds, and the
        # locals its code holds to their type across pauses (held.py), into its ``Code.held``.
        self.bound_alone: frozenset[str] = frozenset()
        self.held_types: dict[str, Declared] | None = None
        self.choices = ChoiceLowering(self)   # the statements that ask a player (choices.py)
        self.chance = ChanceLowering(self)     # and those that draw (chance.py)

    def compile_never_pausing(self, procedures: Mapping[str, ast.ProcedureDecl]) -> None:
        """Compile the procedures that never pause to Python functions (procedures.py),
        before any code that calls them is lowered. If Python cannot compile one (its code
        nests too deeply), none is compiled: they are all lowered."""
        for decl in procedures.values():
            self.let_ordinals.update(let_ordinals(decl.body))
        names = never_pausing(procedures)
        if names:
            make_room_for_calls()
        self.never_pausing.update((name, self.module.fresh("_p")) for name in names)
        writer = ProcedureWriter(self, self.never_pausing)
        try:
            for name in names:
                writer.write(procedures[name])
        except SyntaxError:
            self.never_pausing.clear()
        self.pausing = {name: decl for name, decl in procedures.items() if name not in self.never_pausing}
        if self.pausing:
            make_room_for_calls()
        self.unpaused.update((name, self.module.fresh("_q")) for name, decl in self.pausing.items()
                             if not pauses_at_once(decl, self.cat))
        self.drawing = drawing_in_place(procedures, self.unpaused, self.cat)

    def expr(self, node: ast.Expr) -> Expr:
        """The compiled function ``f(st, env) -> value`` of an expression, whose local names
        (``scope``) are read from ``env``."""
        return self.writer.function(node, self.scope, self.key)

    # ------------------------------------------------------------------ statements
    def procedure(self, name: str, params: tuple[str, ...], body: ast.Block) -> Code:
        """The lowered code of a procedure or phase whose parameters are ``params``."""
        code = Code(name)
        self.let_ordinals.update(let_ordinals(body))
        self.hidden = code.hidden
        self.scope = set(params)
        self.renames, self.block_names = {}, [set()]
        self.loops = []
        self.jumps, self.targets = {}, []
        self.snapshots = {} if name in self.unpaused else None
        decl = self.cat.procedures.get(name) if params else None   # its parameters held to their types
        self.writer.held.enter(decl, lambda param: f"env[{self.module.constant(param)}]")
        self.block_writer.once = names_bound_once(params, body)   # (its lets read in place: procedures.py)
        self.bound_alone, self.held_types = bound_by_one(params, body), code.held
        self.block(body, code)
        self.bound_alone, self.held_types = frozenset(), None
        self.writer.held.enter(None, str)
        self._thread()
        code.resumed.update(box[0] for box in self.targets)
        write_run(code, self.module, self._integer_globals())
        if name in self.unpaused:
            self._write_unpaused(self.pausing[name], code)
        return code

    def _integer_globals(self) -> frozenset[str]:
        """The constants naming the global variables declared ``int`` (held to Python ints:
        tests_proven.py), of those the code has named so far."""
        names = (self.module.constant_named(name) for name, _ in self.cat.global_vars.items()
                 if global_promise(self.cat, name) == Declared(int))
        return frozenset(name for name in names if name is not None)

    def _write_unpaused(self, decl: ast.ProcedureDecl, code: Code) -> None:
        """The function that runs procedure ``decl`` (lowered to ``code``) until it pauses
        (unpaused.py); one that pushes its frame at once if Python cannot compile it. The
        compiler's names are left as the lowering left them."""
        name, snapshots = self.unpaused[decl.name], self.snapshots or {}
        saved = self.scope, self.renames, self.block_names, self.loops, self.counter
        try:
            UnpausedWriter(self, self.never_pausing, self.unpaused, snapshots, code).write_unpaused(decl, name)
        except (SyntaxError, RecursionError, MemoryError):
            self.module.namespace[name] = _pushing(decl.name, code.ops, tuple(p.name for p in decl.params))
        finally:
            self.scope, self.renames, self.block_names, self.loops, self.counter = saved
            self.snapshots = None

    def _thread(self) -> None:
        """Every target that lands on an unconditional jump goes straight to where that jump
        goes (the run loop then dispatches one operation less there). The code and its
        positions stay as they are: only where operations go on to changes."""
        for box in self.targets:
            seen: set[int] = set()
            while box[0] in self.jumps and box[0] not in seen:  # (a loop of jumps ends at itself)
                seen.add(box[0])
                box[0] = self.jumps[box[0]][0]

    def target(self, where: int = -1) -> Box:
        """A jump target (patched later when -1), threaded once the procedure is lowered."""
        box: Box = [where]
        self.targets.append(box)
        return box

    def block(self, block: ast.Block, code: Code) -> None:
        saved = dict(self.renames)
        self.block_names.append(set())
        run: list[ast.Stmt] = []  # statements that none pauses, to compile as one operation
        for stmt in block.statements:
            if runs_through(stmt, self.never_pausing):
                run.append(stmt)
                continue
            self.compiled_block(run, code)
            run = []
            self.statement(stmt, code)
        self.compiled_block(run, code)
        self.block_names.pop()
        self.renames = saved

    def compiled_block(self, run: list[ast.Stmt], code: Code) -> None:
        """``run`` as one operation, compiled (procedures.py); statement by statement, each
        lowered, if Python cannot compile it (its code nests too deeply)."""
        if not run:
            return
        saved = set(self.scope), dict(self.renames), set(self.block_names[-1]), self.counter
        if self.snapshots is not None:
            self.snapshots[id(run[0])] = snapshot(self, len(code.ops))
        try:
            op = self.block_writer.write_block(run, code.name, self.target(len(code.ops) + 1))
        except SyntaxError:
            self.scope, self.renames, self.block_names[-1], self.counter = saved
            for stmt in run:
                self.statement(stmt, code)
            return
        code.local.add(self.emit(code, op, run[0].span, sum(map(lowered_size, run))))

    def key(self, name: str) -> str:
        """The environment key of local ``name`` here."""
        return self.renames.get(name, name)

    def bind_let(self, name: str, span: Span) -> str:
        """Bind ``name`` by a 'let' (or 'let x = call/roll/random'): a name bound outside the
        current block gets a new variable until the block ends. Its environment key."""
        if name in self.scope and name not in self.block_names[-1]:
            key = self.renames[name] = hidden_key(name, self.let_ordinals[span])
            self.hidden.setdefault(name, {})[key] = (span.line, span.column)
        self.scope.add(name)
        self.block_names[-1].add(name)
        return self.key(name)

    def hold(self, name: str, promise: Declared | None) -> None:
        """Hold the local ``name``, which one statement alone binds, to ``promise`` from
        here on (held.py): its code reads it as the type promises, a saved frame is checked."""
        if promise is None or name not in self.bound_alone or self.held_types is None:
            return
        self.held_types[name] = promise
        self.writer.held.hold(name, f"env[{self.module.constant(name)}]", promise)

    def hold_let(self, node: ast.Let, scope: Scope) -> None:
        """Hold the local of ``node`` to what the text proves of its value, read in ``scope``,
        if no other statement binds it."""
        if node.name in self.bound_alone and self.held_types is not None:
            self.writer.held.learn_running(scope)
            self.hold(node.name, let_promise(facts_of(self.writer, node.value, scope)))

    def bind_plain(self, name: str) -> str:
        """Bind ``name`` by a 'for', a 'choose' or a chance event: the same variable as any
        other of that name in the procedure."""
        self.renames.pop(name, None)
        self.scope.add(name)
        return name

    def statement(self, stmt: ast.Stmt, code: Code) -> None:
        """Lower one statement (checked by the front end: a problem here is a bug)."""
        if self.snapshots is not None:
            self.snapshots[id(stmt)] = snapshot(self, len(code.ops))
        getattr(self, "_s_" + type(stmt).__name__)(stmt, code)

    @staticmethod
    def emit(code: Code, op: Op, span: Span | None, legacy_size: int = 1) -> int:
        """Add ``op``: it stands for ``legacy_size`` operations of saved formats 1 and 2."""
        code.legacy[code.legacy_size] = len(code.ops)
        code.legacy_size += legacy_size
        code.ops.append(op)
        code.spans.append(span)
        code.legacy[code.legacy_size] = len(code.ops)  # (where the code ends, until more comes)
        return len(code.ops) - 1

    def emit_step(self, code: Code, action: Action, span: Span) -> int:
        """An operation that does ``action(st, env)`` and moves on."""
        def op(st: State, fr: Frame) -> None:
            action(st, fr.env)
            fr.pc += 1
        at = self.emit(code, op, span)
        code.local.add(at)
        return at

    def emit_jump(self, code: Code, span: Span, target: int = -1) -> Box:
        """A jump whose target may be patched later: returns a one-item list holding it."""
        box = self.target(target)

        def op(st: State, fr: Frame) -> None:
            fr.pc = box[0]  # patched by the time the code runs
        at = self.emit(code, op, span)
        self.jumps[at] = box
        code.local.add(at)
        code.shapes[at] = ("jump", box)
        return box

    def _s_Let(self, node: ast.Let, code: Code) -> None:
        value = self.expr(node.value)
        self.hold_let(node, Scope(set(self.scope), self.key, {}, "0"))
        name = self.bind_let(node.name, node.span)

        def let(st: State, env: Env) -> None:
            env[name] = value(st, env)
        self.emit_step(code, let, node.span)

    def _s_Assign(self, node: ast.Assign, code: Code) -> None:
        value = self.expr(node.value)
        setter = self.assignment(node.target, node.op, value)
        self.emit_step(code, setter, node.span)

    def assignment(self, target: ast.Expr, op: str, value: Expr) -> Action:
        read, write = self.access(target)
        if op == "=":
            return lambda st, env: write(st, env, value(st, env))

        def update(st: State, env: Env) -> None:
            old = read(st, env)
            write(st, env, effects.updated(old, value(st, env), op))
        return update

    def assignable(self, target: ast.Expr) -> bool:
        """Whether ``target`` is a variable, local or global, or an attribute that is a
        variable of players, spaces or components (a list held in one can be shuffled)."""
        if isinstance(target, ast.Name):
            return target.name in self.scope or target.name in self.cat.global_vars
        return isinstance(target, ast.Attribute) and is_owned_variable(self.cat, target.name)

    def access(self, target: ast.Expr) -> tuple[Expr, Write]:
        """(read, write) of an assignable place: a local, a global, an attribute, or an item
        of a list held by one of those (``piles[i]``: the list is replaced by a new one)."""
        if isinstance(target, ast.Index):
            return item_access(self.access(target.target), self.expr(target.index))
        if isinstance(target, ast.Name):
            name = target.name
            if name in self.scope:
                read, write = local_access(self.key(name))
            elif name in self.cat.global_vars:
                read, write = global_access(name, global_promise(self.cat, name))
            else:
                raise unchecked(f"'{name}' is not a variable", target.span)
        elif isinstance(target, ast.Attribute):
            obj = self.expr(target.target)
            read, write = attribute_setter(self.cat, obj, target.name, target.span)
        else:
            raise unchecked("only a variable, an attribute or an item of a list can be assigned", target.span)
        return read, write

    def _s_If(self, node: ast.If, code: Code) -> None:
        exits: list[Box] = []
        for cond, body in node.branches:
            box = self.target()
            code.local.add(self.emit(code, self.writer.branch(cond, self.scope, self.key, box), cond.span))
            self.block(body, code)
            exits.append(self.emit_jump(code, node.span))
            box[0] = len(code.ops)
        if node.otherwise is not None:
            self.block(node.otherwise, code)
        for box in exits:
            box[0] = len(code.ops)

    def _loop(self, code: Code, continue_target: int) -> _Loop:
        self.loops.append({"breaks": [], "continues": [], "continue_target": continue_target})
        return self.loops[-1]

    def _close_loop(self, code: Code, loop: _Loop, continue_target: int | None = None,
                    break_target: int | None = None) -> None:
        end = len(code.ops) if break_target is None else break_target
        for box in loop["breaks"]:
            box[0] = end
        for box in loop["continues"]:
            box[0] = continue_target if continue_target is not None else loop["continue_target"]
        self.loops.pop()

    def _s_For(self, node: ast.For, code: Code) -> None:
        source, var = self.expr(node.source), node.var
        self.counter += 1
        it = f"$for{self.counter}"

        def start(st: State, env: Env) -> None:
            env[it] = (as_list(st, source(st, env)), 0)
        code.shapes[self.emit_step(code, start, node.span)] = ("start", it, source)
        end_box: Box = [-1]

        def step(st: State, fr: Frame) -> None:
            env = fr.env
            walk: Any = env[it]  # (the list, the next index)
            seq, i = walk
            if i >= len(seq):
                del env[it]
                fr.pc = end_box[0]
            else:
                env[var] = seq[i]
                env[it] = (seq, i + 1)
                fr.pc += 1
        head = self.emit(code, step, node.span)
        code.local.add(head)
        code.shapes[head] = ("for", it, var, end_box)
        hold_item(self, var, node.source)
        self.bind_plain(var)
        loop = self._loop(code, head)
        self.block(node.body, code)
        self.emit_jump(code, node.span, head)

        def drop(st: State, env: Env) -> None:
            env.pop(it, None)
        end_box[0] = self.emit_step(code, drop, node.span)
        code.shapes[end_box[0]] = ("drop", it)
        self._close_loop(code, loop, break_target=end_box[0])

    def _s_While(self, node: ast.While, code: Code) -> None:
        end_box = self.target()
        head = self.emit(code, self.writer.branch(node.condition, self.scope, self.key, end_box), node.span)
        code.local.add(head)
        loop = self._loop(code, head)
        self.block(node.body, code)
        self.emit_jump(code, node.span, head)
        end_box[0] = len(code.ops)
        self._close_loop(code, loop)

    def _s_Repeat(self, node: ast.Repeat, code: Code) -> None:
        head = len(code.ops)
        loop = self._loop(code, head)
        self.block(node.body, code)
        if node.until is None:
            self.emit_jump(code, node.span, head)
            self._close_loop(code, loop)
            return
        tail = self.emit(code, self.writer.branch(node.until, self.scope, self.key, self.target(head)), node.until.span)
        code.local.add(tail)
        self._close_loop(code, loop, continue_target=tail)

    def _s_Break(self, node: ast.Break, code: Code) -> None:
        if not self.loops:
            raise unchecked("'break' outside a loop", node.span)
        self.loops[-1]["breaks"].append(self.emit_jump(code, node.span))

    def _s_Continue(self, node: ast.Continue, code: Code) -> None:
        if not self.loops:
            raise unchecked("'continue' outside a loop", node.span)
        self.loops[-1]["continues"].append(self.emit_jump(code, node.span))

    # ---- decisions and chance (choices.py, chance.py) ----
    def _s_Choose(self, node: ast.Choose, code: Code) -> None:
        self.choices.choose(node, code)

    def _s_Menu(self, node: ast.Menu, code: Code) -> None:
        self.choices.menu(node, code)

    def _s_Simultaneous(self, node: ast.Simultaneous, code: Code) -> None:
        self.choices.simultaneous(node, code)

    def _s_Roll(self, node: ast.Roll, code: Code) -> None:
        self.chance.roll(node, code)

    def _s_RandomPick(self, node: ast.RandomPick, code: Code) -> None:
        self.chance.random_pick(node, code)

    def _s_Shuffle(self, node: ast.Shuffle, code: Code) -> None:
        self.chance.shuffle(node, code)

    # ---- changing the state ----
    def _s_Move(self, node: ast.Move, code: Code) -> None:
        what, to = self.expr(node.what), self.expr(node.to)

        def move(st: State, env: Env) -> None:
            effects.move(st, to(st, env), what(st, env))
        self.emit_step(code, move, node.span)

    def supply_variable(self, name: str, span: Span) -> ast.Name | None:
        """Where the supply a 'gain'/'pay' names comes from: None for a supply of the
        ruleset, else the variable that holds one (E101 if ``name`` is neither)."""
        if name in self.cat.supplies and name not in self.scope:
            return None
        if name in self.scope or name in self.cat.global_vars:
            return ast.Name(span, name)
        raise unchecked(f"unknown supply '{name}'", span)

    def _supply(self, name: str, span: Span) -> Callable[[State, Env], str]:
        """The supply a 'gain'/'pay' names: a supply, or a variable holding one."""
        variable = self.supply_variable(name, span)
        if variable is None:
            return lambda st, env: name
        value = self.expr(variable)
        return lambda st, env: effects.supply_named(value(st, env), name)

    def _s_Gain(self, node: ast.Gain, code: Code) -> None:
        supply = self._supply(node.supply, node.span)
        amount, who, slot = self.expr(node.amount), self.expr(node.player), self.cat.holder_slot

        def gain(st: State, env: Env) -> None:
            st.transfer(supply(st, env), 0, slot(who(st, env)), effects.amount(amount(st, env)))
        self.emit_step(code, gain, node.span)

    def _s_Pay(self, node: ast.Pay, code: Code) -> None:
        supply = self._supply(node.supply, node.span)
        amount, payer, slot = self.expr(node.amount), self.expr(node.payer), self.cat.holder_slot
        payee = self.expr(node.payee) if node.payee is not None else None

        def pay(st: State, env: Env) -> None:
            to_slot = slot(payee(st, env)) if payee is not None else 0
            st.transfer(supply(st, env), slot(payer(st, env)), to_slot, effects.amount(amount(st, env)))
        self.emit_step(code, pay, node.span)

    def _call_frame(self, node: ast.CallStmt | ast.CallLet, code: Code, ret_var: str | None) -> None:
        names = [p.name for p in self.cat.procedure_called(node).params]
        compiled = self.never_pausing.get(node.procedure)
        unpaused = self.unpaused.get(node.procedure)

        def bind_result() -> str | None:   # after the arguments: they read the names as they were
            return self.bind_let(ret_var, node.span) if ret_var else None
        op = self.writer.call(node, names, self.scope, self.key, bind_result, compiled, unpaused)
        at = self.emit(code, op, node.span)
        if compiled is not None:  # a procedure that never pauses: no frame is pushed
            code.local.add(at)
        else:  # a frame is pushed when the procedure pauses (or always, without its function)
            code.shapes[at] = ("push",) if unpaused is None else ("unpaused",)
        if node.procedure in self.drawing:   # (its function may draw without pausing: unpaused.py)
            code.draws.add(at)

    def _s_CallStmt(self, node: ast.CallStmt, code: Code) -> None:
        self._call_frame(node, code, None)

    def _s_CallLet(self, node: ast.CallLet, code: Code) -> None:
        self._call_frame(node, code, node.name)

    def _s_Return(self, node: ast.Return, code: Code) -> None:
        value: Expr = self.expr(node.value) if node.value is not None else (lambda st, env: None)

        def ret(st: State, fr: Frame) -> None:
            st.pop(value(st, fr.env))
        self.emit(code, ret, node.span)

    def _s_Next(self, node: ast.Next, code: Code) -> None:
        if node.phase not in self.cat.phases:
            raise unchecked(f"unknown phase '{node.phase}'", node.span)
        phase = node.phase

        def next_phase(st: State, fr: Frame) -> None:
            st.enter_phase(phase)
        self.emit(code, next_phase, node.span)

    def _s_EndGame(self, node: ast.EndGame, code: Code) -> None:
        def end(st: State, fr: Frame) -> None:
            st.end_game()
        self.emit(code, end, node.span)

    def _s_Log(self, node: ast.Log, code: Code) -> None:
        message = self._log_message(node.message)
        audience = self.expr(node.audience) if node.audience is not None else None

        private = audience is not None

        def log(st: State, env: Env) -> None:
            text = message(st, env)
            effects.log(st, text, audience(st, env) if audience is not None else None, private)
        self.emit_step(code, log, node.span)

    def _s_Narrate(self, node: ast.Narrate, code: Code) -> None:
        mark = ("narrate", node.mark)

        def narrate(st: State, env: Env) -> None:
            if st.event_log is not None:
                st.event_log.append(mark)
        self.emit_step(code, narrate, node.span)

    def _s_Turn(self, node: ast.Turn, code: Code) -> None:
        player = self.expr(node.player)

        def turn(st: State, env: Env) -> None:
            if st.event_log is not None:
                effects.turn_begins(st, player(st, env))
        self.emit_step(code, turn, node.span)

    def _log_message(self, node: ast.Expr) -> Callable[[State, Env], str | LogLine]:
        """``f(st, env) -> str | LogLine``: the line a 'log' statement writes, its text built
        only when the log is read (``LogLine``) when it is known to be short. A message
        ``"text" + a + b...`` keeps its values; each '+' joins texts as it would have (the
        same line, the same charges and bounds: a line is kept for later only while its text
        stays within LAZY_TEXT characters, which '+' does not charge)."""
        parts = text_and_values(node)
        if parts is None:
            message = self.expr(node)
            return lambda st, env: effects.lazy_text(message(st, env), "")
        first, operands = parts
        values = [self.expr(operand) for operand in operands]

        def line(st: State, env: Env) -> str | LogLine:
            return effects.line(st, first, [value_of(st, env) for value_of in values])
        return line

    def _s_Reveal(self, node: ast.Reveal, code: Code) -> None:
        value, audience = self.expr(node.value), self.expr(node.audience)

        def reveal(st: State, env: Env) -> None:
            effects.reveal(st, value(st, env), audience(st, env))
        self.emit_step(code, reveal, node.span)


def _pushing(name: str, code: Ops, params: tuple[str, ...]) -> Callable[..., Paused]:
    """The stand-in for the function of procedure ``name`` that Python could not compile:
    it pushes the procedure's frame at its start, with its arguments (a caller's ``_decide``
    after them, if any: no decision is made here)."""
    def push(st: State, depth: int, *args: Value) -> Paused:
        return pause(st, name, code, 0, dict(zip(params, args[:len(params)], strict=True)))
    return push
