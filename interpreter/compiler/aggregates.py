"""The aggregates of the language (``sum``, ``count``, ``any``, ``all``, ``min``, ``max``,
``first``, ``best``, ``worst``, ``sorted``) as the generated code writes them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.problems import unchecked
from .integers import sum_bounded
from .scope import Scope
from .searches import short_circuit

if TYPE_CHECKING:
    from .codegen import ExpressionWriter

# aggregate -> the runtime function applied to its elements (or, keyed, its pairs)
_OVER_ELEMENTS = {"sum": "_total", "count": "_count", "any": "any", "all": "all", "min": "_least",
                  "max": "_most", "first": "_first"}
_OVER_PAIRS = {"best": "_best", "worst": "_worst"}
COMPILED_AGGREGATES = frozenset({*_OVER_ELEMENTS, *_OVER_PAIRS, "sorted"})
"""The aggregates the compiler writes: the language's, no more and no fewer (a test checks)."""


def aggregate(writer: ExpressionWriter, node: ast.Call, scope: Scope) -> str:
    """``name(...)`` of an aggregate: any/all/first of one clause as loops (searches.py),
    min/max of two values, a sum of integers it cannot overflow as Python's own, else the
    runtime function over the elements (or, keyed, the pairs) of the list it goes through."""
    name, args = node.function, node.args
    gen = args[0] if len(args) == 1 and isinstance(args[0], ast.Generator) else None
    if gen is not None and gen.key is None and len(gen.clauses) == 1 and name in ("any", "all", "first"):
        return short_circuit(writer, name, gen, scope)
    if name in ("min", "max") and len(args) == 2:
        return f"_{'least' if name == 'min' else 'most'}_of_two({writer.write(args[0], scope)}, " \
               f"{writer.write(args[1], scope)})"
    if gen is not None:
        keyed = gen.key is not None
        parts = (gen.element, gen.key) if gen.key is not None else (gen.element,)
        bounds: list[int | None] = []
        values, descending = writer.listing(gen.clauses, parts, scope, bounds=bounds), gen.descending
        if name == "sum" and not keyed and sum_bounded(bounds[0]):   # (integers the sum cannot overflow)
            return f"sum({values})"
        if name in ("min", "max") and not keyed and bounds[0] is not None:   # (integers: Python orders them)
            return f"{name}({values} or (None,))"   # (none of no items)
    elif len(args) == 1:
        keyed, values, descending = False, f"_as_list(st, {writer.write(args[0], scope)})", False
    else:
        raise unchecked(f"{name}() takes one list or generator", node.span)
    if name == "sorted" and keyed and bounds[1] is not None:
        return sorted_by_integers(values, descending)
    if name == "sorted":
        return f"{'_in_order_by' if keyed else '_in_order'}({values}, {descending})"
    if name in _OVER_PAIRS:
        if not keyed:
            raise unchecked(f"{name}() needs 'by KEY'", node.span)
        return f"{_OVER_PAIRS[name]}({values})"
    return f"{_OVER_ELEMENTS[name]}({f'_elements({values})' if keyed else values})"


def sorted_by_integers(pairs: str, descending: bool) -> str:
    """``sorted`` of the list ``pairs`` (element, key) whose keys the text proves integers:
    ``runtime.in_order_by``'s own sort (stable, ties in the list's order), without its call
    and the test of the keys' classes."""
    return f"tuple(map(_first_of, sorted({pairs}, key=_second_of, reverse={descending})))"
