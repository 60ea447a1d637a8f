"""Which expressions are certainly integers, and how large they can be: what lets the
compiler of expressions (codegen.py) write plain Python arithmetic and comparisons.

An expression is a *proven integer* when the text alone makes it one, whatever the state
holds: an integer literal or constant, a builtin whose result is always a Python ``int``
(``size``, ``tokens``...), ``count``, arithmetic of proven integers (the runtime's
operations return an ``int`` or raise), a comprehension variable over a list literal of
them or a range, a parameter whose declared type the engine holds to (scope.py).

Its *bound* is a number no larger than which its absolute value always is. Two proven
integers compare in Python exactly as the rules' ordering compares them (``_ordering`` in
runtime.py tries Python's own comparison first); a sum, difference or product whose bounds
keep it within the rules' range (``runtime.MAX_INT``) cannot overflow and needs no check.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast
from weakref import WeakKeyDictionary

from rulelang import ast

from ..tables.attributes import OwnField, VariableReader, attribute_readers
from ..tables.builtins import AGGREGATES, BUILTINS, FREE_WORK
from ..tables.catalog import Catalog
from ..tables.declared import Declared
from ..tables.runtime import MAX_INT
from .fields import field_bound
from .scope import Scope, known_kind, promise_of

LENGTH_BOUND = 2**48
"""Larger than any length: no list, zone or text in memory has 2**48 items (a tuple of them
would need 2**51 bytes), so a size, a count or an index into one is below it."""

_LENGTHS = frozenset({"size", "index_of", "player_number"})
"""Builtins whose result is a Python ``int`` below LENGTH_BOUND, whatever their arguments
(or that raise): ``len`` of a sequence, a position in one, a player's number."""
_COUNTS = frozenset({"tokens", "bank", "abs"})
"""Builtins whose result is a Python ``int`` read from the state's token table, which holds
only the integers its supply's total is shared into (checked when a state is read), or
(``abs``) a number's size."""


def integer_bound(cat: Catalog, node: ast.Expr, scope: Scope) -> int | None:
    """A bound of ``node`` if it is a proven integer (at most MAX_INT), else None."""
    if isinstance(node, ast.Literal):
        return abs(node.value) if type(node.value) is int else None
    if isinstance(node, ast.Name):
        return _name_bound(cat, node, scope)
    if isinstance(node, ast.Call):
        return _call_bound(cat, node)
    if isinstance(node, ast.Attribute):
        if own_index(cat, node, scope):
            return LENGTH_BOUND
        for bound in (_tokens_bound(cat, node.name), field_bound(cat, node.name)):
            if bound is not None:
                return bound
        return _declared_bound(cat, node, scope)
    if isinstance(node, ast.UnaryOp):
        return integer_bound(cat, node.operand, scope) if node.op == "-" else None
    if isinstance(node, ast.IfExpr):
        then, otherwise = integer_bound(cat, node.then, scope), integer_bound(cat, node.otherwise, scope)
        return None if then is None or otherwise is None else max(then, otherwise)
    if isinstance(node, ast.BinaryOp) and node.op in ("+", "-", "*", "/", "%"):
        left, right = integer_bound(cat, node.left, scope), integer_bound(cat, node.right, scope)
        if left is None or right is None:
            return None
        return min(MAX_INT, _arithmetic_bound(node.op, left, right))
    return None


_NATURAL_CALLS = frozenset({"count", "size", "tokens", "bank", "abs"})
"""Builtins whose ``int`` is never below zero: a count, a length, a count of the token table
(which holds only the shares of a supply's total), a number's size."""


def natural(cat: Catalog, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is a proven integer never below zero: a literal or constant not below
    zero, one of ``_NATURAL_CALLS``, a local known one (``Scope.naturals``: a 'let' of one,
    lets.py), or a sum or product of such whose bound keeps it within the rules' range."""
    if integer_bound(cat, node, scope) is None:
        return False
    if isinstance(node, ast.Literal) or (isinstance(node, ast.Name) and is_constant(cat, node.name, scope)):
        value = node.value if isinstance(node, ast.Literal) else cat.constants[node.name]
        return type(value) is int and value >= 0
    if isinstance(node, ast.Name):
        text = scope.local_text(node.name)
        return text is not None and text in scope.naturals
    if isinstance(node, ast.Call):
        return node.function in _NATURAL_CALLS
    return isinstance(node, ast.BinaryOp) and node.op in ("+", "*") \
        and natural(cat, node.left, scope) and natural(cat, node.right, scope)


def sum_fits(cat: Catalog, node: ast.BinaryOp, scope: Scope) -> bool:
    """Whether ``node`` (``a + b``, ``a - b`` or ``a * b``) adds, subtracts or multiplies two
    proven integers whose bounds keep the result within the rules' range: plain Python."""
    left, right = integer_bound(cat, node.left, scope), integer_bound(cat, node.right, scope)
    return left is not None and right is not None and _arithmetic_bound(node.op, left, right) <= MAX_INT


def sum_bounded(bound: int | None) -> bool:
    """Whether a sum of proven integers, each at most ``bound`` (None: not proven), is within
    the rules' range however many they are (fewer than LENGTH_BOUND): Python's ``sum`` of
    them needs no check."""
    return bound is not None and bound * LENGTH_BOUND <= MAX_INT


def items_bound(cat: Catalog, source: ast.Expr, scope: Scope) -> int | None:
    """A bound of every item of ``source`` if each is a proven integer: a list literal of
    them, a range ``a..b`` of two, or a constant list of integers; else None."""
    if isinstance(source, ast.ListExpr) and source.items:
        bounds = [integer_bound(cat, item, scope) for item in source.items]
        return None if any(b is None for b in bounds) else max(b for b in bounds if b is not None)
    if isinstance(source, ast.BinaryOp) and source.op == "..":
        low, high = integer_bound(cat, source.left, scope), integer_bound(cat, source.right, scope)
        return None if low is None or high is None else max(low, high)
    if isinstance(source, ast.Name) and is_constant(cat, source.name, scope):
        value = cat.constants[source.name]
        if type(value) is tuple and value and all(type(v) is int for v in value):
            return max(abs(v) for v in value if type(v) is int)
    return None


_TUPLES = frozenset({"list", "values", "reversed", "rotate", "slice", "insert", "remove",
                     "spaces", "neighbors", "within", "ahead", "behind", "region", "largest_region", "lines"})
"""Builtins whose result is always a Python tuple (a list of the rules), or that raise."""


def is_tuple(cat: Catalog, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is certainly a list (a Python tuple) from the text alone: a list
    literal, a comprehension, a range, a sum of two lists, ``sorted(...)``, a builtin of
    _TUPLES, a constant list, ``players`` and ``seats``, an 'if ... then ... else' of two lists, a call of a function
    of the ruleset whose body is one."""
    if isinstance(node, (ast.ListExpr, ast.Comprehension)):
        return True
    if isinstance(node, ast.IfExpr):
        return is_tuple(cat, node.then, scope) and is_tuple(cat, node.otherwise, scope)
    if isinstance(node, ast.BinaryOp):
        return node.op == ".." or (node.op == "+" and is_tuple(cat, node.left, scope)
                                   and is_tuple(cat, node.right, scope))
    if isinstance(node, ast.Name) and scope.local_text(node.name) is not None:   # (or one of lists of a kind)
        text = scope.local_text(node.name)
        return text in scope.lists or scope.kinds.get(text or "", (None, 0))[1] >= 1
    if isinstance(node, ast.Name) and is_constant(cat, node.name, scope):
        return type(cat.constants[node.name]) is tuple
    if isinstance(node, ast.Name) and node.name in ("players", "seats") and not scope.is_local(node.name) \
            and node.name not in cat.global_vars:   # (the catalog's tuples of players: codegen._Name)
        return True
    if isinstance(node, (ast.Name, ast.Attribute)):   # a variable declared a list
        promise = promise_of(cat, node, scope)
        return promise is not None and promise == Declared(tuple, promise.item)
    if isinstance(node, ast.Call) and node.function in cat.functions and node.function not in cat.component_types:
        return _of_body(cat, cat.functions[node.function], is_tuple, False)
    if isinstance(node, ast.Call) and node.function not in cat.component_types and node.function not in cat.functions:
        if node.function == "sorted":
            return True
        return (node.function in _TUPLES and node.function not in cat.load_time_functions
                and node.function not in AGGREGATES)
    return False


_BODIES: WeakKeyDictionary[Catalog, dict[tuple[str, str], object]] = WeakKeyDictionary()
T = TypeVar("T")


def _of_body(cat: Catalog, decl: ast.FunctionDecl, question: Callable[[Catalog, ast.Expr, Scope], T],
             unknown: T) -> T:
    """What ``question`` answers of the body of function ``decl`` of the ruleset, whatever
    its parameters hold; ``unknown`` for a body that calls itself back (asked again while it
    is asked), or none."""
    found = _BODIES.setdefault(cat, {})
    key = (decl.name, question.__name__)
    if key not in found:
        found[key] = unknown
        if decl.body is not None:
            params = {p.name: f"_p{i}" for i, p in enumerate(decl.params)}
            found[key] = question(cat, decl.body, Scope(set(), str, params, "0", env="None"))
    return cast(T, found[key])


def length_bound(cat: Catalog, node: ast.Expr, scope: Scope) -> int | None:
    """A bound of the length of ``node``, a list, from the text alone: a list literal, a
    constant list, an 'if' of two bounded lists, a sum of two, a call of a function of the
    ruleset whose body is one; else None."""
    if isinstance(node, ast.ListExpr):
        return len(node.items)
    if isinstance(node, ast.IfExpr) or (isinstance(node, ast.BinaryOp) and node.op == "+"):
        first, second = (node.then, node.otherwise) if isinstance(node, ast.IfExpr) else (node.left, node.right)
        one, other = length_bound(cat, first, scope), length_bound(cat, second, scope)
        if one is None or other is None:
            return None
        return max(one, other) if isinstance(node, ast.IfExpr) else one + other
    if isinstance(node, ast.Name) and scope.local_text(node.name) is not None:
        return scope.lengths.get(scope.local_text(node.name) or "")
    if isinstance(node, ast.Name) and is_constant(cat, node.name, scope):
        value = cat.constants[node.name]
        return len(value) if type(value) is tuple else None
    if isinstance(node, ast.Call) and node.function in cat.functions and node.function not in cat.component_types:
        return _of_body(cat, cat.functions[node.function], length_bound, None)
    return None


def short_list(cat: Catalog, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is a list literal or a constant list of at most FREE_WORK items:
    a list that ``as_list`` gives back as it is, with no charge."""
    if isinstance(node, ast.ListExpr):
        return len(node.items) <= FREE_WORK
    if isinstance(node, ast.Name) and node.name in ("players", "seats") and not scope.is_local(node.name) \
            and node.name not in cat.global_vars:
        return len(cat.players) <= FREE_WORK
    if isinstance(node, ast.Name) and is_constant(cat, node.name, scope):
        value = cat.constants[node.name]
        return type(value) is tuple and len(value) <= FREE_WORK
    return False


def own_index(cat: Catalog, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is ``x.index`` of a local or a variable known to hold a player or a
    space whose index is its own (its seat, its place on its board), not a variable of
    that name."""
    if not isinstance(node, ast.Attribute) or node.name != "index" or not isinstance(node.target, ast.Name):
        return False
    target = node.target
    text = scope.local_text(target.name)
    known = scope.kinds.get(text) if text is not None else known_kind(promise_of(cat, target, scope))
    return known is not None and known[1] == 0 and isinstance(attribute_readers(cat, "index").get(known[0]), OwnField)


def _arithmetic_bound(op: str, left: int, right: int) -> int:
    """A bound of ``a op b`` for ``|a| <= left`` and ``|b| <= right``."""
    if op in ("+", "-"):
        return left + right
    if op == "*":
        return left * right
    return left if op == "/" else right   # floor division shrinks; a remainder is below the divisor


def _name_bound(cat: Catalog, node: ast.Name, scope: Scope) -> int | None:
    name = node.name
    text = scope.local_text(name)
    if text is not None:
        return scope.integers.get(text)
    if is_constant(cat, name, scope):
        value = cat.constants[name]
        return abs(value) if type(value) is int else None
    return _declared_bound(cat, node, scope)


def _declared_bound(cat: Catalog, node: ast.Expr, scope: Scope) -> int | None:
    """MAX_INT for a variable declared ``int`` (its values are checked when written), else None."""
    promise = promise_of(cat, node, scope)
    return MAX_INT if promise is not None and promise == Declared(int) else None


def is_constant(cat: Catalog, name: str, scope: Scope) -> bool:
    """Whether ``name`` is read as one of the game's constants (as ``_Name`` resolves it)."""
    return (not scope.is_local(name) and name not in cat.global_vars and name not in ("players", "seats")
            and name in cat.constants)


def _call_bound(cat: Catalog, node: ast.Call) -> int | None:
    """The bound of a call of a builtin or aggregate whose result is always an integer."""
    name = node.function
    if name in cat.component_types or name in cat.functions:
        return None
    if name == "count":
        return LENGTH_BOUND
    if name in AGGREGATES or name in cat.load_time_functions or name not in BUILTINS:
        return None
    if name in _LENGTHS:
        return LENGTH_BOUND
    if name in ("tokens", "bank") and cat.supplies:
        return max(cat.supplies.values())   # a count is at most its supply's total
    return MAX_INT if name in _COUNTS else None


def _tokens_bound(cat: Catalog, name: str) -> int | None:
    """The total of supply ``name`` when ``x.name`` reads only its tokens, whatever ``x`` is
    (of another kind it raises): a count of the state's token table, at most that total."""
    readers = attribute_readers(cat, name)
    if name not in cat.supplies or not readers:
        return None
    if all(isinstance(r, VariableReader) and r.table == "supply_counts" for r in readers.values()):
        return cat.supplies[name]
    return None
