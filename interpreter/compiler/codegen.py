"""The compiler of expressions: the checked AST of an expression -> Python source -> a function.

Each expression of the rules becomes one generated function ``f(st, env) -> value`` that
reads the state's tables directly, keeps comprehension variables and function parameters in
Python locals, and calls the operations of runtime.py only where a check or a bound is
needed. A function of the ruleset becomes a Python function of its parameters. The source is
compiled once per game.

No text of a ruleset is ever written into the source: every name the generated code uses is
made here (``_k3``, ``_v2``, ``_fn1``...), and every value the rules write (a string, a number,
a player, a board query...) is a constant of the game's namespace. ``Module.listing`` shows
the code, with the ruleset line and column of each function, for a curious author (the
game's generated code and its namespace: module.py).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang import ast
from rulelang.boards import Space
from rulelang.check.signatures import SIGNATURES

from ..model.problems import unchecked
from ..model.program import Expr, Op
from ..model.values import RuleError, Value, ZoneRef, kind_of
from ..tables import runtime
from ..tables.attributes import BoardAttribute, ComponentField, OwnField, PlayerZone, VariableReader, attribute_readers
from ..tables.builtins import AGGREGATES, BOARD_QUERIES, BUILTINS, FREE_WORK, arity
from ..tables.catalog import Catalog
from ..tables.declared import SUPPLY, Declared, global_promise
from .aggregates import aggregate
from .callgraph import depth_free
from .comprehensions import lifted_listing, read_before, read_once
from .fields import end_index, field_everywhere, field_fits, field_read, no_item, space_attributes, zone_item
from .integers import integer_bound, is_tuple, length_bound, own_index, short_list, sum_fits
from .kinds import KindKnowledge, by_identity
from .known import known_query, per_space
from .loops import function_body
from .module import CHEAP, ORDER_NAMES, Inline, Module
from .moves import listed_in_place, top_in_place, zone_list
from .options import written_out
from .results import built_kind
from .scope import NOT_KNOWN, HeldParameters, Scope, known_kind, promise_of, proves
from .searches import search_in_place
from .tokens import TOKEN_COUNTS, TokenWriter
from .typed import by_kind, typed_read

if TYPE_CHECKING:
    from ..state.state import State

_DEEP = ("    except RecursionError:", "        raise _too_deep(_depth) from None")  # (the rules' error)

_ENTER = (f"if _depth >= {runtime.MAX_DEPTH} or st.rounds >= st.max_steps:", "    _enter_procedure(st, _depth)",
          "st.rounds += 1", "_depth += 1")  # (past a bound, its error)


def _prologue(free: bool) -> list[str]:
    """The first lines of a ruleset function's code: its call bounded in depth (unless
    ``free``: never too deep) and charged, in place, as ``runtime.enter`` would, whose
    errors it raises past a bound (the work counted before, as ``State.charge`` counts it)."""
    deep = [] if free else [f"    if _depth > {runtime.MAX_FUNCTION_DEPTH}:", "        _enter(st, _depth - 1)"]
    return [*deep, f"    _w = st.work + {runtime.CALL_WORK}", "    st.work = _w",
            "    if _w > st.max_steps:", "        st.charge(0)"]
_CALL = re.compile(r"\w\(")
"""A call in generated source (a name, then its arguments): what may charge work or fail."""
_ARITHMETIC = {"-": "_minus", "/": "_divide", "%": "_modulo"}


class ExpressionWriter(KindKnowledge):
    """Writes expressions as Python source against a catalog of declarations."""

    def __init__(self, catalog: Catalog, module: Module):
        self.cat, self.module = catalog, module
        self.tokens = TokenWriter(catalog, module)  # tokens(...) and bank(...) read in place
        self.depth_free = depth_free(catalog.functions, catalog.component_types)  # (callgraph.py)
        self.held = HeldParameters(catalog, module)   # the parameters whose declared type is held
        self.keys_named: dict[tuple[str, ...], str] = {}  # the constant of each list of keys read
        self.results: dict[str, tuple[type, int] | None] = {}   # function -> the kind of its value (results.py)
        self.lifted: list[tuple[str, str, list[str], str | None]] | None = None   # (comprehensions.listed_once)

    def _built_kind(self, node: ast.Expr, scope: Scope) -> tuple[type, int] | None:
        return built_kind(self, node, scope)

    # ---- units ----
    def function(self, node: ast.Expr, env_names: set[str], key: Callable[[str], str]) -> Expr:
        """The compiled function ``f(st, env)`` of ``node``, whose local names ``env_names``
        are in ``env`` under ``key(name)``."""
        name = self.module.fresh("_e")
        scope = self._scope(env_names, key)
        text = self.write(node, scope)
        compiled: Expr = self._define(name, "st, env", _where(node), scope, [], [f"return {text}"], [])
        body = self._body(scope, [], [f"_x = {text}"], [])  # (in place, its value in _x: resumable.py)
        self.module.inline[compiled] = Inline(tuple(line[4:] for line in body), None, ())
        return compiled

    def branch(self, node: ast.Expr, env_names: set[str], key: Callable[[str], str], target: list[int]) -> Op:
        """An operation ``op(st, frame)`` of lowered code that goes on to the next operation
        if ``node`` is true, else to operation ``target[0]`` (patched once the code is laid out)."""
        name = self.module.fresh("_i")
        scope = self._scope(env_names, key)
        text = self.write(node, scope)
        jump = self.module.constant(target, "<where to go if false>")
        op: Op = self._define(name, "st, fr", f"test at {_where(node)}", scope, ["env = fr.env"],
                              [f"fr.pc = fr.pc + 1 if {text} else {jump}[0]"], [])
        searched = search_in_place(self.module, text)   # (a search alone: its lines, no call)
        decided = [*searched, "fr.pc = pc = @next@ if _found else @0@"] if searched else [
            f"fr.pc = pc = @next@ if {text} else @0@"]
        body = self._body(scope, [], decided, [])  # (resumable.py)
        self.module.inline[op] = Inline(tuple(line[4:] for line in body), None, (target,), f"test at {_where(node)}")
        return op

    def assigned(self, node: ast.Expr, env_names: set[str], key: Callable[[str], str], local: str,
                 options: bool = False) -> list[str]:
        """The lines (from no indent) that set the Python ``local`` to the value of ``node``,
        as ``function`` computes it, for code written in place in a resumable function
        (``options``: those of a choice, spaces kept by a test written out where they can be)."""
        scope = self._scope(env_names, key)
        computed = written_out(self, node, scope, local) if options else None
        computed = computed or [f"{local} = {self.write(node, scope)}"]
        return [line[4:] for line in self._body(scope, [], computed, [])]

    def call(self, node: ast.CallStmt | ast.CallLet, params: list[str], env_names: set[str],
             key: Callable[[str], str], bind_result: Callable[[], str | None], compiled: str | None,
             unpaused: str | None = None) -> Op:
        """An operation of lowered code that calls a procedure with the values of its
        arguments: ``compiled`` (one that never pauses) or ``unpaused`` (one that may pause:
        unpaused.py), its generated function, else a new frame whose locals ``params`` hold
        the values. The result goes to the local that ``bind_result()`` binds once the
        arguments are written (None: no result kept)."""
        name = self.module.fresh("_c")
        scope = self._scope(env_names, key)
        values = self.arguments(self.cat.procedure_called(node), node.args, scope)
        ret = bind_result()
        if compiled is not None or unpaused is not None:   # bounded in depth before its arguments are computed
            result = f"env[{self.module.constant(ret)}] = " if ret else ""
            before = ["env = fr.env", "_depth = len(st.frames)", *_ENTER]   # (runtime.enter_procedure in place)
            args = [f"_arg{k}" for k in range(len(values))]   # (computed in order; then a call Python makes in place)
            computed = [f"{a} = {v}" for a, v in zip(args, values, strict=True)]
            called = ", ".join(["st", "_depth", *args])
            after = [f"{result}{compiled}({called})"] if compiled is not None else [
                f"_r = {unpaused}({called})", "if type(_r) is _Paused:",  # (the frames it pushed return it)
                f"    _r.handed(st, {self.module.constant(ret)})", "else:", f"    {result}_r",
            ] if ret else [f"_r = {unpaused}({called})"]   # (no result: the frames pushed have no 'ret' to set)
        else:
            pairs = ", ".join(f"{self.module.constant(p)}: {v}" for p, v in zip(params, values, strict=True))
            before, computed = ["env = fr.env"], [f"_locals = {{{pairs}}}"]
            after = [f"st.push({self.module.constant(node.procedure)}, _locals, {self.module.constant(ret)})"]
        op: Op = self._define(name, "st, fr", f"call at {_where(node)}", scope, before, computed,
                              [*after, "fr.pc += 1"])
        if unpaused is not None:   # (in place, the function makes the decision it pauses at: decided.py)
            after[0] = after[0].replace(f"{unpaused}({called})", f"{unpaused}({called}, True)")
        body = self._body(scope, before[1:], computed, [*after, "fr.pc = pc = @next@"])  # (resumable.py)
        self.module.inline[op] = Inline(tuple(line[4:] for line in body), None, (), f"call at {_where(node)}")
        return op

    @staticmethod
    def _scope(env_names: set[str], key: Callable[[str], str]) -> Scope:
        scope = Scope(set(env_names), key, {}, "0")
        scope.tables = {}
        return scope

    def _define(self, name: str, params: str, comment: str, scope: Scope, before: list[str],
                computed: list[str], after: list[str]) -> Any:
        """The function ``name(params)``: ``before``, the tables ``scope`` reads, then the lines
        ``computed`` (where a local read before it has a value says so), then ``after``."""
        body = [f"def {name}({params}):  # {comment}", *self._body(scope, before, computed, after)]
        return self.module.define(name, "\n".join(body) + "\n")

    def _body(self, scope: Scope, before: list[str], computed: list[str], after: list[str]) -> list[str]:
        """The lines of ``_define``'s function after its ``def``."""
        body = [*("    " + line for line in before), *scope.table_reads("    ")]
        if scope.keys_read:
            read = tuple(sorted(scope.keys_read))
            keys = self.keys_named.get(read) or self.keys_named.setdefault(read, self.module.constant(read))
            body += ["    try:", *("        " + line for line in computed), "    except KeyError as error:",
                     f"        raise _unbound(error, {keys}) from None"]
        else:
            body += ["    " + line for line in computed]
        return body + ["    " + line for line in after]

    def _ruleset_function(self, decl: ast.FunctionDecl, free: bool) -> str:
        """The generated name of function ``decl`` of the ruleset, compiled at its first call;
        ``free``: the one without the depth (one of ``depth_free``, called from outside any function)."""
        key = decl.name + "/free" if free else decl.name  # (not a name of the rules)
        found = self.module.functions.get(key)
        if found is not None:
            return found
        if decl.body is None:
            raise unchecked(f"function '{decl.name}' needs a body", decl.span)
        name = self.module.fresh("_fn")
        self.module.functions[key] = name  # a recursive call finds it while it compiles
        params = {p.name: self.module.fresh("_v") for p in decl.params}
        scope = Scope(set(), str, dict(params), "0" if free else "_depth", env="None")
        scope.tables, scope.learnt = {}, True
        for param, promise in self.held.of(decl).items():   # checked by every call
            scope.learn(params[param], promise)
        lines = function_body(self, decl.body, scope)   # (loops.py)
        head = ", ".join(["st", *([] if free else ["_depth"]), *params.values()])
        inner = "    " if free else "        "
        body = [*([] if free else ["    try:"]), *(inner + line for line in lines), *([] if free else _DEEP)]
        self.module.define(name, "\n".join([f"def {name}({head}):  # function at {_where(decl)}",
                                            *_prologue(free), *scope.table_reads("    "), *body]) + "\n")
        return name

    # ---- expressions ----
    def write(self, node: ast.Expr, scope: Scope) -> str:
        """The Python source of ``node``: an expression, parenthesized where it has operators."""
        if not scope.learnt:
            self.held.learn_running(scope)
        method: Callable[[Any, Scope], str] = getattr(self, "_" + type(node).__name__)
        return method(node, scope)

    def _Literal(self, node: ast.Literal, scope: Scope) -> str:
        value = node.value
        if value is None or value is True or value is False:
            return repr(value)
        return self.module.constant(value)

    def _Name(self, node: ast.Name, scope: Scope) -> str:
        name = node.name
        if name in scope.python:
            return scope.python[name]
        if name in scope.env_names:
            key = scope.key(name)
            scope.keys_read.add(key)
            return f"{scope.env}[{self.module.constant(key)}]"
        cat = self.cat
        if name in cat.global_vars:
            return f"st.global_values[{self.module.constant(name)}]"
        if name in ("players", "seats"):
            return self.module.constant(cat.real_players if name == "players" else cat.players)
        if name in cat.constants:
            return self.module.constant(cat.constants[name])
        raise unchecked(f"unknown name '{name}'", node.span)

    def _ListExpr(self, node: ast.ListExpr, scope: Scope) -> str:
        return "(" + "".join(self.write(item, scope) + ", " for item in node.items) + ")"

    def _IfExpr(self, node: ast.IfExpr, scope: Scope) -> str:
        condition, then, otherwise = (self.write(e, scope) for e in (node.condition, node.then, node.otherwise))
        return f"({then} if {condition} else {otherwise})"

    def _UnaryOp(self, node: ast.UnaryOp, scope: Scope) -> str:
        operand = self.write(node.operand, scope)
        if node.op == "not":
            return f"(not {operand})"   # (a proven integer negated as Python does: no call, nothing to test)
        return f"(-{operand})" if integer_bound(self.cat, node.operand, scope) is not None else f"_negated({operand})"

    def _BinaryOp(self, node: ast.BinaryOp, scope: Scope) -> str:
        op = node.op
        a, b = self.write(node.left, scope), self.write(node.right, scope)
        if op in ("and", "or"):
            return f"({a} {op} {b})"
        if op in ("==", "!=") and isinstance(node.right, ast.Literal) and node.right.value is None:
            return f"({a} is None)" if op == "==" else f"({a} is not None)"
        if op in ("==", "!=") and any(by_identity(self.cat, side, scope) for side in (node.left, node.right)):
            return f"({a} is {b})" if op == "==" else f"({a} is not {b})"
        if op in ("==", "!="):
            return f"({a} {op} {b})"
        if op in ("in", "not in"):
            short = short_list(self.cat, node.right, scope)   # as_list would neither change nor charge it
            if not short and self.zone_read(node.right, scope):   # its list, charged as as_list would, not copied
                return f"({a} {op} {self.module.constant(runtime.zone_seen, '<a zone, looked at in place>')}(st, {b}))"
            if short:
                return f"({a} {op} {b})"
            if CHEAP.match(b):   # (a short list as it is, as as_list gives it back uncharged)
                return f"({a} {op} ({b} if type({b}) is tuple and len({b}) <= {FREE_WORK} else _as_list(st, {b})))"
            return f"({a} {op} _as_list(st, {b}))"
        if op == "..":
            return f"_range(st, {a}, {b})"
        if op in ORDER_NAMES:
            return self._ordered(node, a, b, scope)
        if op in ("+", "-", "*") and sum_fits(self.cat, node, scope):   # two small integers
            return f"({a} {op} {b})"
        if op == "+" and is_tuple(self.cat, node.left, scope) and is_tuple(self.cat, node.right, scope):
            bound = length_bound(self.cat, node, scope)   # (a short list: concat neither refuses nor charges it)
            return f"({a} + {b})" if bound is not None and bound <= FREE_WORK else f"_concat(st, {a}, {b})"
        if op == "+":
            return f"_plus(st, {a}, {b})"
        if op == "*":
            return f"_times(st, {a}, {b})"
        return f"{_ARITHMETIC[op]}({a}, {b})"

    def _ordered(self, node: ast.BinaryOp, a: str, b: str, scope: Scope) -> str:
        """``a < b`` (or ``<=``, ``>``, ``>=``): Python's comparison where both sides are proven
        integers, or one is and the other, read at no cost, is an ``int`` when it runs (as the
        rules' ordering compares them); the rules' ordering (``_order``) otherwise."""
        op, general = node.op, f"{ORDER_NAMES[node.op]}({a}, {b})"
        left, right = (integer_bound(self.cat, side, scope) is not None for side in (node.left, node.right))
        if left and right:
            return f"({a} {op} {b})"
        unknown, other = (b, a) if left else (a, b)
        # read first by the test: so a read that may fail (a local without a value) only
        # where nothing before it may
        if (left or right) and CHEAP.match(unknown) and (unknown.isidentifier() or other.isidentifier()):
            return f"({a} {op} {b} if type({unknown}) is int else {general})"
        return general

    def _Attribute(self, node: ast.Attribute, scope: Scope) -> str:
        target, cat = node.target, self.cat
        if isinstance(target, ast.Name) and not scope.is_local(target.name) and target.name in cat.enums:
            enum = cat.enums[target.name]
            value = next((v for v in enum.values if v.name == node.name), None)
            if value is None:
                raise unchecked(f"enum '{enum.name}' has no value '{node.name}'", node.span)
            return self.module.constant(value)
        readers = attribute_readers(cat, node.name)
        if not readers:
            raise unchecked(f"nothing has an attribute '{node.name}'", node.span)
        obj = self.write(target, scope)
        known = scope.kinds.get(obj) or known_kind(promise_of(self.cat, target, scope)) \
            or self._zone_item_kind(target, scope) or self.entry_kind(target, scope)
        if (typed := typed_read(self, target, obj, node.name, readers, known, scope)) is not None:
            return typed   # (a component of a type that declares the field, or none: typed.py)
        if known is not None and known[1] == 0 and known[0] in readers:  # its kind is certain: no test
            return f"({self._read(readers[known[0]], obj, node.name, scope)})"
        if not (obj.isidentifier() or obj.startswith(f"{scope.env}[")) and (reads := field_read(cat, node.name)):
            return f"{self.module.constant(reads, f'<reads x.{node.name} of a component>')}({obj})"
        if not (obj.isidentifier() or obj.startswith(f"{scope.env}[")):  # read it once: a call
            plain = {kind: r.read if isinstance(r, ComponentField) else r for kind, r in readers.items()}
            dispatch = self.module.constant(_dispatch(plain, node.name), f"<reads x.{node.name}>")
            return f"{dispatch}(st, {obj})"
        return by_kind(self, readers, obj, node.name, scope)

    def _read(self, reader: Callable[[State, Any], Value], obj: str, name: str, scope: Scope) -> str:
        """``reader`` applied to ``obj``, written in place for a variable."""

        if isinstance(reader, VariableReader):
            table = f"st.{reader.table}[{self.module.constant(reader.name)}]"
            if scope.tables is not None:
                table = scope.tables.setdefault(table, self.module.fresh("_t"))
            offset = f" + {self.module.constant(reader.offset)}" if reader.offset else ""  # tokens: the holder's slot
            return f"{table}[{obj}.{reader.index}{offset}]"
        if isinstance(reader, OwnField):
            return f"{obj}.{_OWN_FIELDS[reader.field]}"
        if isinstance(reader, PlayerZone):
            return f"{self.module.constant(reader.refs, f'<the zones {name} of the players>')}[{obj}.index]"
        if isinstance(reader, BoardAttribute):
            by_index = space_attributes(self.cat, reader.name)
            if by_index is not None:   # (the one board's: by the space's index)
                return f"{self.module.constant(by_index, f'<the {name} of each space>')}[{obj}.index]"
            return f"{obj}.attributes.get({self.module.constant(reader.name)})"
        if isinstance(reader, ComponentField) and field_everywhere(self.cat, reader.name):  # (fields.py)
            return f"{obj}.record[{self.module.constant(reader.name)}]"
        if isinstance(reader, ComponentField):   # (a component without it: the reader's error)
            call = f"{self.module.constant(reader.read, f'<reads x.{name}>')}(st, {obj})"
            if not CHEAP.match(obj):
                return call
            field, fields = self.module.constant(reader.name), f"{obj}.record"
            return f"({fields}[{field}] if {field} in {fields} else {call})"
        return f"{self.module.constant(reader, f'<reads x.{name}>')}(st, {obj})"

    def _Index(self, node: ast.Index, scope: Scope) -> str:
        target, index = self.write(node.target, scope), self.write(node.index, scope)
        end = end_index(node.index)   # the first or the last: in range unless the list is empty
        if is_tuple(self.cat, node.target, scope) and integer_bound(self.cat, node.index, scope) is not None:
            if scope.plain_items:   # (its IndexError caught: loops.py)
                scope.plain_used = True
                return f"{target}[{index}]"
            if end is not None:
                return f"({target} or {self.module.constant(no_item, '<no item>')}({end}))[{end}]"
            return self._item(node.index, target, index, scope)
        if self.map_read(node, scope) is not None:   # a player's entry: a missing one, KeyError (Module.locate)
            return f"{target}[{index}]"
        if self._zone_item_kind(node, scope) is not None:
            if end is not None:
                listed, missing = zone_list(target, self.module), self.module.constant(no_item, "<no item>")
                return f"({listed} or {missing}({end}))[{end}]"
            return f"{self.module.constant(zone_item, '<an item of a zone>')}(st, {target}, {index})"
        if target.isidentifier() and index.isidentifier():  # read twice at no cost: a list's item in place
            return (f"({target}[{index}] if type({target}) is tuple and type({index}) is int"
                    f" and -len({target}) <= {index} < len({target}) else _index(st, {target}, {index}))")
        return f"_index(st, {target}, {index})"

    def _item(self, node: ast.Expr, target: str, index: str, scope: Scope) -> str:
        """The item ``index`` (``node``, a proven integer) of ``target`` (a proven list): in
        place where both read again at no cost and with no effect (no call), else (and out
        of range) ``runtime.item``."""
        item = self.module.constant(runtime.item, "<an item of a list>")
        if _CALL.search(target) or _CALL.search(index):
            return f"{item}({target}, {index})"
        natural = (isinstance(node, ast.Literal) and type(node.value) is int and node.value >= 0) \
            or own_index(self.cat, node, scope)
        test = f"{index} < len({target})" if natural else f"-len({target}) <= {index} < len({target})"
        return f"({target}[{index}] if {test} else {item}({target}, {index}))"

    def _Comprehension(self, node: ast.Comprehension, scope: Scope) -> str:
        return f"tuple({self.listing(node.clauses, (node.element,), scope)})"

    def listing(self, clauses: tuple[ast.CompClause, ...], parts: tuple[ast.Expr, ...], scope: Scope,
              brackets: str = "[]", bounds: list[int | None] | None = None) -> str:
        """A Python comprehension over ``clauses`` whose element is ``parts`` (one value, or a
        pair): each source's items charged (``_items``); several clauses counted (``_Visits``).
        ``bounds`` receives the bound of each part (the element, a key) that is a proven
        integer, else None (integers.py)."""
        lifted = lifted_listing(self, clauses, parts, scope, bounds) if brackets == "[]" else None
        if lifted is not None:   # (its loops written before the statement: listed_once)
            return lifted
        element, loops = self.listing_parts(clauses, parts, scope, brackets, bounds)
        return f"{brackets[0]}{element} {' '.join(loops)}{brackets[1]}"

    def listing_parts(self, clauses: tuple[ast.CompClause, ...], parts: tuple[ast.Expr, ...], scope: Scope,
                      brackets: str = "[]", bounds: list[int | None] | None = None) -> tuple[str, list[str]]:
        """The element and the clauses (``for ...``, ``if ...``) of ``listing``."""
        saved, own_tables = dict(scope.python), scope.tables is None and brackets == "[]"
        if own_tables:   # (the tables it reads, read once before its loops: comprehensions.py)
            scope.tables = {}
        loops, names = [], []
        visits = self.module.fresh("_c") if len(clauses) > 1 else None
        if visits is not None:
            loops.append(f"for {visits} in (_Visits(),)")
        for clause in clauses:
            source = self.write(clause.source, scope)
            var = scope.python[clause.var] = self.module.fresh("_v")
            names.append(var)
            self.bind_item_kind(var, clause.source, scope)
            items = f"{self._items_of(clause.source, scope)}(st, {source})"
            if visits is not None:
                items = f"{visits}.over({items})"
            loops.append(f"for {var} in {items}")
            tests = []
            if clause.condition is not None:
                tests.append(self.write(clause.condition, scope))
            if tests:
                loops.append("if " + " and ".join(tests))
        values = [self.write(part, scope) for part in parts]
        if bounds is not None:   # (of each part: the element's, then a key's)
            bounds.extend(integer_bound(self.cat, part, scope) for part in parts)
        scope.python = saved
        element = values[0] if len(values) == 1 else f"({', '.join(values)})"
        if own_tables:
            element, loops = read_before(self.module, scope, names, element, loops)
        return read_once(self.module, element), [read_once(self.module, loop) if loop.startswith("if ") else loop
                                                  for loop in loops]

    def _items_of(self, source: ast.Expr, scope: Scope) -> str:
        """What gives the items of ``source`` to a comprehension: a zone's read in place."""
        if self.zone_read(source, scope):
            return self.module.constant(runtime.zone_items, "<the items of a zone, read in place>")
        return "_items"

    def _Generator(self, node: ast.Generator, scope: Scope) -> str:
        raise unchecked("a generator ('x for x in ...') is only allowed as a function argument", node.span)

    def _KeywordArg(self, node: ast.KeywordArg, scope: Scope) -> str:
        raise unchecked(f"keyword argument '{node.name}:' is only allowed in a component constructor", node.span)

    def _Call(self, node: ast.Call, scope: Scope) -> str:
        name, cat = node.function, self.cat
        if name in cat.component_types:
            return self._constructor(node, scope)
        if name in cat.functions:
            return self._function_call(node, scope)
        if name in AGGREGATES:
            return aggregate(self, node, scope)
        if name in cat.load_time_functions:
            return self._load_time_call(node, scope)
        if name not in BUILTINS:
            raise unchecked(f"unknown function '{name}'", node.span)
        low, high = arity(name)
        if not low <= len(node.args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise unchecked(f"{name}() takes {want} arguments, got {len(node.args)}", node.span)
        args = [self.write(a, scope) for a in node.args]
        constants = self._constant_values(node.args, scope) if name in BOARD_QUERIES else None
        known = known_query(self.cat, name, constants)
        if known is not None:   # (no work, no state read: its value now)
            return self.module.constant(known, f"<{name}(...), computed at load>")
        if constants is not None:
            query = self.module.constant(runtime.once_per_game(BUILTINS[name], constants),
                                         f"<{name}(...), computed once per game>")
            return f"{query}(st, {scope.env})"
        kept = self._kept_per_space(name, node.args, args, scope) if name in BOARD_QUERIES else None
        if kept is not None:
            return kept
        if name == "top" and len(args) == 1:   # (a zone it certainly is read in place: moves.py)
            return top_in_place(args[0], self.module) or f"_top(st, {args[0]})"
        if name == "list" and len(args) == 1 and self.zone_read(node.args[0], scope):
            looked = f"tuple({self.module.constant(runtime.zone_seen, '<a zone, looked at in place>')}(st, {args[0]}))"
            return listed_in_place(args[0], self.module, looked) or looked
        if name == "size":
            return self._size(node.args[0], args[0], scope)
        if name in TOKEN_COUNTS and (counted := self.tokens.count(node, args, scope)) is not None:
            return counted
        return f"{self.module.constant(BUILTINS[name], f'<builtin {name}>')}({', '.join(['st', *args])})"

    def _kept_per_space(self, name: str, nodes: tuple[ast.Expr, ...], args: list[str], scope: Scope) -> str | None:
        """Board query ``name`` whose arguments ``nodes`` (written ``args``) are constants but
        one, a space: its answer for each space, kept (``runtime.per_space``); else None."""
        values = [self._constant_values((node,), scope) for node in nodes]
        varying = [i for i, value in enumerate(values) if value is None]
        if len(varying) != 1 or SIGNATURES[name].params[varying[0]] != "space":
            return None
        constants = [value[0] if value is not None else None for value in values]
        return per_space(self.cat, self.module, name, constants, varying[0], args[varying[0]],
                         self.items_kind(nodes[varying[0]], scope) == (Space, 0))

    def _size(self, node: ast.Expr, text: str, scope: Scope) -> str:
        """``size(node)``, whose source is ``text``: a list's length or a declared zone's read in
        place where the text proves which it is, else tested where it runs (``_size_of``)."""
        constant = self._constant_values((node,), scope)
        if constant is not None and type(constant[0]) is ZoneRef:
            return f"len(st.zones[{self.module.constant(constant[0].slot)}])"
        if is_tuple(self.cat, node, scope):
            return f"len({text})"
        if self.zone_read(node, scope):
            return f"len({zone_list(text, self.module)})"
        if CHEAP.match(text):
            return f"(len({text}) if type({text}) is tuple else _size_of(st, {text}))"
        return f"_size_of(st, {text})"

    def _function_call(self, node: ast.Call, scope: Scope) -> str:
        """A call of a function of the ruleset, which its own first lines bound in depth and
        charge (``_prologue``) once its arguments are computed."""
        decl = self.cat.functions[node.function]
        if len(node.args) != len(decl.params):
            count = len(decl.params)
            raise unchecked(f"function '{node.function}' takes {count} argument{'' if count == 1 else 's'}, "
                            f"got {len(node.args)}", node.span)
        args = self.arguments(decl, node.args, scope)
        free = scope.depth == "0" and decl.name in self.depth_free
        called = self._ruleset_function(decl, free)
        depth = [] if free else ["1" if scope.depth == "0" else f"{scope.depth} + 1"]  # (the callee's own)
        return f"{called}({', '.join(['st', *depth, *args])})"  # (bounded and charged in its prologue)

    def arguments(self, decl: ast.ProcedureDecl | ast.FunctionDecl, nodes: tuple[ast.Expr, ...], scope: Scope
                  ) -> list[str]:
        """The sources of the arguments ``nodes`` of a call of ``decl``, each checked against
        the declared type of its parameter where the callee holds to it and the text does
        not prove it (scope.py)."""
        held, texts = self.held.of(decl), []
        for node, param in zip(nodes, decl.params, strict=False):
            text, promise = self.write(node, scope), held.get(param.name)
            proven = promise is not None and self.certainly_of(node, text, scope, promise)
            texts.append(self.held.checked_argument(text, promise, f"'{param.name}' of {decl.name}", proven))
        return texts

    def written(self, name: str, node: ast.Expr | None, text: str, scope: Scope) -> str:
        """The source of ``text``, the value of ``node`` (None: of ``+=`` or ``-=``, an int)
        to be written to global variable ``name``: checked against its type where not proven."""
        promise = global_promise(self.cat, name)
        proven = promise is not None and (promise.fits(0) if node is None
                                          else self.certainly_of(node, text, scope, promise))
        return self.held.checked_argument(text, promise, f"variable '{name}'", proven)

    def certainly_of(self, node: ast.Expr, text: str, scope: Scope, promise: Declared) -> bool:
        """Whether ``node`` (written ``text``) is certainly of type ``promise``."""
        constant = self._constant_values((node,), scope)
        known = scope.promises.get(text) or promise_of(self.cat, node, scope)
        if promise == SUPPLY and self.tokens.is_supply_for_certain(node, scope):
            return True
        if isinstance(node, ast.Attribute) and field_fits(self.cat, node.name, promise):   # (fields.py)
            return True
        return proves(promise, known, constant[0] if constant is not None else NOT_KNOWN,
                      lambda: integer_bound(self.cat, node, scope) is not None,
                      lambda: is_tuple(self.cat, node, scope), lambda: self.items_kind(node, scope))

    def _load_time_call(self, node: ast.Call, scope: Scope) -> str:
        fn = self.module.constant(self.cat.load_time_functions[node.function], f"<{node.function}, at load time>")
        args = [self.write(a, scope) for a in node.args if not isinstance(a, ast.KeywordArg)]
        named = [f"{self.module.constant(a.name)}: {self.write(a.value, scope)}"
                 for a in node.args if isinstance(a, ast.KeywordArg)]
        if named:
            args.append(f"**{{{', '.join(named)}}}")
        return f"{fn}({', '.join(args)})"

    def _constructor(self, node: ast.Call, scope: Scope) -> str:
        decl = self.cat.component_types[node.function]
        fields = {f.name for f in decl.fields}
        given: dict[str, str] = {}
        for arg in node.args:
            if not isinstance(arg, ast.KeywordArg):
                raise unchecked(f"{node.function}(...) takes named fields, like {node.function}(name: value)", arg.span)
            if arg.name not in fields:
                raise unchecked(f"component '{node.function}' has no field '{arg.name}'", arg.span)
            given[arg.name] = self.write(arg.value, scope)
        missing = fields - set(given)
        if missing:
            raise unchecked(f"{node.function}(...) is missing {', '.join(sorted(missing))}", node.span)
        entries = ", ".join(f"{self.module.constant(k)}: {v}" for k, v in given.items())
        return f"_spec({self.module.constant(node.function)}, {{{entries}}})"


_OWN_FIELDS = {"index": "index", "name": "name"}
"""The fields ``OwnField`` reads, as the generated code names them (never the ruleset's text)."""

def _dispatch(readers: dict[type, Callable[[State, Any], Value]], name: str) -> Callable[[State, Any], Value]:
    """``x.name`` for a value ``x`` computed once: the reader of its kind."""
    def read(st: State, obj: Any) -> Value:
        reader = readers.get(type(obj))
        if reader is None:
            raise RuleError(f"a {kind_of(obj)} has no attribute '{name}'")
        return reader(st, obj)
    return read


def _where(node: ast.Node) -> str:
    return f"line {node.span.line}, column {node.span.column}"

