"""Where the names of one expression live, and what the compiler knows they hold: the
``Scope`` of the compiler of expressions (codegen.py), and the parameters whose declared
type the engine holds to (tables/declared.py) learnt into it.

A held parameter is read as its type promises (an attribute of a ``player`` without a test
of its kind, an ``int`` compared in plain Python, a ``list`` measured by ``len``); the calls
check their arguments against it (``checked_argument``), where the text does not prove them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from weakref import WeakKeyDictionary

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Component, Player
from ..tables.attributes import attribute_promise
from ..tables.catalog import Catalog
from ..tables.declared import Declared, checker, global_promise, held_parameters
from ..tables.runtime import MAX_INT
from .module import CHEAP, KIND_NAMES, Module

_KNOWN_CLASSES = (Player, Space, Component)
IDENTICAL_WHEN_EQUAL = _KNOWN_CLASSES  # (equal only to themselves: Python's default equality)
_INLINE = {Player: "_Player", Space: "_Space", int: "int", bool: "bool", str: "str"}
"""The classes whose check the generated code writes in place, by the names it knows them."""


class Scope:
    """Where the names of one expression live: locals of the running procedure (in ``env``, by
    their key) and Python locals of the generated code (parameters, comprehension variables)."""

    def __init__(self, env_names: set[str], key: Callable[[str], str], python: dict[str, str], depth: str,
                 env: str = "env"):
        self.env_names, self.key, self.python = env_names, key, python
        self.depth = depth  # how deep the ruleset's functions run here: "0", or a parameter
        self.env = env      # the text of the environment: "env", or "None" in a function's body
        self.keys_read: set[str] = set()  # env keys read: a KeyError of one means "no value yet"
        # In a generated function that runs no statement (an expression, a loop of any/all):
        # the state's tables it reads (``st.player_values[NAME]``...), each read once at its
        # start into a Python local (table -> local). None: read where used.
        self.tables: dict[str, str] | None = None
        # Python locals (comprehension and loop variables, held parameters) and entries of
        # the environment (held parameters) known to hold a player, space or component, or
        # lists of them: their text -> (that class, how many lists deep). Known from where
        # their items come from (``ExpressionWriter.items_kind``) or from a declared type
        # the engine holds to: an attribute of such a local is read without testing its kind.
        self.kinds: dict[str, tuple[type, int]] = {}
        # Python locals known to hold a component of one type, or none unless ``kinds`` says
        # a component: their text -> that type (typed.py: taken from a zone of that type).
        self.typed: dict[str, str] = {}
        # Python locals known to hold an integer, and a bound of its size (integers.py).
        self.integers: dict[str, int] = {}
        self.naturals: set[str] = set()   # of those, the ones never below zero (integers.natural)
        self.lists: set[str] = set()   # the texts of locals known to hold a list (a tuple)
        self.lengths: dict[str, int] = {}   # of those, the ones of a bounded length: that bound
        self.promises: dict[str, Declared] = {}   # the texts of held parameters -> their type
        self.held_names: dict[str, str] = {}   # a held parameter in the environment -> its text
        self.learnt = False   # whether the held parameters of the running code are learnt
        # In the body of a function written as statements (loops.py): an item of a proven
        # list read by a plain subscript (its IndexError caught), and whether one was.
        self.plain_items = self.plain_used = False

    def table_reads(self, indent: str) -> list[str]:
        """The lines that read the tables this scope uses into their locals."""
        return [f"{indent}{local} = {table}" for table, local in (self.tables or {}).items()]

    def is_local(self, name: str) -> bool:
        return name in self.python or name in self.env_names

    def local_text(self, name: str) -> str | None:
        """The text of local ``name`` where what it holds may be known: its Python local,
        or the entry of a held parameter in the environment."""
        found = self.python.get(name)
        return found if found is not None else self.held_names.get(name)

    def inner(self) -> Scope:
        """A scope for a loop written as a function of its own, knowing what this one knows."""
        found = Scope(self.env_names, self.key, dict(self.python), self.depth)
        found.keys_read = self.keys_read  # a KeyError in the loop reaches the expression's function
        found.tables = {}
        found.kinds, found.integers, found.lists = dict(self.kinds), dict(self.integers), set(self.lists)
        found.typed, found.naturals = dict(self.typed), set(self.naturals)
        found.lengths = dict(self.lengths)
        found.promises, found.held_names, found.learnt = dict(self.promises), dict(self.held_names), True
        return found

    def learn(self, text: str, promise: Declared) -> None:
        """Record that the local ``text`` always holds a value of type ``promise``."""
        self.promises[text] = promise
        if promise.of:   # (a component of that type, or none if optional: typed.py)
            self.typed[text] = promise.of
        if promise.optional:
            return
        if promise.cls is int:
            self.integers[text] = MAX_INT
        if promise.cls is tuple:
            self.lists.add(text)
        innermost = promise
        while innermost.cls is tuple and innermost.item is not None and not innermost.item.optional:
            innermost = innermost.item
        if innermost.cls in _KNOWN_CLASSES and not innermost.optional:
            self.kinds[text] = (innermost.cls, promise.depth)


class HeldParameters:
    """The parameters of the procedure being compiled whose declared type is held (by name:
    their text and type), and those of every procedure and function called (by name)."""

    def __init__(self, catalog: Catalog, module: Module):
        self.cat, self.module = catalog, module
        self.running: dict[str, tuple[str, Declared]] = {}
        self._of: dict[str, dict[str, Declared]] = {}

    def enter(self, decl: ast.ProcedureDecl | None, text: Callable[[str], str]) -> None:
        """The procedure ``decl`` (None: a phase, or nothing) is being compiled, each parameter
        ``p`` read as ``text(p)``."""
        if decl is None:
            self.running = {}
            return
        self.running = {name: (text(name), promise) for name, promise in self.of(decl).items()}

    def hold(self, name: str, text: str, promise: Declared) -> None:
        """From here on in the procedure being compiled, its local ``name`` (read as
        ``text``, an entry of the environment) holds a value of type ``promise`` (held.py)."""
        self.running[name] = (text, promise)

    def of(self, decl: ast.ProcedureDecl | ast.FunctionDecl) -> dict[str, Declared]:
        """The held parameters of a procedure or a function of the ruleset."""
        found = self._of.get(decl.name + ("()" if isinstance(decl, ast.FunctionDecl) else ""))
        if found is None:
            found = held_parameters(self.cat, decl.params, decl.body)
            self._of[decl.name + ("()" if isinstance(decl, ast.FunctionDecl) else "")] = found
        return found

    def learn_running(self, scope: Scope) -> None:
        """Teach ``scope`` (of code outside any function of the ruleset) the held parameters
        of the procedure being compiled, where it reads them as they were bound."""
        scope.learnt = True
        if scope.depth != "0":
            return
        for name, (text, promise) in self.running.items():
            if scope.python.get(name) == text:
                scope.learn(text, promise)
            elif name in scope.env_names and name not in scope.python and scope.key(name) == name \
                    and text.startswith(f"{scope.env}["):
                scope.held_names[name] = text
                scope.learn(text, promise)

    def checked_argument(self, text: str, promise: Declared | None, what: str, proven: bool) -> str:
        """The source of an argument ``text`` for a parameter of type ``promise``: as it is
        where it is proven (or nothing is promised), else checked where it is computed: its
        class tested in place (a list's items by a call), or by a call for a costly text."""
        if promise is None or proven:
            return text
        check = self.module.constant(checker(promise, what), f"<checks {what}>")
        if promise.cls in (tuple, dict) or not CHEAP.match(text):   # (a list's items, a map's entries)
            return f"{check}({text})"
        cls = _INLINE.get(promise.cls) or self.module.constant(promise.cls, f"<class {promise.cls.__name__}>")
        test = f"type({text}) is {cls}"
        test += f" and {text}.kind == {self.module.constant(promise.ref)}" if promise.ref else ""
        test += f" or {text} is None" if promise.optional else ""
        return f"({text} if {test} else {check}({text}))"


NOT_KNOWN = object()
"""What ``proves`` is given for a value that is not known before the game runs."""


def proves(promise: Declared, known: Declared | None, value: object, is_int: Callable[[], bool],
           is_list: Callable[[], bool], kind: Callable[[], tuple[type, int] | None]) -> bool:
    """Whether a value is certainly of type ``promise``, from what is known of it: the type
    it is held to (``known``), its value if a constant, whether the text proves it an
    integer or a list, and what class (lists deep) its items are (``items_kind``)."""
    if known is not None and (known == promise or replace(known, optional=True) == promise):
        return True
    if value is not NOT_KNOWN:
        return promise.fits(value)   # type: ignore[arg-type]
    plain = replace(promise, optional=False)
    if plain == Declared(int):
        return is_int()
    if plain == Declared(tuple):
        return is_list()
    anonymous = _anonymous_kind(plain)
    return anonymous is not None and kind() == anonymous


def _anonymous_kind(promise: Declared) -> tuple[type, int] | None:
    """(class, lists deep) of a player, a space, a component or lists of them, none allowed
    nowhere; else None."""
    depth = 0
    while promise.cls is tuple and promise.item is not None and not promise.item.optional:
        promise, depth = promise.item, depth + 1
    if promise.cls in _KNOWN_CLASSES and not promise.optional:
        return promise.cls, depth
    return None


def known_kind(promise: Declared | None) -> tuple[type, int] | None:
    """(class, lists deep) of a value of type ``promise`` that is a player, a space, a
    component or lists of them, none allowed nowhere; else None."""
    return None if promise is None else _anonymous_kind(promise)


_PROMISES: WeakKeyDictionary[Catalog, dict[str, Declared | None]] = WeakKeyDictionary()


def promise_of(cat: Catalog, node: ast.Expr, scope: Scope) -> Declared | None:
    """The type ``node`` certainly has when it reads: a held parameter's, a global
    variable's (``g``), or the variables' read by an attribute (``x.v``); else None."""
    if isinstance(node, ast.Name):
        text = scope.local_text(node.name)
        if text is not None:
            return scope.promises.get(text)
        if scope.is_local(node.name) or node.name not in cat.global_vars:
            return None
        return _cached(cat, node.name, lambda: global_promise(cat, node.name))
    if isinstance(node, ast.Attribute):
        target = node.target
        if isinstance(target, ast.Name) and not scope.is_local(target.name) and target.name in cat.enums:
            return None
        return _cached(cat, "." + node.name, lambda: attribute_promise(cat, node.name))
    return None


def _cached(cat: Catalog, key: str, compute: Callable[[], Declared | None]) -> Declared | None:
    found = _PROMISES.setdefault(cat, {})
    if key not in found:
        found[key] = compute()
    return found[key]


def value_kind(value: object) -> tuple[type, int] | None:
    """``ExpressionWriter.items_kind`` of a value known now: a player, a space or a
    component (0), or a non-empty list whose items all have one such kind (one list deeper)."""
    if type(value) in KIND_NAMES:
        return type(value), 0
    if type(value) is tuple and value:
        kinds = {value_kind(item) for item in value}
        if len(kinds) == 1:
            (kind,) = kinds
            if kind is not None:
                return kind[0], kind[1] + 1
    return None
