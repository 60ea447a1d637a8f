"""Lowering: AST procedures -> flat lists of small operations (closures) that run fast.

Expressions become closures ``f(st, env) -> value``. A procedure becomes a ``Code``: a list
of operations ``op(st, frame)`` that each move ``frame.pc`` on, and the span of each for
error messages. Control flow is jumps; a decision is an operation that stops the run
loop by setting ``st.pending``. All of a running procedure's data is in its frame's
``env`` (a dict of plain values), so a state pauses and resumes anywhere.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space
from rulelang.diagnostics import Span
from rulelang.parser import PLACEHOLDER

from . import rng
from .builtins import AGGREGATES, BOARD_QUERIES, BUILTINS, FREE_WORK, arity, as_list, sequence
from .events import chance_event
from .program import Code, Decision, Expr, LogLine
from .serialize import zone_key
from .values import (
    CHANCE,
    ORDER_KEYS,
    Component,
    ComponentSpec,
    EnumType,
    EnumValue,
    OrderKey,
    Player,
    Ref,
    RuleError,
    Value,
    ZoneRef,
    display,
    display_within,
    kind_of,
    less,
)

if TYPE_CHECKING:
    from .catalog import Catalog


class CompileError(Exception):
    """A problem found while building a game's tables or lowering its procedures (the
    catalog collects them; the Game reports them all as one RulesetError)."""

    def __init__(self, message: str, span: Span | None, code: str = "E101", hint: str | None = None):
        super().__init__(message)
        self.message, self.span, self.code, self.hint = message, span, code, hint


_MISSING = object()

Box = list[int | None]  # a jump target, patched once the code it jumps to is emitted

_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
# The same orders for values that Python does not order (players, enum values...): ``less``.
_ORDER_OF_RULES = {"<": less, "<=": lambda x, y: not less(y, x), ">": lambda x, y: less(y, x),
                   ">=": lambda x, y: not less(x, y)}


MAX_LIST = 100_000  # the longest list a range or a list repetition may build
MAX_STRING = 1_000_000  # the longest string a repetition may build


def _inclusive_range(st, low, high) -> tuple:
    if not isinstance(low, int) or not isinstance(high, int) or isinstance(low, bool) or isinstance(high, bool):
        raise RuleError(f"a range needs two numbers, got {kind_of(low)} and {kind_of(high)}")
    if high - low >= MAX_LIST:
        raise RuleError(f"the range {low}..{high} has more than {MAX_LIST} numbers")
    if high - low >= FREE_WORK:
        st.charge(4 * (high - low + 1))  # new numbers: more memory than a list of existing values
    return tuple(range(low, high + 1))


def _is_none_literal(node) -> bool:
    return isinstance(node, ast.Literal) and node.value is None


def _eq(a, b):
    return a is b or a == b


PROMPT_VALUE = 200  # the most characters of one value shown in a prompt
MAX_FUNCTION_DEPTH = 100  # the most calls of the ruleset's functions within one another (E603)
CALL_WORK = 4  # the items of work a function call is charged (it costs about as much as four)
_DEPTH = "$depth"  # the key of a function's environment that holds how deep its call is

MAX_INT = 2**63 - 1  # the largest number a result may be (and the smallest is -MAX_INT)


def _too_large(value: int) -> RuleError:
    return RuleError(f"number too large: a result must stay between -{MAX_INT} and {MAX_INT}")


def _being_lowered(st, env):
    raise RuntimeError("a function ran before its body was lowered")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _bounded(value):
    """``value``, once checked: a number must stay within +-MAX_INT."""
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        raise _too_large(value)
    return value


def _arith(op):
    def plus(a, b):
        if type(a) is int and type(b) is int:
            result = a + b
            if -MAX_INT <= result <= MAX_INT:
                return result
            raise _too_large(result)
        if isinstance(a, str) or isinstance(b, str):
            # as the rules write values: true, none, [1, 2]
            left = display_within(a, MAX_STRING)
            right = None if left is None else display_within(b, MAX_STRING - len(left))
            if left is None or right is None:
                raise RuleError(f"joining {kind_of(a)} and {kind_of(b)} as text makes more than"
                                f" {MAX_STRING} characters")
            return left + right
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) + len(b) > MAX_LIST:
            raise RuleError(f"joining lists of {len(a)} and {len(b)} items makes more than {MAX_LIST} items")
        return _bounded(a + b)

    def minus(a, b):
        return _bounded(a - b)

    def times(a, b):
        if type(a) is int and type(b) is int:
            return _bounded(a * b)
        if isinstance(b, (tuple, str)) and isinstance(a, int):
            a, b = b, a
        if isinstance(a, tuple) and isinstance(b, int) and len(a) * b > MAX_LIST:
            raise RuleError(f"repeating a list of {len(a)} {b} times makes more than {MAX_LIST} items")
        if isinstance(a, str) and isinstance(b, int) and len(a) * b > MAX_STRING:
            raise RuleError(f"repeating a string of {len(a)} {b} times makes more than {MAX_STRING} characters")
        return _bounded(a * b)

    def divide(a, b):
        if b == 0:
            raise RuleError("division by zero")
        return a // b

    def modulo(a, b):
        if b == 0:
            raise RuleError("modulo by zero")
        return a % b

    return {"+": plus, "-": minus, "*": times, "/": divide, "%": modulo}[op]


class Compiler:
    """Turns the AST of a merged ruleset into closures, against a catalog of declarations."""

    def __init__(self, catalog: Catalog):
        self.cat = catalog
        self.scope: set[str] = set()
        # Block scoping of 'let': a 'let' of a name bound outside the current block makes a new
        # variable for the rest of the block, kept in the environment under another key.
        self.renames: dict[str, str] = {}
        self.block_names: list[set[str]] = [set()]
        self.loops: list = []
        self.counter = 0
        self.errors: list[CompileError] = []

    # ------------------------------------------------------------------ expressions
    def expr(self, node: ast.Expr) -> Expr:
        """The closure ``f(st, env) -> value`` of an expression."""
        method = getattr(self, "_e_" + type(node).__name__)
        return method(node)

    def _e_Literal(self, node):
        value = node.value
        return lambda st, env: value

    def _e_Name(self, node):
        name = node.name
        if name in self.scope:
            name = self.key(name)
            def local(st, env):
                try:
                    return env[name]
                except KeyError:
                    raise RuleError(f"'{name}' has no value here") from None
            return local
        return self.global_name(name, node.span)

    def global_name(self, name, span):
        cat = self.cat
        if name in cat.global_vars:
            return lambda st, env: st.global_values[name]
        if name in ("players", "seats"):
            players = cat.real_players if name == "players" else cat.players
            return lambda st, env: players
        if name in cat.constants:
            value = cat.constants[name]
            return lambda st, env: value
        pool = list(cat.constants) + list(cat.global_vars) + ["players", "seats"] + sorted(self.scope)
        hint = cat.suggest(name, pool)
        if hint is None and name in cat.attribute_names():
            hint = f"'{name}' belongs to each player, space or component: write x.{name}"
        raise CompileError(f"unknown name '{name}'", span, hint=hint)

    def _e_ListExpr(self, node):
        items = [self.expr(i) for i in node.items]
        return lambda st, env: tuple(f(st, env) for f in items)

    def _e_IfExpr(self, node):
        c, a, b = self.expr(node.condition), self.expr(node.then), self.expr(node.otherwise)
        return lambda st, env: a(st, env) if c(st, env) else b(st, env)

    def _e_UnaryOp(self, node):
        f = self.expr(node.operand)
        if node.op == "not":
            return lambda st, env: not f(st, env)
        return lambda st, env: _negated(f(st, env))

    def _e_BinaryOp(self, node):
        op = node.op
        a, b = self.expr(node.left), self.expr(node.right)
        if op == "and":
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            return lambda st, env: a(st, env) or b(st, env)
        if op in ("==", "!=") and _is_none_literal(node.right):
            return (lambda st, env: a(st, env) is None) if op == "==" else (lambda st, env: a(st, env) is not None)
        if op == "==":
            return lambda st, env: _eq(a(st, env), b(st, env))
        if op == "!=":
            return lambda st, env: not _eq(a(st, env), b(st, env))
        if op == "in":
            return lambda st, env: a(st, env) in as_list(st, b(st, env))
        if op == "not in":
            return lambda st, env: a(st, env) not in as_list(st, b(st, env))
        if op == "..":
            return lambda st, env: _inclusive_range(st, a(st, env), b(st, env))
        if op in _ORDER:
            return self._ordering_binary(_ORDER[op], _ORDER_OF_RULES[op], a, b, op)
        fn = _arith(op)
        if op in ("+", "*"):
            return self._building_binary(fn, a, b, op)
        return self._checked_binary(fn, a, b, op)

    @staticmethod
    def _building_binary(fn, a, b, op):
        """``+`` or ``*``, which may build a list or a string: its size is charged."""
        def run(st, env):
            x, y = a(st, env), b(st, env)
            try:
                result = fn(x, y)
            except TypeError:
                raise RuleError(f"cannot apply '{op}' to {kind_of(x)} and {kind_of(y)}") from None
            if type(result) is tuple and len(result) > FREE_WORK:
                st.charge(len(result))
            elif type(result) is str and len(result) > 8 * FREE_WORK:
                st.charge(len(result) // 8)
            return result
        return run

    @staticmethod
    def _ordering_binary(fn, of_rules, a, b, op):
        """``<``, ``<=``, ``>`` or ``>=``: numbers and strings as Python compares them, other
        values of the rules (players, enum values...) in their order (``less``)."""
        def run(st, env):
            x, y = a(st, env), b(st, env)
            if type(x) is not int:
                key = ORDER_KEYS.get(type(x))
                if key is not None and type(y) is type(x):  # two players, two enum values...
                    return fn(key(x), key(y))
            try:
                return fn(x, y)
            except TypeError:
                pass
            try:
                return of_rules(x, y)
            except TypeError:
                raise RuleError(f"cannot apply '{op}' to {kind_of(x)} and {kind_of(y)}") from None
        return run

    @staticmethod
    def _checked_binary(fn, a, b, op):
        def run(st, env):
            x, y = a(st, env), b(st, env)
            try:
                return fn(x, y)
            except TypeError:
                raise RuleError(f"cannot apply '{op}' to {kind_of(x)} and {kind_of(y)}") from None
        return run

    def _e_Attribute(self, node):
        target = node.target
        if isinstance(target, ast.Name) and target.name not in self.scope and target.name in self.cat.enums:
            enum = self.cat.enums[target.name]
            value = next((v for v in enum.values if v.name == node.name), None)
            if value is None:
                raise CompileError(f"enum '{enum.name}' has no value '{node.name}'", node.span, "E103")
            return lambda st, env: value
        local = self.key(target.name) if isinstance(target, ast.Name) and target.name in self.scope else None
        return self.cat.attribute_getter(self.expr(target), node.name, node.span, local)

    def _e_Index(self, node):
        t, i = self.expr(node.target), self.expr(node.index)

        def run(st, env):
            container, key = t(st, env), i(st, env)
            if isinstance(container, dict):
                return _entry(container, key)
            items = sequence(st, container)
            if not isinstance(key, int) or not -len(items) <= key < len(items):
                raise RuleError(f"index {key} is out of range for a list of {len(items)}")
            return items[key]
        return run

    def _e_Comprehension(self, node):
        element, compiled = self._in_clauses(node.clauses, lambda: self.expr(node.element))
        loop = _clause_loop(compiled)
        return lambda st, env: tuple(loop(st, env, element))

    def _in_clauses(self, clauses, build):
        """Compile the clauses, then ``build()`` with their variables in scope."""
        saved, saved_renames = set(self.scope), dict(self.renames)
        compiled = []
        for c in clauses:
            source = self.expr(c.source)
            self.renames.pop(c.var, None)
            self.scope.add(c.var)
            cond = self.expr(c.condition) if c.condition is not None else None
            compiled.append((c.var, source, cond))
        result = build()
        self.scope, self.renames = saved, saved_renames
        return result, compiled

    def _generator(self, gen: ast.Generator):
        """(items(st, env) -> iterator of (element, key)) for a generator argument."""
        (element, key), compiled = self._in_clauses(gen.clauses, lambda: (
            self.expr(gen.element), self.expr(gen.key) if gen.key is not None else None))
        loop = _clause_loop(compiled)
        if key is None:
            return (lambda st, env: loop(st, env, element)), None, gen.descending

        def both(st, env):
            return element(st, env), key(st, env)
        return (lambda st, env: loop(st, env, both)), key, gen.descending

    def _e_Generator(self, node):
        raise CompileError("a generator ('x for x in ...') is only allowed as a function argument",
                           node.span, "E202")

    def _e_KeywordArg(self, node):
        raise CompileError(f"keyword argument '{node.name}:' is only allowed in a component constructor",
                           node.span, "E201")

    def _e_Call(self, node):
        name = node.function
        if name in self.cat.component_types:
            return self._constructor(node)
        if name in self.cat.functions:
            return self._function_call(node)
        if name in AGGREGATES:
            return self._aggregate(node)
        if name in self.cat.load_time_functions:
            return self._load_time_call(node)
        if name not in BUILTINS:
            raise CompileError(f"unknown function '{name}'", node.span, hint=self.cat.suggest(name))
        fn, (low, high) = BUILTINS[name], arity(name)
        if not low <= len(node.args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise CompileError(f"{name}() takes {want} arguments, got {len(node.args)}", node.span, "E201")
        args = [self.expr(a) for a in node.args]
        constants = self._constant_values(node.args) if name in BOARD_QUERIES else None
        if constants is not None:
            return _once_per_game(fn, constants)
        if name == "top" and len(args) == 1:
            return _top(args[0])
        if len(args) == 1:
            (a,) = args
            return lambda st, env: fn(st, a(st, env))
        if len(args) == 2:
            a, b = args
            return lambda st, env: fn(st, a(st, env), b(st, env))
        return lambda st, env: fn(st, *[f(st, env) for f in args])

    def _constant_values(self, nodes):
        """The values of ``nodes`` if each is a constant (a literal, or a name of the game's
        constants: a board, an enum value...), else None."""
        values: list[Value] = []
        for node in nodes:
            if isinstance(node, ast.Literal):
                values.append(node.value)
            elif (isinstance(node, ast.Name) and node.name not in self.scope and node.name not in self.cat.global_vars
                  and node.name not in ("players", "seats") and node.name in self.cat.constants):
                values.append(self.cat.constants[node.name])
            else:
                return None
        return values

    def _function_call(self, node):
        """A call of a function of the ruleset: its body runs in an environment of its own
        (its parameters, and the depth of calls in ``$depth``), charged CALL_WORK items of work."""
        name = node.function
        decl = self.cat.functions[name]
        if len(node.args) != len(decl.params):
            raise CompileError(f"function '{name}' takes {_count(len(decl.params), 'argument')}, "
                               f"got {len(node.args)}", node.span, "E201")
        args = [self.expr(a) for a in node.args]
        params = [p.name for p in decl.params]
        bodies = self.cat.function_bodies
        if name not in bodies:
            bodies[name] = _being_lowered   # a recursive call finds the real body when it runs
            bodies[name] = self._function_body(decl)

        def call(st, env):
            depth = env.get(_DEPTH, 0) + 1
            if depth > MAX_FUNCTION_DEPTH:
                raise RuleError(f"functions call each other more than {MAX_FUNCTION_DEPTH} deep", "E603")
            st.charge(CALL_WORK)
            local = dict(zip(params, [a(st, env) for a in args], strict=True))
            local[_DEPTH] = depth
            try:
                return bodies[name](st, local)
            except RecursionError:
                raise RuleError(f"functions call each other too deep ({depth} calls)", "E603") from None
        return call

    def _function_body(self, decl):
        saved = self.scope, self.renames
        self.scope, self.renames = {p.name for p in decl.params}, {}
        try:
            return self.expr(decl.body)
        finally:
            self.scope, self.renames = saved

    def _load_time_call(self, node):
        fn = self.cat.load_time_functions[node.function]
        args = [self.expr(a) for a in node.args if not isinstance(a, ast.KeywordArg)]
        kwargs = {a.name: self.expr(a.value) for a in node.args if isinstance(a, ast.KeywordArg)}
        return lambda st, env: fn(*[f(st, env) for f in args], **{k: f(st, env) for k, f in kwargs.items()})

    def _constructor(self, node):
        decl = self.cat.component_types[node.function]
        fields = {f.name for f in decl.fields}
        given = {}
        for arg in node.args:
            if not isinstance(arg, ast.KeywordArg):
                raise CompileError(f"{node.function}(...) takes named fields, like {node.function}(name: value)",
                                   arg.span, "E201")
            if arg.name not in fields:
                raise CompileError(f"component '{node.function}' has no field '{arg.name}'", arg.span, "E103",
                                   hint=self.cat.suggest(arg.name, fields))
            given[arg.name] = self.expr(arg.value)
        missing = fields - set(given)
        if missing:
            raise CompileError(f"{node.function}(...) is missing {', '.join(sorted(missing))}", node.span, "E201")
        type_name = node.function
        return lambda st, env: ComponentSpec(type_name, {k: f(st, env) for k, f in given.items()})

    def _aggregate(self, node):
        name = node.function
        gen = node.args[0] if len(node.args) == 1 else None
        if name in ("any", "all") and isinstance(gen, ast.Generator) and len(gen.clauses) == 1 and gen.key is None:
            return self._short_circuit(name == "any", gen)
        if name == "first" and isinstance(gen, ast.Generator) and len(gen.clauses) == 1 and gen.key is None:
            return self._first(gen)
        if len(node.args) == 1 and isinstance(node.args[0], ast.Generator):
            items, key, desc = self._generator(node.args[0])
        elif name in ("min", "max") and len(node.args) == 2:
            a, b = self.expr(node.args[0]), self.expr(node.args[1])
            fn = min if name == "min" else max
            return lambda st, env: _checked(name, fn, (a(st, env), b(st, env)), fallback=_by_order_key(fn))
        elif len(node.args) == 1:
            source = self.expr(node.args[0])
            items, key, desc = (lambda st, env: as_list(st, source(st, env))), None, False
        else:
            raise CompileError(f"{name}() takes one list or generator", node.span, "E201")
        return _AGGREGATE_BUILDERS[name](items, key is not None, desc)

    def _short_circuit(self, want_any, gen):
        """any()/all() over one clause, stopping at the first element that decides."""
        element, ((var, source, cond),) = self._in_clauses(gen.clauses, lambda: self.expr(gen.element))

        def run(st, env):
            old = env.get(var, _MISSING)
            result = not want_any
            items = as_list(st, source(st, env))
            if 0 < len(items) <= FREE_WORK:
                st.charge(len(items))
            for item in items:
                env[var] = item
                if cond is not None and not cond(st, env):
                    continue
                if bool(element(st, env)) is want_any:
                    result = want_any
                    break
            if old is _MISSING:  # _restore, inlined: this runs very often
                env.pop(var, None)
            else:
                env[var] = old
            return result
        return run

    def _first(self, gen):
        """first() over one clause, stopping at the first item that passes the condition."""
        element, ((var, source, cond),) = self._in_clauses(gen.clauses, lambda: self.expr(gen.element))

        def run(st, env):
            old = env.get(var, _MISSING)
            result = None
            items = as_list(st, source(st, env))
            if 0 < len(items) <= FREE_WORK:
                st.charge(len(items))
            for item in items:
                env[var] = item
                if cond is None or cond(st, env):
                    result = element(st, env)
                    break
            _restore(env, var, old)
            return result
        return run

    # ------------------------------------------------------------------ statements
    def procedure(self, name: str, params: tuple[str, ...], body: ast.Block) -> Code:
        """The lowered code of a procedure or phase whose parameters are ``params``."""
        code = Code(name)
        self.scope = set(params)
        self.renames, self.block_names = {}, [set()]
        self.loops = []
        self.block(body, code)
        return code

    def block(self, block: ast.Block, code: Code):
        saved = dict(self.renames)
        self.block_names.append(set())
        for stmt in block.statements:
            self.statement(stmt, code)
        self.block_names.pop()
        self.renames = saved

    def key(self, name: str) -> str:
        """The environment key of local ``name`` here."""
        return self.renames.get(name, name)

    def bind_let(self, name: str, span) -> str:
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
    def emit(code: Code, op, span) -> int:
        code.ops.append(op)
        code.spans.append(span)
        return len(code.ops) - 1

    def emit_step(self, code, action, span):
        """An operation that does ``action(st, env)`` and moves on."""
        def op(st, fr):
            action(st, fr.env)
            fr.pc += 1
        return self.emit(code, op, span)

    def emit_jump(self, code, span, target=None) -> Box:
        """A jump whose target may be patched later: returns a one-item list holding it."""
        box: Box = [target]

        def op(st, fr):
            fr.pc = box[0]
        self.emit(code, op, span)
        return box

    def _s_Let(self, node, code):
        value = self.expr(node.value)
        name = self.bind_let(node.name, node.span)

        def let(st, env):
            env[name] = value(st, env)
        self.emit_step(code, let, node.span)

    def _s_Assign(self, node, code):
        value = self.expr(node.value)
        setter = self.assignment(node.target, node.op, value)
        self.emit_step(code, setter, node.span)

    def assignment(self, target, op, value):
        read, write = self.access(target)
        if op == "=":
            return lambda st, env: write(st, env, value(st, env))
        sign = 1 if op == "+=" else -1

        def update(st, env):
            old, delta = read(st, env), value(st, env)
            if not isinstance(old, int) or not isinstance(delta, int):
                raise RuleError(f"'{op}' needs numbers, got {kind_of(old)} and {kind_of(delta)}")
            write(st, env, _bounded(old + sign * delta))
        return update

    def access(self, target):
        """(read, write) of an assignable place: a local, a global, an attribute, or an item
        of a list held by one of those (``piles[i]``: the list is replaced by a new one)."""
        if isinstance(target, ast.Index):
            read_list, write_list = self.access(target.target)
            index = self.expr(target.index)

            def position(st, env):
                items, i = read_list(st, env), index(st, env)
                if not isinstance(items, tuple):
                    raise RuleError(f"only an item of a list can be assigned, not of {kind_of(items)}")
                if type(i) is not int or not -len(items) <= i < len(items):
                    raise RuleError(f"index {i} is out of range for a list of {len(items)}")
                return items, i % len(items)

            def read_item(st, env):
                items, i = position(st, env)
                return items[i]

            def write_item(st, env, new):
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

    def _s_If(self, node, code):
        exits: list[Box] = []
        for cond, body in node.branches:
            test = self.expr(cond)
            box: Box = [None]

            def branch(st, fr, test=test, box=box):
                fr.pc = fr.pc + 1 if test(st, fr.env) else box[0]
            self.emit(code, branch, cond.span)
            self.block(body, code)
            exits.append(self.emit_jump(code, node.span))
            box[0] = len(code.ops)
        if node.otherwise is not None:
            self.block(node.otherwise, code)
        for box in exits:
            box[0] = len(code.ops)

    def _loop(self, code, continue_target):
        self.loops.append({"breaks": [], "continues": [], "continue_target": continue_target})
        return self.loops[-1]

    def _close_loop(self, code, loop, continue_target=None, break_target=None):
        end = len(code.ops) if break_target is None else break_target
        for box in loop["breaks"]:
            box[0] = end
        for box in loop["continues"]:
            box[0] = continue_target if continue_target is not None else loop["continue_target"]
        self.loops.pop()

    def _s_For(self, node, code):
        source, var = self.expr(node.source), node.var
        self.counter += 1
        it = f"$for{self.counter}"

        def start(st, env):
            env[it] = (as_list(st, source(st, env)), 0)
        self.emit_step(code, start, node.span)
        end_box: Box = [None]

        def step(st, fr):
            env = fr.env
            seq, i = env[it]
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

        def drop(st, env):
            env.pop(it, None)
        end_box[0] = self.emit_step(code, drop, node.span)
        self._close_loop(code, loop, break_target=end_box[0])

    def _s_While(self, node, code):
        test = self.expr(node.condition)
        end_box: Box = [None]

        def check(st, fr):
            fr.pc = fr.pc + 1 if test(st, fr.env) else end_box[0]
        head = self.emit(code, check, node.span)
        loop = self._loop(code, head)
        self.block(node.body, code)
        self.emit_jump(code, node.span, head)
        end_box[0] = len(code.ops)
        self._close_loop(code, loop)

    def _s_Repeat(self, node, code):
        head = len(code.ops)
        loop = self._loop(code, head)
        self.block(node.body, code)
        if node.until is None:
            self.emit_jump(code, node.span, head)
            self._close_loop(code, loop)
            return
        test = self.expr(node.until)

        def check(st, fr):
            fr.pc = fr.pc + 1 if test(st, fr.env) else head
        tail = self.emit(code, check, node.until.span)
        self._close_loop(code, loop, continue_target=tail)

    def _s_Break(self, node, code):
        if not self.loops:
            raise CompileError("'break' outside a loop", node.span, "E204")
        self.loops[-1]["breaks"].append(self.emit_jump(code, node.span))

    def _s_Continue(self, node, code):
        if not self.loops:
            raise CompileError("'continue' outside a loop", node.span, "E204")
        self.loops[-1]["continues"].append(self.emit_jump(code, node.span))

    # ---- decisions and chance ----
    def _s_Choose(self, node, code):
        source = self.expr(node.source)
        if node.chooser is None:
            raise CompileError("a choice needs 'by PLAYER' to say who chooses", node.span, "E204")
        chooser = self.expr(node.chooser)
        prompt = self.prompt(node.prompt, f"choose {node.var} in {_source_text(node.source)}")
        span = node.span
        asks = "number range" if isinstance(node.source, ast.BinaryOp) and node.source.op == ".." else "choice"
        var, encode = self.bind_plain(node.var), self.cat.encode
        otherwise_box: Box = [None]
        has_otherwise = node.otherwise is not None

        def resume(st, fr, value, player):
            fr.env[var] = value
            fr.pc += 1

        def choose(st, fr):
            options = _unique(as_list(st, source(st, fr.env)))
            if not options:
                if has_otherwise:
                    fr.pc = otherwise_box[0]
                    return
                raise RuleError("this choice offers no option", "E604")
            player = _chooser(st, chooser(st, fr.env))
            ids = tuple(encode(o) for o in options)
            env = fr.env
            st.pending = Decision("choose", (player.index,), options, ids, resume,
                                  prompt_of=lambda p: prompt(st, env, p), span=span, asks=asks)
        code.stops.add(self.emit(code, choose, node.span))
        if has_otherwise:
            skip = self.emit_jump(code, node.span)
            otherwise_box[0] = len(code.ops)
            self.block(node.otherwise, code)
            skip[0] = len(code.ops)

    def _s_Menu(self, node, code):
        chooser = self.expr(node.chooser)
        prompt = self.prompt(node.prompt, "choose one")
        span = node.span
        labels = [self.cat.label_id(o.label) for o in node.options]
        conds = [self.expr(o.condition) if o.condition is not None else None for o in node.options]
        targets: list[int] = []
        exits: list[Box] = []
        names = tuple(o.label for o in node.options)

        def resume(st, fr, value, player):
            fr.pc = targets[names.index(value)]

        def menu(st, fr):
            env = fr.env
            open_ = [i for i, c in enumerate(conds) if c is None or c(st, env)]
            if not open_:
                raise RuleError("no option of this choice is available", "E604")
            player = _chooser(st, chooser(st, env))
            st.pending = Decision("menu", (player.index,), tuple(names[i] for i in open_),
                                  tuple(labels[i] for i in open_), resume, prompt_of=lambda p: prompt(st, env, p),
                                  span=span)
        code.stops.add(self.emit(code, menu, node.span))
        for option in node.options:
            targets.append(len(code.ops))
            self.block(option.body, code)
            exits.append(self.emit_jump(code, option.span))
        end = len(code.ops)
        for box in exits:
            box[0] = end

    def _s_Simultaneous(self, node, code):
        players, pvar, var = self.expr(node.players), node.player_var, node.var
        outer = pvar in self.scope
        self.scope.add(pvar)
        source = self.expr(node.source)
        prompt = self.prompt(node.prompt, f"choose {var} in {_source_text(node.source)} (everyone at once)")
        if not outer:
            self.scope.discard(pvar)  # the player variable is only bound in the options' list
        self.bind_plain(var)
        encode = self.cat.encode
        self.counter += 1
        picks_key = f"$picks{self.counter}"

        def options_for(st, env, player):
            return _bound(env, pvar, player, lambda: _unique(as_list(st, source(st, env))))

        span = node.span

        def waiting_for(st, env, group, picks, per_player):
            """The decision of the players of ``group`` who have not picked yet, whose
            options are ``per_player``. A pick changes neither the state nor what the others
            may pick (their options read the state, not the picks): the next decision keeps
            their options, as running the operation again would compute them."""
            waiting = tuple(p.index for p in group if p not in picks)
            chosen = tuple(sorted(p.index for p in group if p in picks))

            def resume(st, fr, value, player_index):
                picks_now = dict(fr.env.get(picks_key, {}))
                picks_now[st.game.catalog.players[player_index]] = value
                fr.env[picks_key] = picks_now
                if any(p not in picks_now for p in group):  # others to wait for: the same options
                    rest = {i: o for i, o in per_player.items() if i != player_index}
                    st.pending = waiting_for(st, fr.env, group, picks_now, rest)
                # else fr.pc stays: the operation runs again and finishes

            def prompt_of(index):
                return _bound(env, pvar, st.game.catalog.players[index], lambda: prompt(st, env, index))
            return Decision("simultaneous", waiting, (), (), resume,
                            per_player=per_player, chosen=chosen, prompt_of=prompt_of, span=span)

        def simultaneous(st, fr):
            env = fr.env
            group = [_chooser(st, p, "a simultaneous choice") for p in as_list(st, players(st, env))]
            picks = env.get(picks_key, {})
            waiting = [p for p in group if p not in picks]
            if not waiting:
                env[var] = {p: picks[p] for p in group}
                env.pop(picks_key, None)
                fr.pc += 1
                return
            per_player = {}
            for p in waiting:
                options = options_for(st, env, p)
                if not options:
                    raise RuleError(f"{p} has no option in this simultaneous choice", "E604")
                per_player[p.index] = (options, tuple(encode(o) for o in options))
            st.pending = waiting_for(st, env, group, picks, per_player)
        code.stops.add(self.emit(code, simultaneous, span))

    def prompt(self, node, default):
        """``f(st, env, player) -> str``: the text of a choice's prompt, its placeholders
        filled in (each value at most PROMPT_VALUE characters), or ``default``."""
        if node is None:
            return lambda st, env, player: default
        pieces = PLACEHOLDER.split(node.text)   # text, placeholder, text, ...
        texts = pieces[0::2]
        parts = [self.expr(part) for part in node.parts]

        def render(st, env, player):
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

    def _chance(self, code, span, var, outcomes_of, asked):
        """A chance event binding ``var`` ('let x = roll d', 'let x = random list'): sampled
        from the state's RNG, or exposed."""
        var = self.bind_let(var, span)
        encode = self.cat.encode

        def resume(st, fr, value, player):
            fr.env[var] = value
            fr.pc += 1
            if st.event_log is not None:
                st.event_log.append(chance_event(st, asked, value))

        def chance(st, fr):
            values = outcomes_of(st, fr.env)
            if not values:
                raise RuleError("a random pick from an empty list")
            if st.explicit_chance:
                options, probs = _distribution(st, values)
                if len(options) > 1:
                    st.pending = Decision("chance", (CHANCE,), options, tuple(encode(o) for o in options), resume,
                                          probs, prompt_of=lambda p: asked, span=span)
                    return
                value = options[0]  # a single outcome is no chance node
            else:
                st.rng, i = rng.below(st.rng, len(values))
                value = values[i]
            resume(st, fr, value, CHANCE)
        code.stops.add(self.emit(code, chance, span))

    def _s_Roll(self, node, code):
        if node.die not in self.cat.dice:
            raise CompileError(f"unknown die '{node.die}'", node.span, hint=self.cat.suggest(node.die, self.cat.dice))
        faces = self.cat.dice[node.die]
        self._chance(code, node.span, node.name, lambda st, env: faces, f"roll {node.die}")

    def _s_RandomPick(self, node, code):
        source = self.expr(node.source)
        self._chance(code, node.span, node.name, lambda st, env: as_list(st, source(st, env)),
                     f"random {node.name} in {_source_text(node.source)}")

    def _s_Shuffle(self, node, code):
        target = self.expr(node.target)
        write = None
        if isinstance(node.target, (ast.Name, ast.Attribute)):
            try:
                write = self.assignment(node.target, "=", lambda st, env: env["$shuffled"])
            except CompileError:
                write = None
        self.counter += 1
        key = f"$shuffle{self.counter}"
        encode = self.cat.encode
        what = _source_text(node.target)
        span, shuffled = node.span, f"shuffle {what}: the item at each place"

        def resume(st, fr, value, player):
            items, i = fr.env[key]
            j = _position(items, value)
            items = list(items)
            items[i], items[j] = items[j], items[i]
            fr.env[key] = (tuple(items), i - 1)

        def shuffle(st, fr):
            env = fr.env
            if key not in env:
                value = target(st, env)
                if isinstance(value, ZoneRef):
                    items = tuple(st.zones[value.slot])
                elif isinstance(value, tuple) and write is not None:
                    items = value
                else:
                    raise RuleError(f"can only shuffle a zone or a list variable, not {kind_of(value)}")
                env[key] = (items, len(items) - 1)
            items, i = env[key]
            if i > 0 and st.explicit_chance:
                # Equal items (a list [1, 1, 2]), and interchangeable copies of a component, are
                # one outcome with their summed probability.
                options, probs = _distribution(st, items[: i + 1])
                if len(options) > 1:
                    st.pending = Decision("chance", (CHANCE,), options, tuple(encode(o) for o in options), resume,
                                          probs, prompt_of=lambda p: shuffled, span=span)
                    return
                i = 0  # the items left are interchangeable: their order is decided
            order = list(items)
            state = st.rng
            while i > 0:
                state, j = rng.below(state, i + 1)
                order[i], order[j] = order[j], order[i]
                i -= 1
            st.rng = state
            del env[key]
            value = target(st, env)
            if st.event_log is not None:
                st.event_log.append(("shuffle", zone_key(value) if isinstance(value, ZoneRef) else what))
            if isinstance(value, ZoneRef):
                st.zones[value.slot][:] = order
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
    def _s_Move(self, node, code):
        what, to = self.expr(node.what), self.expr(node.to)

        def move(st, env):
            destination = to(st, env)
            if not isinstance(destination, ZoneRef):
                raise RuleError(f"'move ... to' needs a zone, got {kind_of(destination)}")
            value = what(st, env)
            if isinstance(value, Component):
                st.move(value, destination.slot)
            elif value is None:
                raise RuleError("nothing to move (the value is none)")
            elif type(value) is ZoneRef:  # a whole zone, bottom first: as the loop below would
                size = len(st.zones[value.slot])
                if size > FREE_WORK:
                    st.charge(size)
                st.move_all(value.slot, destination.slot)
            else:
                for c in as_list(st, value):
                    if not isinstance(c, Component):
                        raise RuleError(f"can only move components, not {kind_of(c)}")
                    st.move(c, destination.slot)
        self.emit_step(code, move, node.span)

    def _supply(self, name, span):
        """The supply a 'gain'/'pay' names: a supply, or a variable holding one."""
        if name in self.cat.supplies and name not in self.scope:
            return lambda st, env: name
        if name in self.scope or name in self.cat.global_vars:
            value = self._e_Name(ast.Name(span, name))

            def dynamic(st, env):
                supply = value(st, env)
                if not (isinstance(supply, Ref) and supply.kind == "supply"):
                    raise RuleError(f"'{name}' should hold a supply, not a {kind_of(supply)}")
                return supply.name
            return dynamic
        raise CompileError(f"unknown supply '{name}'", span, hint=self.cat.suggest(name, self.cat.supplies))

    def _s_Gain(self, node, code):
        supply = self._supply(node.supply, node.span)
        amount, who, slot = self.expr(node.amount), self.expr(node.player), self.cat.holder_slot

        def gain(st, env):
            st.transfer(supply(st, env), 0, slot(who(st, env)), _amount(amount(st, env)))
        self.emit_step(code, gain, node.span)

    def _s_Pay(self, node, code):
        supply = self._supply(node.supply, node.span)
        amount, payer, slot = self.expr(node.amount), self.expr(node.payer), self.cat.holder_slot
        payee = self.expr(node.payee) if node.payee is not None else None

        def pay(st, env):
            to_slot = slot(payee(st, env)) if payee is not None else 0
            st.transfer(supply(st, env), slot(payer(st, env)), to_slot, _amount(amount(st, env)))
        self.emit_step(code, pay, node.span)

    def _call_frame(self, node, code, ret_var):
        proc = self.cat.procedure_decl(node.procedure, node.span)
        if len(proc.params) != len(node.args):
            raise CompileError(f"procedure '{proc.name}' takes {len(proc.params)} arguments, got {len(node.args)}",
                               node.span, "E201")
        args = [self.expr(a) for a in node.args]
        names = [p.name for p in proc.params]
        target = node.procedure
        if ret_var:
            ret_var = self.bind_let(ret_var, node.span)

        def call(st, fr):
            env = {n: f(st, fr.env) for n, f in zip(names, args, strict=True)}
            st.push(target, env, ret_var)  # first: a call too deep is reported at the call
            fr.pc += 1
        self.emit(code, call, node.span)

    def _s_CallStmt(self, node, code):
        self._call_frame(node, code, None)

    def _s_CallLet(self, node, code):
        self._call_frame(node, code, node.name)

    def _s_Return(self, node, code):
        value = self.expr(node.value) if node.value is not None else (lambda st, env: None)

        def ret(st, fr):
            st.pop(value(st, fr.env))
        self.emit(code, ret, node.span)

    def _s_Next(self, node, code):
        if node.phase not in self.cat.phases:
            raise CompileError(f"unknown phase '{node.phase}'", node.span, "E104",
                               hint=self.cat.suggest(node.phase, self.cat.phases))
        phase = node.phase

        def next_phase(st, fr):
            st.enter_phase(phase)
        self.emit(code, next_phase, node.span)

    def _s_EndGame(self, node, code):
        def end(st, fr):
            st.end_game()
        self.emit(code, end, node.span)

    def _s_Log(self, node, code):
        message = self._log_message(node.message)
        audience = self.expr(node.audience) if node.audience is not None else None

        def log(st, env):
            text = message(st, env)
            players = None
            if st.event_log is not None:
                text = str(text)  # the event holds the text
            if audience is None:
                st.log_lines.append(text)
            else:
                players = _audience(st, audience(st, env))
                st.private_lines.append((len(st.log_lines), players, text))
            if st.event_log is not None:
                st.event_log.append(("log", text, players))
        self.emit_step(code, log, node.span)

    def _log_message(self, node):
        """``f(st, env) -> str | LogLine``: the line a 'log' statement writes, its text built
        only when the log is read (``LogLine``) when it is known to be short. A message
        ``"text" + a + b...`` keeps its values; each '+' joins texts as it would have (the
        same line, the same charges and bounds: a line is kept for later only while its text
        stays within LAZY_TEXT characters, which '+' does not charge)."""
        operands, whole = [], node
        while isinstance(node, ast.BinaryOp) and node.op == "+":
            operands.append(node.right)
            node = node.left
        if not operands or not (isinstance(node, ast.Literal) and isinstance(node.value, str)):
            message = self.expr(whole)
            return lambda st, env: _lazy_text(message(st, env), "")
        first = node.value
        values = [self.expr(operand) for operand in reversed(operands)]

        def line(st, env):
            pieces: list[Value] = [first]
            room = LAZY_TEXT - len(first)
            text = None
            for value_of in values:
                value = value_of(st, env)
                if text is None:
                    size = _shown_size(value, room)
                    if size >= 0:
                        room -= size
                        pieces.append(value)
                        continue
                    text = str(LogLine(tuple(pieces)))  # what the '+' so far made, uncharged
                text = _plus(text, value)
                if len(text) > LAZY_TEXT:
                    st.charge(len(text) // 8)
            return LogLine(tuple(pieces)) if text is None else _log_text(text, "")
        return line

    def _s_Reveal(self, node, code):
        value, audience = self.expr(node.value), self.expr(node.audience)

        def reveal(st, env):
            shown = value(st, env)
            text = _lazy_text(shown, "you see ")
            players = _audience(st, audience(st, env))
            if st.event_log is not None:
                text = str(text)
            st.private_lines.append((len(st.log_lines), players, text))
            st.revealed(shown, players)
            if st.event_log is not None:
                st.event_log.append(("log", text, players))
        self.emit_step(code, reveal, node.span)


LAZY_TEXT = 8 * FREE_WORK  # a text up to this long is joined by '+' without a charge
_plus = _arith("+")
_SHOWN_AS_STR = frozenset({Player, EnumValue, EnumType, Component, Space, ZoneRef, Ref})  # display(v) is str(v)


def _shown_size(value, room: int) -> int:
    """At least the length of ``display(value)`` when that is at most ``room``, else -1:
    found without building the text of most values."""
    kind = type(value)
    if kind is str:
        size = len(value)
    elif kind is int:
        size = 20 if -MAX_INT <= value <= MAX_INT else room + 1
    elif kind is bool or value is None:
        size = 5
    elif kind in _SHOWN_AS_STR:
        size = len(str(value))
    elif kind is tuple:
        size = 2 * len(value) or 2  # the brackets and the separators
        for item in value:
            if size > room:
                return -1
            more = _shown_size(item, room - size)
            if more < 0:
                return -1
            size += more
    else:
        return -1
    return size if size <= room else -1


def _lazy_text(value, prefix: str):
    """``_log_text(value, prefix)``, kept as a ``LogLine`` to build later when the text is
    known to be short enough."""
    if type(value) is not str and _shown_size(value, MAX_STRING - len(prefix)) >= 0:
        return LogLine((prefix, value))
    return _log_text(value, prefix)


class _Recording:
    """The state as a query computed once sees it: the work charged is charged to the state
    and recorded, to be charged again each time the query's value is used."""

    __slots__ = ("st", "work")

    def __init__(self, st):
        self.st, self.work = st, 0

    @property
    def game(self):
        return self.st.game

    def charge(self, work: int) -> None:
        self.work += work
        self.st.charge(work)


def _once_per_game(fn, args):
    """A call of the builtin ``fn`` (a board query: no state read) with the constant
    ``args``, computed at its first call in this game (a Game lowers its own code) and kept:
    each later call charges the work the first did, and gives the same value."""
    found: list[tuple[Value, int]] = []

    def call(st, env):
        if found:
            value, work = found[0]
            if work:
                st.charge(work)
            return value
        recording = _Recording(st)
        value = fn(recording, *args)  # an error (or too much work) keeps nothing: raised again next time
        found.append((value, recording.work))
        return value
    return call


def _log_text(value, prefix: str) -> str:
    """A value as a line of the log (at most MAX_STRING characters)."""
    text = value if isinstance(value, str) else display_within(value, MAX_STRING - len(prefix))
    if text is None or len(text) + len(prefix) > MAX_STRING:
        raise RuleError(f"this {kind_of(value)} as text makes more than {MAX_STRING} characters to log")
    return prefix + text


def _audience(st, value) -> tuple[int, ...]:
    """The players a private line is for: a player, or a list (or zone) of players."""
    indices: set[int] = set()
    for p in (value,) if isinstance(value, Player) else as_list(st, value):
        if not isinstance(p, Player):
            raise RuleError(f"'to' needs a player or a list of players, not {kind_of(p)}")
        indices.add(p.index)
    return tuple(sorted(indices))


def _source_text(expr) -> str:
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


def _clause_loop(compiled):
    """A function running nested ``for ... in ... if ...`` clauses, returning a list of the
    element's values (one flat loop for the common single clause)."""
    if len(compiled) == 1:
        ((var, source, cond),) = compiled

        def single(st, env, element):
            old = env.get(var, _MISSING)
            out = []
            items = as_list(st, source(st, env))  # charged there when long
            if 0 < len(items) <= FREE_WORK:  # short: charged here, as nested ones multiply
                st.charge(len(items))
            for item in items:
                env[var] = item
                if cond is None or cond(st, env):
                    out.append(element(st, env))
            _restore(env, var, old)
            return out
        return single
    last = len(compiled) - 1

    def nested(st, env, element, depth=0, out=None, visits=None):
        out = [] if out is None else out
        visits = [0] if visits is None else visits
        var, source, cond = compiled[depth]
        old = env.get(var, _MISSING)
        items = as_list(st, source(st, env))
        if 0 < len(items) <= FREE_WORK:
            st.charge(len(items))
        for item in items:
            visits[0] += 1
            if visits[0] > MAX_LIST * 10:
                raise RuleError(f"a comprehension went through more than {MAX_LIST * 10} items")
            env[var] = item
            if cond is not None and not cond(st, env):
                continue
            if depth < last:
                nested(st, env, element, depth + 1, out, visits)
            else:
                out.append(element(st, env))
        _restore(env, var, old)
        return out
    return nested


def _bound(env, var, value, compute):
    """``compute()`` with ``var`` bound to ``value`` in ``env``; a variable of the same name
    outside is kept."""
    old = env.get(var, _MISSING)
    env[var] = value
    try:
        return compute()
    finally:
        _restore(env, var, old)


def _restore(env, var, old):
    if old is _MISSING:
        env.pop(var, None)
    else:
        env[var] = old


def _position(items, value) -> int:
    """Where the outcome ``value`` (one of ``items`` itself) is among ``items``: found by
    identity, so that the copy picked, and a true apart from a 1, is the one moved."""
    for k, item in enumerate(items):
        if item is value:
            return k
    return items.index(value)


def _unique(items) -> tuple:
    seen, out = set(), []
    for item in items:
        key = item if isinstance(item, (int, str)) else id(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def _top(zone):
    """``top(zone)``: a zone's last component read in place (other lists: the builtin)."""
    top = BUILTINS["top"]

    def run(st, env):
        value = zone(st, env)
        if type(value) is ZoneRef:
            items = st.zones[value.slot]
            return items[-1] if items else None
        return top(st, value)
    return run


def _local_access(name):
    """(read, write) of the local variable ``name``."""
    def read(st, env):
        return env[name]

    def write(st, env, value):
        env[name] = value
    return read, write


def _global_access(name):
    """(read, write) of the global variable ``name``."""
    def read(st, env):
        return st.global_values[name]

    def write(st, env, value):
        st.global_values[name] = value
        if st.event_log is not None:
            st.event_log.append(("set", "global", name, -1, value, -1))
    return read, write


def _entry(mapping, key):
    """``mapping[key]``, where a missing or impossible key is the rules' error."""
    try:
        return mapping[key]
    except KeyError:
        raise RuleError(f"no entry for {key}") from None
    except TypeError:  # a map or a list holding one: it has no hash
        raise RuleError("a map, or a list holding one, cannot be a key") from None


def _negated(value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"cannot apply '-' to {kind_of(value)}")
    return -value


def _distribution(st, values):
    """The distinct outcomes (the first of each kind, in order) and the probability of each,
    for explicit chance. Values with the same outcome key (equal values, interchangeable
    copies of a component) are one outcome with their summed probability."""
    first: dict = {}
    counts: dict = {}
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


def _outcome_key(st, value):
    """What a chance outcome stands for: a value itself, a boolean apart from the numbers, and
    a component by what makes its copies interchangeable now (``_copy_key``)."""
    if isinstance(value, Component):
        return _copy_key(st, value)
    if isinstance(value, bool):
        return _BOOL, value
    return value


def _copy_key(st, c):
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


def _first(pair):
    return pair[0]


def _chooser(st, player, what="'by'") -> Player:
    """The player who makes a choice: a real player, never a dummy seat."""
    if not isinstance(player, Player):
        raise RuleError(f"{what} needs a player, got {kind_of(player)}")
    if player.index >= st.game.num_players:
        raise RuleError(f"{player} is a dummy seat and cannot choose: say who chooses for it with 'by'")
    return player


def _amount(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"an amount must be a number, got {kind_of(value)}")
    if value < 0:
        raise RuleError(f"an amount cannot be negative ({value})")
    return value


# ---- aggregates ----

def _checked(name, fn, values, keys=None, fallback=None):
    """``fn(values)``, where values of the rules that cannot be compared or added (a
    TypeError) are the rules' error; ``keys`` are what is compared, when not the values.
    ``fallback(values)`` is tried before giving up: the same, in the order of the rules
    (``less``), for values that Python does not order (players, enum values...)."""
    try:
        return fn(values)
    except TypeError:
        pass
    if fallback is not None:
        try:
            return fallback(values)
        except TypeError:
            pass
    kinds = " and ".join(sorted({kind_of(v) for v in (values if keys is None else keys)}))
    raise RuleError(f"{name}() cannot compare or add values of kind {kinds}") from None


def _by_order_key(fn):
    """``min`` or ``max`` in the order of the rules (``less``)."""
    return lambda values: fn(values, key=OrderKey)


def _values(items, keyed):
    """The elements (a sequence) of the items of an aggregate's argument."""
    if keyed:
        return lambda st, env: [e for e, _ in items(st, env)]
    return items


def _agg_apply(fn):
    """An aggregate that applies ``fn`` to the items (their elements, when keyed)."""
    def build(items, keyed, desc):
        vals = _values(items, keyed)
        return lambda st, env: fn(vals(st, env))
    return build


def _agg_sum(items, keyed, desc):
    vals = _values(items, keyed)
    return lambda st, env: _bounded(_checked("sum", sum, vals(st, env)))


def _count_present(values) -> int:
    """How many values are neither false nor none."""
    return sum(1 for v in values if v is not False and v is not None)


def _agg_extreme(name, fn):
    by_order = _by_order_key(fn)

    def build(items, keyed, desc):
        vals = _values(items, keyed)

        def run(st, env):
            values = vals(st, env)
            return _checked(name, fn, values, fallback=by_order) if values else None
        return run
    return build


def _agg_sorted(items, keyed, desc):
    if not keyed:
        def in_order(values):
            return sorted(values, reverse=desc)

        def in_rules_order(values):
            return sorted(values, key=OrderKey, reverse=desc)
        return lambda st, env: tuple(_checked("sorted", in_order, items(st, env), fallback=in_rules_order))

    def by_key(pairs):
        return [e for e, _ in sorted(pairs, key=lambda p: p[1], reverse=desc)]

    def by_key_in_rules_order(pairs):
        return [e for e, _ in sorted(pairs, key=lambda p: OrderKey(p[1]), reverse=desc)]

    def run(st, env):
        pairs = list(items(st, env))
        return tuple(_checked("sorted", by_key, pairs, [k for _, k in pairs], fallback=by_key_in_rules_order))
    return run


def _agg_best(name, sign):
    def best(pairs):
        chosen, chosen_key = None, None
        for e, k in pairs:
            if chosen_key is None or (k > chosen_key if sign > 0 else k < chosen_key):
                chosen, chosen_key = e, k
        return chosen

    def best_in_rules_order(pairs):
        chosen, chosen_key = None, None
        for e, k in pairs:
            if chosen_key is None or (less(chosen_key, k) if sign > 0 else less(k, chosen_key)):
                chosen, chosen_key = e, k
        return chosen

    def build(items, keyed, desc):
        if not keyed:
            raise CompileError(f"{name}() needs 'by KEY'", None, "E201")

        def run(st, env):
            pairs = list(items(st, env))
            return _checked(name, best, pairs, [k for _, k in pairs], fallback=best_in_rules_order)
        return run
    return build


def _agg_first(items, keyed, desc):
    vals = _values(items, keyed)
    return lambda st, env: next(iter(vals(st, env)), None)


_AGGREGATE_BUILDERS = {
    "sum": _agg_sum, "count": _agg_apply(_count_present), "any": _agg_apply(any), "all": _agg_apply(all),
    "min": _agg_extreme("min", min), "max": _agg_extreme("max", max), "sorted": _agg_sorted,
    "best": _agg_best("best", 1), "worst": _agg_best("worst", -1), "first": _agg_first,
}
