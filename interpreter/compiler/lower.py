"""Lowering: AST procedures -> flat lists of small operations (closures) that run fast.

Expressions become closures ``f(st, env) -> value``. A procedure becomes a ``Code``: a list
of operations ``op(st, frame)`` that each move ``frame.pc`` on, and the span of each for
error messages. Control flow is jumps; a decision is an operation that stops the run
loop by setting ``st.pending``. All of a running procedure's data is in its frame's
``env`` (a dict of plain values), so a state pauses and resumes anywhere.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, TypeVar, cast

from rulelang import ast
from rulelang.boards import Space
from rulelang.syntax.ast_builder import PLACEHOLDER

from ..model import rng
from ..model.program import Code, Decision, Env, Expr, Frame, LogLine, Op, Options
from ..model.serialize import zone_key
from ..model.values import (
    CHANCE,
    Component,
    EnumValue,
    Player,
    RuleError,
    Value,
    ZoneRef,
    display,
    display_within,
    kind_of,
)
from ..state.events import chance_event
from ..tables import effects
from ..tables.builtins import as_list
from ..tables.runtime import make_room_for_calls
from .codegen import CompileError, ExpressionWriter, Module
from .procedures import ProcedureWriter, lowered_size, never_pausing, runs_through, text_and_values

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..state.state import State
    from ..tables.catalog import Catalog, Write

__all__ = ["CompileError", "Compiler"]

_MISSING = object()

Box = list[int]  # a jump target (-1 until patched, once the code it jumps to is emitted)
Action: TypeAlias = Callable[["State", Env], None]  # what a step does: ``action(st, env)``
PromptOf: TypeAlias = Callable[["State", Env, int], str]  # a choice's prompt: ``f(st, env, player)``

_T = TypeVar("_T")
_K = TypeVar("_K")


class _Loop(TypedDict):
    """The jumps of a loop being lowered that 'break' and 'continue' patch once it ends."""

    breaks: list[Box]
    continues: list[Box]
    continue_target: int

PROMPT_VALUE = 200  # the most characters of one value shown in a prompt


class Compiler:
    """Turns the AST of a merged ruleset into closures, against a catalog of declarations."""

    def __init__(self, catalog: Catalog):
        self.cat = catalog
        self.scope: set[str] = set()
        # Block scoping of 'let': a 'let' of a name bound outside the current block makes a new
        # variable for the rest of the block, kept in the environment under another key.
        self.renames: dict[str, str] = {}
        self.block_names: list[set[str]] = [set()]
        self.loops: list[_Loop] = []
        self.counter = 0
        self.errors: list[CompileError] = []
        self.module = Module()  # the generated code of the game's expressions
        self.writer = ExpressionWriter(catalog, self.module)
        self.never_pausing: dict[str, str] = {}  # procedure -> the name of its compiled function
        # In the procedure being lowered: the unconditional jumps (operation -> its target), and
        # every target that a jump, a test, a compiled block or a choice goes on to (``_thread``).
        self.jumps: dict[int, Box] = {}
        self.targets: list[Box] = []
        self.block_writer = ProcedureWriter(self, self.never_pausing, in_env=True)

    def compile_never_pausing(self, procedures: Mapping[str, ast.ProcedureDecl]) -> None:
        """Compile the procedures that never pause to Python functions (procedures.py),
        before any code that calls them is lowered. If one cannot be compiled, none is: the
        lowering of its code reports the problem."""
        names = never_pausing(procedures)
        if names:
            make_room_for_calls()
        self.never_pausing.update((name, self.module.fresh("_p")) for name in names)
        writer = ProcedureWriter(self, self.never_pausing)
        try:
            for name in names:
                writer.write(procedures[name])
        except (CompileError, SyntaxError):
            self.never_pausing.clear()

    def expr(self, node: ast.Expr) -> Expr:
        """The compiled function ``f(st, env) -> value`` of an expression, whose local names
        (``scope``) are read from ``env``."""
        return self.writer.function(node, self.scope, self.key)

    # ------------------------------------------------------------------ statements
    def procedure(self, name: str, params: tuple[str, ...], body: ast.Block) -> Code:
        """The lowered code of a procedure or phase whose parameters are ``params``."""
        code = Code(name)
        self.scope = set(params)
        self.renames, self.block_names = {}, [set()]
        self.loops = []
        self.jumps, self.targets = {}, []
        self.block(body, code)
        self._thread()
        return code

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
        lowered, if it cannot be compiled (the lowering reports why)."""
        if not run:
            return
        saved = set(self.scope), dict(self.renames), set(self.block_names[-1]), self.counter
        try:
            op = self.block_writer.write_block(run, code.name, self.target(len(code.ops) + 1))
        except (CompileError, SyntaxError):
            self.scope, self.renames, self.block_names[-1], self.counter = saved
            for stmt in run:
                self.statement(stmt, code)
            return
        self.emit(code, op, run[0].span, sum(map(lowered_size, run)))

    def key(self, name: str) -> str:
        """The environment key of local ``name`` here."""
        return self.renames.get(name, name)

    def bind_let(self, name: str, span: Span) -> str:
        """Bind ``name`` by a 'let' (or 'let x = call/roll/random'): a name bound outside the
        current block gets a new variable until the block ends. Its environment key."""
        if name in self.scope and name not in self.block_names[-1]:
            self.renames[name] = f"{name}@{span.line}:{span.column}"
        self.scope.add(name)
        self.block_names[-1].add(name)
        return self.key(name)

    def bind_plain(self, name: str) -> str:
        """Bind ``name`` by a 'for', a 'choose' or a chance event: the same variable as any
        other of that name in the procedure."""
        self.renames.pop(name, None)
        self.scope.add(name)
        return name

    def statement(self, stmt: ast.Stmt, code: Code) -> None:
        """Lower one statement; a problem is recorded and lowering goes on, so that one pass
        reports every independent problem."""
        try:
            getattr(self, "_s_" + type(stmt).__name__)(stmt, code)
        except CompileError as error:
            if error.span is None:
                error.span = stmt.span
            self.errors.append(error)

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
        return self.emit(code, op, span)

    def emit_jump(self, code: Code, span: Span, target: int = -1) -> Box:
        """A jump whose target may be patched later: returns a one-item list holding it."""
        box = self.target(target)

        def op(st: State, fr: Frame) -> None:
            fr.pc = box[0]  # patched by the time the code runs
        self.jumps[self.emit(code, op, span)] = box
        return box

    def _s_Let(self, node: ast.Let, code: Code) -> None:
        value = self.expr(node.value)
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

    def access(self, target: ast.Expr) -> tuple[Expr, Write]:
        """(read, write) of an assignable place: a local, a global, an attribute, or an item
        of a list held by one of those (``piles[i]``: the list is replaced by a new one)."""
        if isinstance(target, ast.Index):
            read_list, write_list = self.access(target.target)
            index = self.expr(target.index)

            def position(st: State, env: Env) -> tuple[tuple[Value, ...], int]:
                items, i = read_list(st, env), index(st, env)
                if not isinstance(items, tuple):
                    raise RuleError(f"only an item of a list can be assigned, not of {kind_of(items)}")
                if type(i) is not int or not -len(items) <= i < len(items):
                    raise RuleError(f"index {i} is out of range for a list of {len(items)}")
                return items, i % len(items)

            def read_item(st: State, env: Env) -> Value:
                items, i = position(st, env)
                return items[i]

            def write_item(st: State, env: Env, new: Value) -> None:
                items, i = position(st, env)
                write_list(st, env, (*items[:i], new, *items[i + 1:]))
            return read_item, write_item
        if isinstance(target, ast.Name):
            name = target.name
            if name in self.scope:
                read, write = _local_access(self.key(name))
            elif name in self.cat.global_vars:
                read, write = _global_access(name)
            else:
                raise CompileError(f"'{name}' is not a variable", target.span, "E203",
                                   hint=self.cat.suggest(name))
        elif isinstance(target, ast.Attribute):
            obj = self.expr(target.target)
            read, write = self.cat.attribute_setter(obj, target.name, target.span)
        else:
            raise CompileError("only a variable, an attribute or an item of a list can be assigned", target.span,
                               "E203")
        return read, write

    def _s_If(self, node: ast.If, code: Code) -> None:
        exits: list[Box] = []
        for cond, body in node.branches:
            box = self.target()
            self.emit(code, self.writer.branch(cond, self.scope, self.key, box), cond.span)
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
        self.emit_step(code, start, node.span)
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
        self.bind_plain(var)
        loop = self._loop(code, head)
        self.block(node.body, code)
        self.emit_jump(code, node.span, head)

        def drop(st: State, env: Env) -> None:
            env.pop(it, None)
        end_box[0] = self.emit_step(code, drop, node.span)
        self._close_loop(code, loop, break_target=end_box[0])

    def _s_While(self, node: ast.While, code: Code) -> None:
        end_box = self.target()
        head = self.emit(code, self.writer.branch(node.condition, self.scope, self.key, end_box), node.span)
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
        self._close_loop(code, loop, continue_target=tail)

    def _s_Break(self, node: ast.Break, code: Code) -> None:
        if not self.loops:
            raise CompileError("'break' outside a loop", node.span, "E204")
        self.loops[-1]["breaks"].append(self.emit_jump(code, node.span))

    def _s_Continue(self, node: ast.Continue, code: Code) -> None:
        if not self.loops:
            raise CompileError("'continue' outside a loop", node.span, "E204")
        self.loops[-1]["continues"].append(self.emit_jump(code, node.span))

    # ---- decisions and chance ----
    def _s_Choose(self, node: ast.Choose, code: Code) -> None:
        source = self.expr(node.source)
        if node.chooser is None:
            raise CompileError("a choice needs 'by PLAYER' to say who chooses", node.span, "E204")
        chooser = self.expr(node.chooser)
        prompt = self.prompt(node.prompt, f"choose {node.var} in {_source_text(node.source)}")
        span = node.span
        asks = "number range" if isinstance(node.source, ast.BinaryOp) and node.source.op == ".." else "choice"
        var, known_ids, remember_ids = self.bind_plain(node.var), self.cat.known_ids, self.cat.remember_ids
        otherwise_box = self.target()
        has_otherwise = node.otherwise is not None
        after = self.target(len(code.ops) + 1)  # the operation after the choice (threaded)

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.env[var] = value
            fr.pc = after[0]

        prompt_of = _prompt_of(prompt)  # made once: a decision reads the state it is asked from

        def choose(st: State, fr: Frame) -> None:
            options = as_list(st, source(st, fr.env))
            ids = known_ids(options)  # options offered before: no copies, and their ids known
            if ids is None:
                options = _unique(options)
                if not options:
                    if has_otherwise:
                        fr.pc = otherwise_box[0]
                        return
                    raise RuleError("this choice offers no option", "E604")
            player = _chooser(st, chooser(st, fr.env))
            if ids is None:
                ids = remember_ids(options)
            st.pending = Decision("choose", (player.index,), options, ids, resume, (), None, (), prompt_of, span, asks)
        code.stops.add(self.emit(code, choose, node.span))
        if node.otherwise is not None:
            skip = self.emit_jump(code, node.span)
            otherwise_box[0] = len(code.ops)
            self.block(node.otherwise, code)
            skip[0] = len(code.ops)

    def _s_Menu(self, node: ast.Menu, code: Code) -> None:
        chooser = self.expr(node.chooser)
        prompt = self.prompt(node.prompt, "choose one")
        span = node.span
        labels = [self.cat.label_id(o.label) for o in node.options]
        conds = [self.expr(o.condition) if o.condition is not None else None for o in node.options]
        targets: list[int] = []
        exits: list[Box] = []
        names = tuple(o.label for o in node.options)

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.pc = targets[names.index(value)]

        prompt_of = _prompt_of(prompt)
        ids = tuple(labels)
        always_open = bool(conds) and all(c is None for c in conds)  # no conditions: the same options each time

        def menu(st: State, fr: Frame) -> None:
            env = fr.env
            if always_open:
                options, option_ids = names, ids
            else:
                open_ = [i for i, c in enumerate(conds) if c is None or c(st, env)]
                if not open_:
                    raise RuleError("no option of this choice is available", "E604")
                options, option_ids = tuple(names[i] for i in open_), tuple(labels[i] for i in open_)
            player = _chooser(st, chooser(st, env))
            st.pending = Decision("menu", (player.index,), options, option_ids, resume, (), None, (), prompt_of, span,
                                  "menu")
        code.stops.add(self.emit(code, menu, node.span))
        for option in node.options:
            targets.append(len(code.ops))
            self.block(option.body, code)
            exits.append(self.emit_jump(code, option.span))
        end = len(code.ops)
        for box in exits:
            box[0] = end

    def _s_Simultaneous(self, node: ast.Simultaneous, code: Code) -> None:
        players, pvar, var = self.expr(node.players), node.player_var, node.var
        outer = pvar in self.scope
        self.scope.add(pvar)
        source = self.expr(node.source)
        prompt = self.prompt(node.prompt, f"choose {var} in {_source_text(node.source)} (everyone at once)")
        if not outer:
            self.scope.discard(pvar)  # the player variable is only bound in the options' list
        self.bind_plain(var)
        action_ids = self.cat.action_ids
        self.counter += 1
        picks_key = f"$picks{self.counter}"

        def options_for(st: State, env: Env, player: Player) -> tuple[Value, ...]:
            return _bound(env, pvar, player, lambda: _unique(as_list(st, source(st, env))))

        span = node.span

        def waiting_for(st: State, env: Env, group: list[Player], picks: dict[Value, Value],
                        per_player: dict[int, Options]) -> Decision:
            """The decision of the players of ``group`` who have not picked yet, whose
            options are ``per_player``. A pick changes neither the state nor what the others
            may pick (their options read the state, not the picks): the next decision keeps
            their options, as running the operation again would compute them."""
            waiting = tuple(p.index for p in group if p not in picks)
            chosen = tuple(sorted(p.index for p in group if p in picks))

            def resume(st: State, fr: Frame, value: Value, player_index: int) -> None:
                picks_now = dict(cast("dict[Value, Value]", fr.env.get(picks_key, {})))
                picks_now[st.game.catalog.players[player_index]] = value
                fr.env[picks_key] = picks_now
                if any(p not in picks_now for p in group):  # others to wait for: the same options
                    rest = {i: o for i, o in per_player.items() if i != player_index}
                    st.pending = waiting_for(st, fr.env, group, picks_now, rest)
                # else fr.pc stays: the operation runs again and finishes

            def prompt_of(st: State, index: int) -> str:
                env = st.frames[-1].env
                return _bound(env, pvar, st.game.catalog.players[index], lambda: prompt(st, env, index))
            return Decision("simultaneous", waiting, (), (), resume,
                            per_player=per_player, chosen=chosen, prompt_of=prompt_of, span=span)

        def simultaneous(st: State, fr: Frame) -> None:
            env = fr.env
            group = [_chooser(st, p, "a simultaneous choice") for p in as_list(st, players(st, env))]
            picks = cast("dict[Value, Value]", env.get(picks_key, {}))
            waiting = [p for p in group if p not in picks]
            if not waiting:
                env[var] = {p: picks[p] for p in group}
                env.pop(picks_key, None)
                fr.pc += 1
                return
            per_player: dict[int, Options] = {}
            for p in waiting:
                options = options_for(st, env, p)
                if not options:
                    raise RuleError(f"{p} has no option in this simultaneous choice", "E604")
                per_player[p.index] = (options, action_ids(options))
            st.pending = waiting_for(st, env, group, picks, per_player)
        code.stops.add(self.emit(code, simultaneous, span))

    def prompt(self, node: ast.Prompt | None, default: str) -> PromptOf:
        """``f(st, env, player) -> str``: the text of a choice's prompt, its placeholders
        filled in (each value at most PROMPT_VALUE characters), or ``default``."""
        if node is None:
            return lambda st, env, player: default
        pieces = PLACEHOLDER.split(node.text)   # text, placeholder, text, ...
        texts = pieces[0::2]
        parts = [self.expr(part) for part in node.parts]

        def render(st: State, env: Env, player: int) -> str:
            out = [texts[0]]
            for part, text in zip(parts, texts[1:], strict=True):
                value = part(st, env)
                shown = value if isinstance(value, str) else display_within(value, PROMPT_VALUE)
                if shown is None:   # a value whose text is longer than PROMPT_VALUE
                    shown = "..."
                elif len(shown) > PROMPT_VALUE:
                    shown = shown[:PROMPT_VALUE] + "..."
                out += [shown, text]
            return "".join(out)
        return render

    def _chance(self, code: Code, span: Span, var: str, outcomes_of: Callable[[State, Env], tuple[Value, ...]],
                asked: str) -> None:
        """A chance event binding ``var`` ('let x = roll d', 'let x = random list'): sampled
        from the state's RNG, or exposed."""
        var = self.bind_let(var, span)
        action_ids = self.cat.action_ids

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.env[var] = value
            fr.pc += 1
            if st.event_log is not None:
                st.event_log.append(chance_event(st, asked, value))

        def asked_of(st: State, player: int) -> str:
            return asked

        def chance(st: State, fr: Frame) -> None:
            values = outcomes_of(st, fr.env)
            if not values:
                raise RuleError("a random pick from an empty list")
            if st.explicit_chance:
                options, probs = _distribution(st, values)
                if len(options) > 1:
                    st.pending = Decision("chance", (CHANCE,), options, action_ids(options), resume,
                                          probs, prompt_of=asked_of, span=span)
                    return
                value = options[0]  # a single outcome is no chance node
            else:
                st.rng, i = rng.below(st.rng, len(values))
                value = values[i]
            resume(st, fr, value, CHANCE)
        code.stops.add(self.emit(code, chance, span))

    def _s_Roll(self, node: ast.Roll, code: Code) -> None:
        if node.die not in self.cat.dice:
            raise CompileError(f"unknown die '{node.die}'", node.span, hint=self.cat.suggest(node.die, self.cat.dice))
        faces = self.cat.dice[node.die]
        self._chance(code, node.span, node.name, lambda st, env: faces, f"roll {node.die}")

    def _s_RandomPick(self, node: ast.RandomPick, code: Code) -> None:
        source = self.expr(node.source)
        self._chance(code, node.span, node.name, lambda st, env: as_list(st, source(st, env)),
                     f"random {node.name} in {_source_text(node.source)}")

    def _s_Shuffle(self, node: ast.Shuffle, code: Code) -> None:
        target = self.expr(node.target)
        write: Action | None = None
        if isinstance(node.target, (ast.Name, ast.Attribute)):
            try:
                write = self.assignment(node.target, "=", lambda st, env: env["$shuffled"])
            except CompileError:
                write = None
        self.counter += 1
        key = f"$shuffle{self.counter}"
        action_ids = self.cat.action_ids
        what = _source_text(node.target)
        span, shuffled = node.span, f"shuffle {what}: the item at each place"

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            items: tuple[Value, ...] | list[Value]
            items, i = cast("tuple[tuple[Value, ...], int]", fr.env[key])
            j = _position(items, value)
            items = list(items)
            items[i], items[j] = items[j], items[i]
            fr.env[key] = (tuple(items), i - 1)

        def shuffled_of(st: State, player: int) -> str:
            return shuffled

        def shuffle(st: State, fr: Frame) -> None:
            env = fr.env
            items: tuple[Value, ...]
            if key not in env:
                value = target(st, env)
                if isinstance(value, ZoneRef):
                    items = tuple(st.zones[value.slot])
                elif isinstance(value, tuple) and write is not None:
                    items = value
                else:
                    raise RuleError(f"can only shuffle a zone or a list variable, not {kind_of(value)}")
                env[key] = (items, len(items) - 1)
            items, i = cast("tuple[tuple[Value, ...], int]", env[key])
            if i > 0 and st.explicit_chance:
                # Equal items (a list [1, 1, 2]), and interchangeable copies of a component, are
                # one outcome with their summed probability.
                options, probs = _distribution(st, items[: i + 1])
                if len(options) > 1:
                    st.pending = Decision("chance", (CHANCE,), options, action_ids(options), resume,
                                          probs, prompt_of=shuffled_of, span=span)
                    return
                i = 0  # the items left are interchangeable: their order is decided
            order = list(items)
            st.rng = rng.shuffle(st.rng, order, i)
            del env[key]
            value = target(st, env)
            if st.event_log is not None:
                st.event_log.append(("shuffle", zone_key(value) if isinstance(value, ZoneRef) else what))
            if isinstance(value, ZoneRef):
                st.zones[value.slot][:] = cast("list[Component]", order)  # the zone's own components
                st.shuffled(value.slot)
            elif write is None:
                raise RuleError(f"can only shuffle a zone or a list variable, not {kind_of(value)}")
            else:
                env["$shuffled"] = tuple(order)
                write(st, env)
                del env["$shuffled"]
            fr.pc += 1
        code.stops.add(self.emit(code, shuffle, node.span))

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
        raise CompileError(f"unknown supply '{name}'", span, hint=self.cat.suggest(name, self.cat.supplies))

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

        def bind_result() -> str | None:   # after the arguments: they read the names as they were
            return self.bind_let(ret_var, node.span) if ret_var else None
        self.emit(code, self.writer.call(node, names, self.scope, self.key, bind_result, compiled), node.span)

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
            raise CompileError(f"unknown phase '{node.phase}'", node.span, "E104",
                               hint=self.cat.suggest(node.phase, self.cat.phases))
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


def _prompt_of(prompt: PromptOf) -> Callable[[State, int], str]:
    """A decision's ``prompt_of``: ``prompt`` with the locals of the procedure running in
    the state asked (made once per statement, not once per decision)."""
    def prompt_of(st: State, player: int) -> str:
        return prompt(st, st.frames[-1].env, player)
    return prompt_of


def _source_text(expr: ast.Expr) -> str:
    """A short rendering of an expression, for a prompt derived from the statement."""
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.Attribute):
        return f"{_source_text(expr.target)}.{expr.name}"
    if isinstance(expr, ast.Literal):
        return display(expr.value)
    if isinstance(expr, ast.Call) and not any(isinstance(a, (ast.Generator, ast.KeywordArg)) for a in expr.args):
        return f"{expr.function}({', '.join(_source_text(a) for a in expr.args)})"
    if isinstance(expr, ast.Call):
        return f"{expr.function}(...)"
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        return f"{_source_text(expr.left)}..{_source_text(expr.right)}"
    if isinstance(expr, ast.Index):
        return f"{_source_text(expr.target)}[{_source_text(expr.index)}]"
    if isinstance(expr, ast.Comprehension) and len(expr.clauses) == 1:
        return _source_text(expr.clauses[0].source)
    return "the options"


def _bound(env: Env, var: str, value: Value, compute: Callable[[], _T]) -> _T:
    """``compute()`` with ``var`` bound to ``value`` in ``env``; a variable of the same name
    outside is kept."""
    old = env.get(var, _MISSING)
    env[var] = value
    try:
        return compute()
    finally:
        _restore(env, var, old)


def _restore(env: Env, var: str, old: object) -> None:
    if old is _MISSING:
        env.pop(var, None)
    else:
        env[var] = cast(Value, old)  # not _MISSING: the value the variable had


def _position(items: Sequence[Value], value: Value) -> int:
    """Where the outcome ``value`` (one of ``items`` itself) is among ``items``: found by
    identity, so that the copy picked, and a true apart from a 1, is the one moved."""
    for k, item in enumerate(items):
        if item is value:
            return k
    return items.index(value)


_SAME_WHEN_EQUAL = frozenset({int, str, bool, type(None), Space, Component, Player, EnumValue})


def _unique(items: tuple[Value, ...]) -> tuple[Value, ...]:
    try:
        if len(set(items)) == len(items):  # no two are equal: none is a copy of another
            return items
    except TypeError:  # a value that cannot be hashed
        pass
    if {type(item) for item in items} <= _SAME_WHEN_EQUAL:  # equal is the same option: a dict keeps one
        return tuple(dict.fromkeys(items))
    seen: set[int | str]
    out: list[Value]
    seen, out = set(), []
    for item in items:
        key = item if isinstance(item, (int, str)) else id(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def _local_access(name: str) -> tuple[Expr, Write]:
    """(read, write) of the local variable ``name``."""
    def read(st: State, env: Env) -> Value:
        return env[name]

    def write(st: State, env: Env, value: Value) -> None:
        env[name] = value
    return read, write


def _global_access(name: str) -> tuple[Expr, Write]:
    """(read, write) of the global variable ``name``."""
    def read(st: State, env: Env) -> Value:
        return st.global_values[name]

    def write(st: State, env: Env, value: Value) -> None:
        effects.set_global(st, name, value)
    return read, write


def _distribution(st: State, values: Sequence[Value]) -> tuple[tuple[Value, ...], tuple[float, ...]]:
    """The distinct outcomes (the first of each kind, in order) and the probability of each,
    for explicit chance. Values with the same outcome key (equal values, interchangeable
    copies of a component) are one outcome with their summed probability."""
    first: dict[object, Value] = {}
    counts: dict[object, int] = {}
    try:
        for v in values:
            key = _outcome_key(st, v)
            if key in counts:
                counts[key] += 1
            else:
                first[key], counts[key] = v, 1
    except TypeError:  # a map: it has no hash
        raise RuleError(f"a chance event cannot pick among values of kind {kind_of(v)}") from None
    total = len(values)
    return tuple(first.values()), tuple(n / total for n in counts.values())


_BOOL = object()  # tags a boolean's outcome key: true is not the number 1 there
_COPY = object()  # tags a component's outcome key


def _outcome_key(st: State, value: Value) -> object:
    """What a chance outcome stands for: a value itself, a boolean apart from the numbers, and
    a component by what makes its copies interchangeable now (``_copy_key``)."""
    if isinstance(value, Component):
        return _copy_key(st, value)
    if isinstance(value, bool):
        return _BOOL, value
    return value


def _copy_key(st: State, c: Component) -> object:
    """Two components are interchangeable, so one chance outcome, when they have the same type,
    the same fields (hence the same label), the same component variables and the same tokens,
    and lie in the same zone (where in it is what a shuffle decides). A component whose fields
    or variables hold a map stands alone."""
    holder = st.game.catalog.holder_base + c.id
    key = (_COPY, c.type, tuple(sorted(c.fields.items(), key=_first)),
           tuple(values[c.id] for values in st.component_values.values()),
           tuple(held[holder] for held in st.supply_counts.values()), st.component_zone[c.id])
    try:
        hash(key)
    except TypeError:
        return _COPY, c.id
    return key


def _first(pair: tuple[_K, object]) -> _K:
    return pair[0]


def _chooser(st: State, player: Value, what: str = "'by'") -> Player:
    """The player who makes a choice: a real player, never a dummy seat."""
    if not isinstance(player, Player):
        raise RuleError(f"{what} needs a player, got {kind_of(player)}")
    if player.index >= st.game.num_players:
        raise RuleError(f"{player} is a dummy seat and cannot choose: say who chooses for it with 'by'")
    return player


# ---- aggregates ----
