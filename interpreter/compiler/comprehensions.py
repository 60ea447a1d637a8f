"""A comprehension of a procedure's statement (whose code reads the state's tables where it
uses them, as statements may change them) reads each table it uses for its items once,
before its loops, and each variable of a player, space or component bound outside it once
too: in clauses over a list of one item first (``for _t3 in (st.component_values[_k5],)``,
then ``for _h4 in (_t3[_l2.id],)``, which Python writes as an assignment). The tables hold
every variable of their kind and such an owner is certainly one, so these reads cannot
fail, and nothing changes a table while an expression is computed: the same values, read
once instead of once an item."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.diagnostics import Span

from .module import Module
from .scope import Scope

if TYPE_CHECKING:
    from .procedures import ProcedureWriter

_OWNED_READ = re.compile(r"(_t\d+\[(\w+|env\[\w+\])\.(?:id|index)(?: \+ _k\d+)?\])")
"""A read of a variable of a player, space or component from a table (``Scope.tables``):
the read, and whose it is (a Python local, or a held parameter in the environment: one
the scope knows the kind of is always bound)."""


def read_before(module: Module, scope: Scope, names: list[str], element: str, loops: list[str]
                ) -> tuple[str, list[str]]:
    """The ``element`` and the ``loops`` of a comprehension whose variables are ``names``
    (its first clause ``loops[first]``), with the reads of the tables ``scope`` found (then
    forgotten) and of the variables of known owners bound outside it made once, before its
    loops, where its items read them; a read only its first source makes, where it is."""
    tables, scope.tables = scope.tables or {}, None
    first = 1 if loops[0].endswith("(_Visits(),)") else 0
    per_item = " ".join([element, *loops[first + 1:]])
    reads: dict[str, str] = {}
    for read, owner in _OWNED_READ.findall(per_item):
        known = scope.kinds.get(owner)
        if owner not in names and known is not None and known[1] == 0 and read not in reads:
            reads[read] = module.fresh("_h")
    for read, local in reads.items():
        element, loops = element.replace(read, local), [loop.replace(read, local) for loop in loops]
    per_item = " ".join([element, *loops[first + 1:]])
    hoisted = {table: local for table, local in tables.items() if re.search(rf"\b{local}\b", per_item)}
    loops = [_inline(loop, tables, hoisted) for loop in loops]
    before = [f"for {local} in ({table},)" for table, local in hoisted.items()]
    before += [f"for {local} in ({_inline(read, tables, hoisted)},)" for read, local in reads.items()]
    return element, [*before, *loops]


def listed_once(writer: ProcedureWriter, node: ast.Expr, indent: int, span: Span) -> str | None:
    """A list comprehension ``node`` of a procedure's statement (None: another expression)
    written as statements, each line at ``span``: the clauses of the Python comprehension
    ``writer.expr_once`` writes as nested loops and tests, in their order (the same items
    charged, the same errors), its items appended to a list, with no function made and
    called to run them; the tuple of the list, returned."""
    if not isinstance(node, ast.Comprehension):
        return None
    scope = writer.scope()
    scope.tables = {}
    element, loops = writer.compiler.writer.listing_parts(node.clauses, (node.element,), scope)
    for line in scope.table_reads(""):
        writer.emit(indent, line, span)
    listed = writer.module.fresh("_a")
    writer.emit(indent, f"{listed} = []", span)
    for depth, clause in enumerate(loops):
        writer.emit(indent + depth, f"{clause}:", span)
    writer.emit(indent + len(loops), f"{listed}.append({element})", span)
    return f"tuple({listed})"


def _inline(text: str, tables: dict[str, str], hoisted: dict[str, str]) -> str:
    """``text`` with each table not read before the loops read where it is used."""
    for table, local in tables.items():
        if local not in hoisted.values():
            text = re.sub(rf"\b{local}\b", table, text)
    return text
