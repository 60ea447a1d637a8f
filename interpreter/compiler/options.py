"""The options of a choice written in place (choices.py, resumable.py) that are the spaces of
a list known at load kept by a test of each: written out space by space, no comprehension.

``choose c in [s for s in spaces(grid) if s.mark == none] by p`` goes through a constant
list; its test reads each space only by its index (searches.py reads the tables so). The
code charges the list's items first, as ``runtime.items`` charges them before the
comprehension tests any, then builds the tuple of the spaces whose test holds, in order,
each test written with its space's index: the same options, work and errors. A list of at
most MASKED_MOST distinct spaces takes the tuple from a table made at load, at the index whose bits are
the tests that hold, found by a conditional on each test in turn (no tuple built, no sum), and
left in the local SUBSET.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space

from ..tables.builtins import FREE_WORK
from .known import known_list
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter

__all__ = ["written_out"]

MASKED_MOST = 10  # lists of spaces this long at most: their options looked up by which tests hold (2**10 tuples)
SUBSET = "_subset"  # the local that holds that index (the choice keeps its decisions by it; the options are distinct)


def written_out(writer: ExpressionWriter, node: ast.Expr, scope: Scope, local: str) -> list[str] | None:
    """The lines that set ``local`` to ``node``, a comprehension of one clause whose element
    is its variable, over a list of at most FREE_WORK spaces known at load, with a test that
    reads the space only by its index; None for any other expression."""
    if not (isinstance(node, ast.Comprehension) and len(node.clauses) == 1):
        return None
    (clause,) = node.clauses
    if clause.condition is None or not (isinstance(node.element, ast.Name) and node.element.name == clause.var):
        return None
    known = known_list(writer, clause.source, scope)
    if not known or len(known) > FREE_WORK or any(type(item) is not Space for item in known):
        return None
    saved = dict(scope.python)
    var = scope.python[clause.var] = writer.module.fresh("_v")
    writer.bind_item_kind(var, clause.source, scope)
    test = writer.write(clause.condition, scope)
    scope.python = saved
    if re.search(rf"\b{var}\b(?!\.index\b)", test):
        return None
    index = re.compile(rf"\b{var}\.index\b")
    work = writer.module.fresh("_w")
    charged = [f"{work} = st.work + {len(known)}", f"st.work = {work}",   # (as runtime.items charges them)
               f"if {work} > st.max_steps:", "    st.charge(0)"]
    spaces = [space for space in known if type(space) is Space]
    if len(known) <= MASKED_MOST and len(set(spaces)) == len(spaces):   # (each subset's tuple, made at load)
        subsets = tuple(tuple(space for at, space in enumerate(spaces) if mask >> at & 1)
                        for mask in range(1 << len(spaces)))
        table = writer.module.constant(subsets, "<the options kept, by the tests that hold (bit by bit)>")
        tests = [f"({index.sub(str(space.index), test)})" for space in spaces]
        return [*charged, f"{SUBSET} = {_decided(tests, 0, 0)}", f"{local} = {table}[{SUBSET}]"]
    kept = [f"*({writer.module.constant((space,))} if ({index.sub(str(space.index), test)}) else ())"
            for space in spaces]
    return [*charged, f"{local} = ({', '.join(kept)}, )"]


def _decided(tests: list[str], at: int, mask: int) -> str:
    """The index whose bit ``k`` is set where test ``k`` holds: a conditional on each test
    from ``tests[at]`` on in turn (those before it gave ``mask``), each test made once, in
    order, and no arithmetic."""
    if at == len(tests):
        return str(mask)
    held, failed = (_decided(tests, at + 1, bits) for bits in (mask | 1 << at, mask))
    return f"({held} if {tests[at]} else {failed})"
