"""Declared types the engine holds to: what a parameter of a procedure or a function of the
ruleset certainly is while it runs, so that the compiler (codegen.py) reads it without
testing its kind.

A parameter ``s: player`` is *held* when its procedure or function never gives it another
value (no ``s = ...``, no ``let``, loop or choice of that name): then every value it has is
the argument of the call, which the call checks (``check``: the rules' error, located at
the call, for an argument of another kind), and a state read back checks the frames it
restores (``frame_problem``). Types the engine does not hold to (a die, a board, a supply)
check nothing and promise nothing; a supply is held (a value of its class, ``Ref``, of the
kind ``supply``: ``Declared.ref``).

What a held type promises (``Declared``): the Python class of the value (``int``, ``bool``,
``str``, Player, Space, Component, EnumValue, ZoneRef, ``tuple`` for a list, ``dict`` for a
map, ``map[player, T]``: a simultaneous choice's, whose keys are players) and, for a list or a
map, the class of every item; an optional type (``player?``) may also be none. Not a
component's type: rulesets use one for another (a component of one type passed where
another is declared, a list of lists of one type that pairs it with another), as they may.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space
from rulelang.check.tree import bound_names, walk

from ..model.values import Component, EnumValue, Player, Ref, RuleError, Value, ZoneRef, kind_of

if TYPE_CHECKING:
    from .catalog import Catalog

_CLASSES: dict[str, type] = {"int": int, "bool": bool, "string": str, "player": Player, "space": Space,
                             "zone": ZoneRef, "component": Component}
_CONTAINERS: dict[str, type] = {"list": tuple, "map": dict}
_WORDS = {"int": "an int", "bool": "a bool", "string": "a string", "player": "a player", "space": "a space",
          "zone": "a zone", "component": "a component"}


@dataclass(frozen=True)
class Declared:
    """A declared type the engine holds to: ``cls`` (the Python class of the value),
    ``item`` (what each item of a list is, when declared), ``optional`` (none allowed too),
    ``ref`` (for ``Ref``, the class of supplies, dice and boards: the kind it must be), ``of``
    (for a component from a zone of one component type: that type)."""

    cls: type
    item: Declared | None = None
    optional: bool = False
    ref: str = ""
    of: str = ""   # for a component taken from a zone that holds one type (compiler/typed.py): that type

    def fits(self, value: Value) -> bool:
        """Whether ``value`` is of this type (every item of a list included: the classes of
        a list of plain items at once, a list of lists item by item)."""
        if type(value) is not self.cls:
            return value is None and self.optional
        if self.ref:
            return value.kind == self.ref   # type: ignore[union-attr]
        if self.of:
            return value.type == self.of   # type: ignore[union-attr]
        item = self.item
        if type(value) is dict:   # the map of a simultaneous choice: from players
            return all(type(key) is Player for key in value) and (item is None or all(map(item.fits, value.values())))
        if item is None or not isinstance(value, tuple):
            return True
        if item.cls is not tuple and not item.ref:
            return set(map(type, value)) <= ({item.cls, type(None)} if item.optional else {item.cls})
        return all(item.fits(v) for v in value)

    def describe(self) -> str:
        """'a player', 'a list of components', 'an int or none'..."""
        if self.cls is tuple:
            text = "a list" if self.item is None else f"a list of {self.item.plural()}"
        elif self.cls is dict:
            text = "a map from players" + ("" if self.item is None else f" to {self.item.plural()}")
        elif self.cls is Ref:
            text = f"a {self.ref}"
        elif self.cls in (Component, EnumValue):
            text = "an enum value" if self.cls is EnumValue else f"a {self.of}" if self.of else "a component"
        else:
            text = _WORDS[next(k for k, v in _CLASSES.items() if v is self.cls)]
        return text + (" or none" if self.optional else "")

    def plural(self) -> str:
        return self.describe().removeprefix("a ").removeprefix("an ")

    @property
    def depth(self) -> int:
        """How many lists deep the value of a non-optional type is (0: not a list)."""
        return 0 if self.item is None or self.cls is not tuple else 1 + self.item.depth


def declared(cat: Catalog, typ: ast.TypeRef | None) -> Declared | None:
    """What ``typ`` promises once held, or None for a type that promises nothing here."""
    if typ is None:
        return None
    if typ.name in _CONTAINERS:   # a list, or a map (from players: check.checker)
        return Declared(_CONTAINERS[typ.name], declared(cat, typ.item) if typ.item is not None else None,
                        typ.optional)
    if typ.name in _CLASSES:
        return Declared(_CLASSES[typ.name], optional=typ.optional)
    if typ.name == "supply":
        return Declared(Ref, optional=typ.optional, ref="supply")
    if typ.name in cat.component_types:   # its class: the rules may use one component kind where another is declared
        return Declared(Component, optional=typ.optional)
    if typ.name in cat.enums:
        return Declared(EnumValue, optional=typ.optional)
    return None


SUPPLY = Declared(Ref, ref="supply")
"""What a parameter or a variable declared ``supply`` holds."""


def held_parameters(cat: Catalog, params: tuple[ast.Param, ...], body: ast.Node | None) -> dict[str, Declared]:
    """The parameters of ``params`` whose declared type is held in ``body``: never given
    another value there, and of a type that promises something."""
    rebound: set[str] = set()
    for node in walk(body) if body is not None else ():
        rebound.update(bound_names(node))
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
            rebound.add(node.target.name)
    found: dict[str, Declared] = {}
    for param in params:
        promise = declared(cat, param.type)
        if promise is not None and param.name not in rebound:
            found[param.name] = promise
    return found


def check(value: Value, promise: Declared, what: str) -> Value:
    """``value``, if it fits ``promise``; else the rules' error naming ``what``."""
    if promise.fits(value):
        return value
    raise RuleError(f"{what} must be {promise.describe()}, got {kind_of(value)}")


def checker(promise: Declared, what: str) -> Callable[[Value], Value]:
    """``check`` of ``promise`` as a function of the value alone, its class tested first."""
    cls, optional, item = promise.cls, promise.optional, promise.item
    if promise.ref:
        item = promise   # (its class alone does not tell: fits)

    def checked(value: Value) -> Value:
        if type(value) is cls and item is None:
            return value
        if (value is None and optional) or promise.fits(value):
            return value
        raise RuleError(f"{what} must be {promise.describe()}, got {kind_of(value)}")
    classes = _classes_in_lists(promise)
    if classes is None:
        return checked

    def checked_lists(value: Value) -> Value:   # ``checked``, the classes of each list's items at once
        if type(value) is tuple:
            for inner in value:
                if type(inner) is not tuple or not classes.issuperset(map(type, inner)):
                    return checked(value)
            return value
        return checked(value)
    return checked_lists


def _classes_in_lists(promise: Declared) -> frozenset[type] | None:
    """For a list of lists of plain items (``list[list[player]]``...): the classes an item
    of an inner list may have; else None."""
    inner = promise.item
    if promise.cls is not tuple or inner is None or inner.cls is not tuple or inner.optional:
        return None
    item = inner.item
    if item is None or item.cls is tuple or item.ref:
        return None
    return frozenset({item.cls, type(None)} if item.optional else {item.cls})


def frame_problem(cat: Catalog, procedure: str, env: Mapping[str, Value],
                  held_locals: Mapping[str, Declared] | None = None) -> tuple[str, str] | None:
    """Which local of ``env``, a frame of ``procedure`` (read back from saved data), breaks a
    type its code holds to, and why; None when none does. ``held_locals``: the locals its
    compiled code holds (``Code.held``: a 'let' that alone binds its name, a simultaneous
    choice's map), besides the parameters."""
    for name, promise in (held_locals or {}).items():
        if name in env and not promise.fits(env[name]):
            return name, f"local {name} of {procedure} must be {promise.describe()}, not {kind_of(env[name])}"
    decl = cat.procedures.get(procedure)
    if decl is None:
        return None
    for name, promise in held_parameters(cat, decl.params, decl.body).items():
        if name in env and not promise.fits(env[name]):
            return name, f"parameter {name} of {procedure} must be {promise.describe()}, not {kind_of(env[name])}"
    return None


def variable_promise(cat: Catalog, decl: ast.VarDecl) -> Declared | None:
    """What the variable ``decl`` (global, or of players, spaces or components) always
    holds: every value written to it is checked (its initial value, each assignment, a
    state read back)."""
    return declared(cat, decl.type)


def global_promise(cat: Catalog, name: str) -> Declared | None:
    """``variable_promise`` of the global variable ``name`` (None: not one)."""
    decl = cat.global_vars.get(name)
    return None if decl is None else variable_promise(cat, decl)


def checked_write(value: Value, promise: Declared | None, name: str) -> Value:
    """``value``, to be written to variable ``name`` of type ``promise``; else the rules' error."""
    if promise is None or promise.fits(value):
        return value
    raise RuleError(f"variable '{name}' must be {promise.describe()}, got {kind_of(value)}")


def table_problem(cat: Catalog, variables: Mapping[str, ast.VarDecl], values: Mapping[str, list[Value]]
                  ) -> tuple[str, int, str] | None:
    """Which value of ``variables`` (read back from saved data, each a list by owner) breaks
    its variable's type: the variable, the owner's index and why; None when none does."""
    for name, found in values.items():
        promise = variable_promise(cat, variables[name]) if name in variables else None
        for i, value in enumerate(found):
            if promise is not None and not promise.fits(value):
                return name, i, f"{name}[{i}] must be {promise.describe()}, not {kind_of(value)}"
    return None
