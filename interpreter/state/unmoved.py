"""What a permutation of hidden components leaves unmoved, for the information-set sampler.

A sample swaps components of one type among their places and relabels the values that may
hold components; every other table of the state (the tokens, the variables of plain types,
the sizes of the zones) is the original's. An invariant that reads only those tables and the
game's static data (the decks' components and their fields, players, spaces, enums, boards)
has in the sample the value it has in the original, as long as rebuilding the decision
awaited changed none of those tables either (``same_plain_tables``): it need not be computed
on the sample (``blind_invariants``). The test is on the ruleset's text, as the compiler
reads it (``compiler/codegen.py``), and says no wherever it is not sure: a zone read other
than by ``size``, a variable that may hold a component, a call of a ruleset function or of a
builtin that reads where components lie.
"""
from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING

from rulelang import ast, boards

from ..model.values import Component, EnumType, EnumValue, Player, Ref
from ..tables.builtins import AGGREGATES

if TYPE_CHECKING:
    from ..tables.catalog import Catalog
    from .state import State

_PLAIN_TYPES = frozenset({"int", "bool", "string", "player", "space"})

_STATIC_CALLS = frozenset({"size", "abs", "bank", "values", "list"}) | AGGREGATES
"""The builtins whose value is a function of their arguments and the tokens alone (a zone as
an argument is read through ``size`` only, which a permutation keeps)."""


def may_hold_components(catalog: Catalog, declared: ast.TypeRef | None) -> bool:
    """Whether a variable of the ``declared`` type may hold a component (a list of numbers
    needs no relabelling: tables of them can be long)."""
    if declared is None:
        return True
    if declared.name in ("list", "map"):   # (a map's keys are players)
        return may_hold_components(catalog, declared.item)
    return declared.name not in _PLAIN_TYPES and declared.name not in catalog.enums


def blind_invariants(catalog: Catalog) -> list[bool]:
    """For each declared invariant, in order, whether a permutation of hidden components
    leaves its value unchanged (see the module's docstring)."""
    reads = _Reads(catalog)
    return [decl.condition is not None and reads.static(decl.condition, frozenset())
            for decl in catalog.declared(ast.InvariantDecl)]


def static_expression(catalog: Catalog, e: ast.Expr) -> bool:
    """Whether ``e`` (outside any comprehension) has the same value in a sample as in its
    original (see the module's docstring)."""
    return _Reads(catalog).static(e, frozenset())


def uniform_fields(catalog: Catalog) -> list[frozenset[str] | None]:
    """For each declared invariant, in order, the fields of components through which alone
    it reads what the zones hold (``_FieldReads``), or None if it reads them otherwise (or
    reads anything else a permutation may change). An invariant with fields ``F`` keeps its
    value under a permutation of components that agree on ``F`` within each group, as long as
    nothing else changed (the tables ``same_plain_tables`` compares, and the zones)."""
    found: list[frozenset[str] | None] = []
    for decl in catalog.declared(ast.InvariantDecl):
        reads = _FieldReads(catalog)
        found.append(frozenset(reads.fields) if decl.condition is not None
                     and reads.static(decl.condition, frozenset()) else None)
    return found


def same_plain_tables(sample: State, original: State) -> bool:
    """Whether the tables a blind invariant may read are the same in ``sample`` as in
    ``original``: the tokens, the sizes of the zones, the variables of plain types."""
    if sample.supply_counts != original.supply_counts:
        return False
    if list(map(len, sample.zones)) != list(map(len, original.zones)):
        return False
    catalog = sample.game.catalog
    mine, theirs = sample.global_values, original.global_values
    if mine.keys() != theirs.keys() or any(
            mine[k] is not theirs[k] for k in mine if not may_hold_components(catalog, catalog.global_vars[k].type)):
        return False
    declared = (catalog.player_vars, catalog.space_vars, catalog.component_vars)
    tables = ((sample.player_values, original.player_values), (sample.space_values, original.space_values),
              (sample.component_values, original.component_values))
    for (table, other), variables in zip(tables, declared, strict=True):
        if table.keys() != other.keys():
            return False
        for name, values in table.items():
            if not may_hold_components(catalog, variables[name].type) and not (
                    len(values) == len(other[name]) and all(map(is_, values, other[name]))):
                return False
    return True


class _Reads:
    """Whether an expression reads only what a permutation leaves unmoved (``static``), and
    whether it is a zone (``zone``), names resolved as the compiler resolves them."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def static(self, e: ast.Expr, local: frozenset[str]) -> bool:
        """Whether ``e``, with the comprehension variables ``local`` (each bound to a static
        value), has the same value in a sample as in its original."""
        if isinstance(e, ast.Literal):
            return True
        if isinstance(e, ast.Name):
            return self._name(e.name, local)
        if isinstance(e, ast.Attribute):
            return self._attribute(e, local)
        if isinstance(e, ast.Call):
            return self._call(e, local)
        if isinstance(e, ast.Index):
            return self.static(e.target, local) and self.static(e.index, local)
        if isinstance(e, ast.BinaryOp):
            return self.static(e.left, local) and self.static(e.right, local)
        if isinstance(e, ast.UnaryOp):
            return self.static(e.operand, local)
        if isinstance(e, ast.IfExpr):
            return all(self.static(part, local) for part in (e.condition, e.then, e.otherwise))
        if isinstance(e, ast.ListExpr):
            return all(self.static(item, local) for item in e.items)
        if isinstance(e, ast.Comprehension | ast.Generator):
            return self._comprehension(e, local)
        return False

    def _name(self, name: str, local: frozenset[str]) -> bool:
        """A comprehension variable, a global variable of a plain type, the players, or a
        constant made of static values (a deck's components, not a zone)."""
        catalog = self.catalog
        if name in local:
            return True
        if name in catalog.global_vars:
            return not may_hold_components(catalog, catalog.global_vars[name].type)
        if name in ("players", "seats"):
            return True
        return name in catalog.constants and _static_value(catalog.constants[name])

    def _attribute(self, e: ast.Attribute, local: frozenset[str]) -> bool:
        """An enum's value, or ``x.name`` of a static ``x`` that is, for every kind of ``x``
        that has it, a variable of a plain type, a supply's tokens, a field or an index."""
        catalog, name = self.catalog, e.name
        target = e.target
        if isinstance(target, ast.Name) and target.name not in local and target.name in catalog.enums:
            return True
        if self._player_zone(name) or not self._has_attribute(name):
            return False
        for variables in (catalog.player_vars, catalog.space_vars, catalog.component_vars):
            if name in variables and may_hold_components(catalog, variables[name].type):
                return False
        return self.static(target, local)

    def _player_zone(self, name: str) -> bool:
        """Whether ``p.name`` may be one of each player's zones."""
        zone = self.catalog.zones.get(name)
        return zone is not None and zone.owner == "player"

    def _has_attribute(self, name: str) -> bool:
        """Whether anything has the attribute ``name`` read as a variable, a supply's tokens, a
        field of a component, a space's attribute, ``index`` or a space's ``name``."""
        catalog = self.catalog
        return (name in ("index", "name") or name in catalog.player_vars or name in catalog.space_vars
                or name in catalog.component_vars or name in catalog.supplies
                or any(name in {f.name for f in c.fields} for c in catalog.component_types.values())
                or any(name in s.attributes for s in catalog.spaces))

    def _call(self, e: ast.Call, local: frozenset[str]) -> bool:
        """A builtin of ``_STATIC_CALLS`` (not a constructor, a ruleset function or a load-time
        function) of static arguments; ``size`` of a zone too."""
        catalog, name = self.catalog, e.function
        if name in catalog.component_types or name in catalog.functions or name not in _STATIC_CALLS:
            return False
        if name not in AGGREGATES and name in catalog.load_time_functions:
            return False
        if name == "size" and len(e.args) == 1 and self.zone(e.args[0], local):
            return True
        return all(self.static(arg.value if isinstance(arg, ast.KeywordArg) else arg, local) for arg in e.args)

    def zone(self, e: ast.Expr, local: frozenset[str]) -> bool:
        """Whether ``e`` is a zone named by static means: a shared zone's name, or
        ``p.name`` of a static ``p`` where each player has a zone ``name``."""
        catalog = self.catalog
        if isinstance(e, ast.Name):
            return (e.name not in local and e.name not in catalog.global_vars and e.name not in ("players", "seats")
                    and e.name in catalog.zone_slot and catalog.zones[e.name].owner is None)
        if isinstance(e, ast.Attribute) and self._player_zone(e.name):
            variables = (catalog.player_vars, catalog.space_vars, catalog.component_vars)
            if any(e.name in v and may_hold_components(catalog, v[e.name].type) for v in variables):
                return False
            return self.static(e.target, local)
        return False

    def _comprehension(self, e: ast.Comprehension | ast.Generator, local: frozenset[str]) -> bool:
        """Each clause's source static (its variable then is), its condition, the element and
        the key static."""
        for clause in e.clauses:
            if not self.static(clause.source, local):
                return False
            local = local | {clause.var}
            if clause.condition is not None and not self.static(clause.condition, local):
                return False
        key = e.key if isinstance(e, ast.Generator) else None
        return self.static(e.element, local) and (key is None or self.static(key, local))


def _static_value(value: object) -> bool:
    """Whether a constant is made of values a permutation cannot move (not a zone)."""
    if value is None or isinstance(value, int | str | Component | Player | EnumValue | EnumType | boards.Space):
        return True
    if isinstance(value, tuple):
        return all(_static_value(item) for item in value)
    if isinstance(value, Ref):
        return value.kind in ("supply", "die", "board")
    return False


def _opaque(name: str) -> str:
    """How ``_FieldReads`` marks a comprehension variable bound to the components of a zone
    among the names in scope (no name of the rules has a NUL)."""
    return "\0" + name


class _FieldReads(_Reads):
    """``_Reads`` where a zone may also be read by going through its components (as the
    source of a comprehension, alone, through ``list`` or joined by ``+``), each of them only
    read by a field of components (``fields``: those read), not by a variable or tokens of
    its own, nor compared or passed on: the value then is the same wherever components that
    agree on those fields take each other's places."""

    def __init__(self, catalog: Catalog):
        super().__init__(catalog)
        self.fields: set[str] = set()
        self.component_fields = {f.name for c in catalog.component_types.values() for f in c.fields}

    def _name(self, name: str, local: frozenset[str]) -> bool:
        return _opaque(name) not in local and super()._name(name, local)

    def zone(self, e: ast.Expr, local: frozenset[str]) -> bool:
        return not (isinstance(e, ast.Name) and _opaque(e.name) in local) and super().zone(e, local)

    def _attribute(self, e: ast.Attribute, local: frozenset[str]) -> bool:
        """``c.name`` of a component of a zone: a field (recorded), not a variable or tokens."""
        target, catalog = e.target, self.catalog
        if isinstance(target, ast.Name) and _opaque(target.name) in local:
            if e.name in catalog.component_vars or e.name in catalog.supplies or e.name not in self.component_fields:
                return False
            self.fields.add(e.name)
            return True
        return super()._attribute(e, local)

    def _comprehension(self, e: ast.Comprehension | ast.Generator, local: frozenset[str]) -> bool:
        """As ``_Reads``, and a clause over the components of zones binds its variable to
        one of them."""
        for clause in e.clauses:
            name = clause.var
            if self.static(clause.source, local):
                local = (local - {_opaque(name)}) | {name}
            elif self._components(clause.source, local):
                local = (local - {name}) | {_opaque(name)}
            else:
                return False
            if clause.condition is not None and not self.static(clause.condition, local):
                return False
        key = e.key if isinstance(e, ast.Generator) else None
        return self.static(e.element, local) and (key is None or self.static(key, local))

    def _components(self, e: ast.Expr, local: frozenset[str]) -> bool:
        """Whether ``e`` is the components of zones in their order: a zone, ``list`` of one,
        or ``+`` of those."""
        if isinstance(e, ast.Call) and e.function == "list" and len(e.args) == 1 \
                and e.function not in self.catalog.functions:
            return self._components(e.args[0], local)
        if isinstance(e, ast.BinaryOp) and e.op == "+":
            return self._components(e.left, local) and self._components(e.right, local)
        return self.zone(e, local)
