"""Token counts and transfers as generated source: read from the state's table in place.

The tokens of a supply are a list of plain integers by holder, ``st.supply_counts[name]``
(0 the bank, 1.. the seats, then one per component: ``Catalog.holder_slot``). Where the
supply is one of the ruleset (a constant) and the holder's source can be read twice at no
cost, ``tokens(h, s)`` is one subscript of that list at the holder's slot, computed in
place: ``h.index + 1`` for a player, ``base + h.id`` for a component, found by the exact
type of ``h`` (or without a test where the compiler knows its kind). A supply held by a
variable is tested in place the same way, and ``bank(s)`` of a supply of the ruleset is
item 0 of its list. Anything else (another kind of holder, a value that is no supply) takes
the checked path, as before: the builtin or the catalog's ``holder_slot``, which raise the
error, located where the rules wrote it. A 'gain' or
'pay' does what ``State.transfer`` does, in place where no event is recorded (procedures.py
``transfer_lines``; else the call), its holder slots and amount computed in place the same way.

Every name the source uses is made by the module, every value a constant of it: the
ruleset's text is never written into the source.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rulelang import ast

from ..model.values import Component, Player, Ref
from ..tables.builtins import BUILTINS
from ..tables.catalog import Catalog
from ..tables.declared import SUPPLY
from .module import CHEAP, Module
from .scope import Scope, promise_of

_PYTHON_LOCAL = re.compile(r"\w+$")
"""Generated source that is a Python local: always bound, read at no cost."""
TOKEN_COUNTS = frozenset({"tokens", "bank"})
"""The builtins ``TokenWriter.count`` may write in place."""


class TokenWriter:
    """Writes token reads, holder slots and amounts of transfers for one game's module."""

    def __init__(self, catalog: Catalog, module: Module):
        self.cat, self.module = catalog, module
        self._gives_supply: dict[str, bool] = {}   # function -> whether it certainly gives a supply

    def count(self, node: ast.Call, args: list[str], scope: Scope) -> str | None:
        """``tokens(h, s)`` or ``bank(s)`` (``node``, its arguments written as ``args``) in
        place where it can be (see ``tokens``), else None: the builtin is called."""
        supply = node.args[-1]
        local = isinstance(supply, ast.Name) and scope.is_local(supply.name)
        name = self.constant_supply(supply, local)
        if node.function == "bank":
            return None if name is None else f"{self.table(name, scope.tables)}[0]"
        known = scope.kinds.get(args[0])
        kind = known[0] if known is not None and known[1] == 0 else None
        if name is None and self.is_supply_for_certain(supply, scope) and (
                CHEAP.match(args[1]) or (kind is None and CHEAP.match(args[0])) or _PYTHON_LOCAL.match(args[0])):
            return self.computed_supply(args[0], args[1], kind, scope.tables)
        return self.tokens(args[0], args[1], name, kind, scope.tables)

    def is_supply_for_certain(self, node: ast.Expr, scope: Scope) -> bool:
        """Whether ``node`` is certainly a supply: a local or a variable the engine holds to
        type ``supply`` (tables/declared.py), or what ``certain_supply`` proves."""
        return promise_of(self.cat, node, scope) == SUPPLY or self.certain_supply(node, scope.is_local)

    def certain_supply(self, node: ast.Expr, is_local: Callable[[str], bool]) -> bool:
        """Whether ``node`` (its names local where ``is_local`` says) is certainly a supply:
        one of the ruleset, either of two such, or what a call of a function of the ruleset
        gives whose body certainly is one (a function whose body calls it back is not)."""
        if isinstance(node, ast.Name):
            return self.constant_supply(node, is_local(node.name)) is not None
        if isinstance(node, ast.IfExpr):
            return self.certain_supply(node.then, is_local) and self.certain_supply(node.otherwise, is_local)
        if not isinstance(node, ast.Call) or node.function not in self.cat.functions \
                or node.function in self.cat.component_types:
            return False
        found = self._gives_supply.get(node.function)
        if found is None:
            self._gives_supply[node.function] = False   # (asked again while it is asked: not known)
            decl = self.cat.functions[node.function]
            params = {p.name for p in decl.params}
            found = decl.body is not None and self.certain_supply(decl.body, params.__contains__)
            self._gives_supply[node.function] = found
        return found

    def computed_supply(self, holder: str, supply: str, kind: type | None,
                        tables: dict[str, str] | None = None) -> str:
        """``tokens(holder, supply)`` of what ``supply`` gives, certainly a supply (read once),
        where the holder is read at no cost, or the supply is: after the tests of the holder's
        kind (if not known), the supply, then its slot, as the builtin reads them. A supply
        read at no cost has its table read once where ``tables`` says (``table``)."""
        builtin = self.module.constant(BUILTINS["tokens"], "<builtin tokens>")
        text = f"{builtin}(st, {holder}, {supply})"
        counts = f"st.supply_counts[{supply}.name]"
        if tables is not None and CHEAP.match(supply):
            counts = tables.setdefault(counts, self.module.fresh("_t"))
        for test, slot in reversed(self.slots(holder, kind)):
            read = f"{counts}[{slot}]"
            if not test:
                return read
            text = f"{read} if {test} else {text}"
        return f"({text})"

    def constant_supply(self, node: ast.Expr, is_local: bool) -> str | None:
        """The name of the supply ``node`` names when it is a supply of the ruleset (not a
        local or a global variable that holds one), else None."""
        if not isinstance(node, ast.Name) or is_local or node.name in self.cat.global_vars:
            return None
        value = self.cat.constants.get(node.name)
        if type(value) is Ref and value.kind == "supply":
            return value.name
        return None

    def slots(self, holder: str, kind: type | None) -> list[tuple[str, str]]:
        """(test, slot) for each kind of holder ``holder`` may be, read in place: the test
        of its exact type (empty where ``kind`` says it is certain) and its slot."""
        player = (f"type({holder}) is _Player", f"{holder}.index + 1")
        component = (f"type({holder}) is _Component", f"{self.module.constant(self.cat.holder_base)} + {holder}.id")
        if kind is Player:
            return [("", player[1])]
        if kind is Component:
            return [("", component[1])]
        return [player, component]

    def table(self, supply_name: str, tables: dict[str, str] | None) -> str:
        """The source of the counts of supply ``supply_name``: read where used, or once into
        a local at the start of the generated function (``tables``: table -> local)."""
        text = f"st.supply_counts[{self.module.constant(supply_name)}]"
        return text if tables is None else tables.setdefault(text, self.module.fresh("_t"))

    def tokens(self, holder: str, supply: str, supply_name: str | None, kind: type | None,
               tables: dict[str, str] | None) -> str | None:
        """``tokens(holder, supply)`` in place (sources ``holder`` and ``supply``, the supply's
        name when it is one of the ruleset, the holder's kind when certain, the tables read
        once: ``table``), or None where it is not written so (then the builtin runs). The
        holder is read first, as the builtin's arguments are."""
        if kind is None and not CHEAP.match(holder):
            return None
        if supply_name is None and not CHEAP.match(supply):
            return None
        if supply_name is not None:
            supply_test, counts = "", self.table(supply_name, tables)
        else:
            supply_test, counts = self.is_supply(supply), f"st.supply_counts[{supply}.name]"
        builtin = self.module.constant(BUILTINS["tokens"], "<builtin tokens>")
        text = f"{builtin}(st, {holder}, {supply})"
        for test, slot in reversed(self.slots(holder, kind)):
            condition = " and ".join(t for t in (test, supply_test) if t)
            if not condition:
                return f"{counts}[{slot}]"
            text = f"{counts}[{slot}] if {condition} else {text}"
        return f"({text})"

    def is_supply(self, source: str) -> str:
        """The test that ``source`` (read twice at no cost) is a supply."""
        ref = self.module.constant(Ref, "<the class of supplies, dice and boards>")
        return f"type({source}) is {ref} and {source}.kind == {self.module.constant('supply')}"

    def holder_slot(self, holder: str, kind: type | None = None) -> str:
        """The source of the holder slot of the value of source ``holder``: in place for a
        player or a component when ``holder`` can be read twice (without a test where
        ``kind`` says which it is), else the catalog's."""
        checked = f"{self.module.constant(self.cat.holder_slot, '<the holder of tokens>')}({holder})"
        if kind in (Player, Component):
            return f"({self.slots(holder, kind)[0][1]})"
        if not CHEAP.match(holder):
            return checked
        text = checked
        for test, slot in reversed(self.slots(holder, None)):
            text = f"{slot} if {test} else {text}"
        return f"({text})"

    def supply_named(self, variable: str, name: str, held: bool = False) -> str:
        """The supply a variable named in 'gain'/'pay' holds (source ``variable``): its name,
        without a test where the variable is ``held`` to type ``supply``, tested in place
        where ``variable`` can be read twice."""
        if held:
            return f"{variable}.name"
        checked = f"_supply_named({variable}, {self.module.constant(name)})"
        if not CHEAP.match(variable):
            return checked
        return f"({variable}.name if {self.is_supply(variable)} else {checked})"

    def amount(self, node: ast.Expr, source: str, natural: bool = False) -> str:
        """The amount of a 'gain' or 'pay' (``node``, written as ``source``): a whole number
        not below zero, checked in place (a number written in the rules: checked now; one the
        text proves never below zero, ``natural``: integers.natural, not checked)."""
        if natural or (isinstance(node, ast.Literal) and type(node.value) is int and node.value >= 0):
            return source
        if CHEAP.match(source):
            return f"({source} if type({source}) is int and {source} >= 0 else _amount({source}))"
        value = self.module.fresh("_t")
        return f"({value} if type({value} := {source}) is int and {value} >= 0 else _amount({value}))"
