"""A list of counts by key, ``[count(c for c in ZONE if TEST and c.f == k) for k in lo..hi]``
(how many components of a zone hold each value of a field), counted in one pass over the
zone instead of one pass per key: each component that passes ``TEST`` adds one to the count
of its field's value, in a dictionary whose keys are the range's numbers.

It is the same list where nothing but the key tells the passes apart: ``ZONE`` and ``TEST``
do not read ``k``, and nothing in them can fail or change the state (``TEST`` compares fields
of the component, which every component has, with constants); the field holds an integer in
every component (``fields.field_bound``), so it is one of the keys exactly where it equals
one. The work is the same items, charged before the pass (a step-budget error the same one,
at the same statement); the zone is read only where the range has numbers, as the loop read
it in its first round.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..tables import runtime
from .fields import field_bound
from .moves import zone_list

if TYPE_CHECKING:
    from ..tables.catalog import Catalog
    from .module import Module

_COUNT_OF_ZONE = re.compile(r"_count\(\[(_v\d+) for \1 in (_k\d+)\(st, (.+?)\) if (.+)\]\)")
_OVER_A_RANGE = re.compile(r"for (\w+) in _items\(st, (_range\(st, .+\))\)")
_PURE_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Is, ast.IsNot,
               ast.Eq, ast.NotEq, ast.Name, ast.Load, ast.Subscript, ast.Attribute)


class KeyedCount(NamedTuple):
    """The parts of a count by key: the item's variable, the zone's text, the test other than
    the key's (None: none) and the constant that names the field."""

    item: str
    zone: str
    test: str | None
    field: str


def counted_by_key(module: Module, cat: Catalog, listed: str, element: str, loops: list[str],
                   outer_lines: Callable[[], list[str]], charged: Callable[[str], list[str]]) -> list[str] | None:
    """The lines that compute the list ``listed`` of a lifted comprehension (its ``element``
    and ``loops``; ``outer_lines()``: its clause's lines, ending with its ``for``) as counts
    by key, in one pass; None where it is not one (then as it is)."""
    clause = _OVER_A_RANGE.fullmatch(loops[0]) if len(loops) == 1 else None
    counted = _COUNT_OF_ZONE.fullmatch(element)
    if clause is None or counted is None or module.namespace.get(counted.group(2)) is not runtime.zone_items:
        return None
    parts = _keyed_parts(module, cat, clause.group(1), counted.group(1), counted.group(3), counted.group(4))
    if parts is None:
        return None
    outer = outer_lines()
    items = outer[-1].removesuffix(":").split(" in ", 1)[1]
    if not re.fullmatch(r"_s\d+", items):
        return None
    zone, counts, value = module.fresh("_s"), module.fresh("_c"), module.fresh("_f")
    tested = [f"if {parts.test}:"] if parts.test is not None else []
    inner = "    " * len(tested)
    return [f"{listed} = []", *outer[:-1], f"if {items}:",
            f"    {zone} = {zone_list(parts.zone, module)}",
            *("    " + line for line in charged(f"len({items}) * len({zone})")),
            f"    {counts} = dict.fromkeys({items}, 0)",
            f"    for {parts.item} in {zone}:",
            *("        " + line for line in tested),
            f"        {inner}{value} = {parts.item}.record[{parts.field}]",
            f"        {inner}if {value} in {counts}:",
            f"        {inner}    {counts}[{value}] += 1",
            f"    {listed} = [*map({counts}.__getitem__, {items})]"]


def _keyed_parts(module: Module, cat: Catalog, key: str, item: str, zone: str, test: str) -> KeyedCount | None:
    """The parts of ``count(item in zone if test)`` whose test is ``item.f == key`` (either
    way round), alone or an operand of an 'and' whose other operands compare fields of
    ``item`` with constants (nothing that can fail: the order they are tested in does not
    matter); the field an integer in every component, ``zone`` not reading ``key``."""
    if re.search(rf"\b{key}\b", zone):
        return None
    tree = ast.parse(test, mode="eval").body
    operands = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    fields = [_key_field(operand, item, key) for operand in operands]
    keyed = [i for i, field in enumerate(fields) if field is not None]
    if len(keyed) != 1:
        return None
    field, others = fields[keyed[0]], operands[:keyed[0]] + operands[keyed[0] + 1:]
    rest = [ast.get_source_segment(test, operand) for operand in others]
    if field is None or not isinstance(namespaced := module.namespace.get(field), str) \
            or field_bound(cat, namespaced) is None or not all(rest):
        return None
    if not all(_pure(operand, item, key) for operand in others):
        return None
    return KeyedCount(item, zone, " and ".join(f"({part})" for part in rest) or None, field)


def _key_field(node: ast.expr, item: str, key: str) -> str | None:
    """The constant naming the field of ``item.record[F] == key`` (either way round), or None."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq):
        return None
    sides = [node.left, node.comparators[0]]
    keys = [s for s in sides if isinstance(s, ast.Name) and s.id == key]
    fields = [_field_read(s, item) for s in sides]
    found = [f for f in fields if f is not None]
    return found[0] if len(keys) == 1 and len(found) == 1 else None


def _field_read(node: ast.expr, item: str) -> str | None:
    """The constant of ``item.record[_kN]``, or None if ``node`` is not such a read."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "record" \
            and isinstance(node.value.value, ast.Name) and node.value.value.id == item \
            and isinstance(node.slice, ast.Name) and re.fullmatch(r"_k\d+", node.slice.id):
        return node.slice.id
    return None


def _pure(node: ast.expr, item: str, key: str) -> bool:
    """Whether ``node`` only compares fields of ``item`` with constants (``_kN``) by identity
    or equality, with 'and', 'or', 'not': nothing that can fail, and no read of ``key``."""
    for part in ast.walk(node):
        if not isinstance(part, _PURE_NODES):
            return False
        if isinstance(part, ast.Name) and part.id != item and not re.fullmatch(r"_k\d+", part.id):
            return False
        if isinstance(part, ast.Subscript) and _field_read(part, item) is None:
            return False
        if isinstance(part, ast.Attribute) and part.attr != "record":
            return False
    return True
