"""Which functions of a ruleset can never call each other too deep.

A call of a function of the ruleset is bounded in depth (``runtime.enter``: at most
MAX_FUNCTION_DEPTH calls within one another) and its generated function takes the depth
it runs at. A function from which no chain of calls comes back to a function already in it
(the call graph has no cycle below it) and no chain is longer than that bound can never go
too deep when it is called from outside any function: written without the depth, its calls
cost what a Python call costs, charged to the work budget as before (codegen.py).
"""
from __future__ import annotations

from collections.abc import Mapping

from rulelang import ast
from rulelang.check.tree import walk

from ..tables.runtime import MAX_FUNCTION_DEPTH

__all__ = ["depth_free"]


def depth_free(functions: Mapping[str, ast.FunctionDecl], constructors: Mapping[str, object]) -> frozenset[str]:
    """The functions whose calls from outside any function never go too deep: no cycle of
    calls below them, and no chain of calls longer than MAX_FUNCTION_DEPTH (the function
    itself counted). ``constructors``: the names a call builds a component by, not a function."""
    calls = {name: {node.function for node in walk(decl.body) if isinstance(node, ast.Call)
                    and node.function in functions and node.function not in constructors}
             for name, decl in functions.items() if decl.body is not None}
    heights: dict[str, int | None] = {}  # the longest chain from each, None: a cycle below
    try:
        for name in calls:
            _height(name, calls, heights, set())
    except RecursionError:  # (chains of calls far longer than the bound: every call counts its depth)
        return frozenset()
    return frozenset(name for name, height in heights.items()
                     if height is not None and height <= MAX_FUNCTION_DEPTH)


def _height(name: str, calls: Mapping[str, set[str]], heights: dict[str, int | None], path: set[str]) -> int | None:
    """The longest chain of calls from ``name`` (itself included), or None if one comes back
    to a function on ``path`` or goes through a function with no body; kept in ``heights``."""
    if name in heights:
        return heights[name]
    if name in path or name not in calls:
        return None
    path.add(name)
    height: int | None = 1
    for callee in sorted(calls[name]):
        below = _height(callee, calls, heights, path)
        if below is None:
            height = None
            break
        height = max(height, below + 1) if height is not None else None
    path.discard(name)
    heights[name] = height
    return height
