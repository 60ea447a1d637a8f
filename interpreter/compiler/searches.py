"""any(), all() and first() over one clause as loops that stop at the first item that
decides: a generated function of the Python locals in scope, its work counted in a local
and charged as ``runtime.items`` charges it (the expression writer, codegen.py, calls
``short_circuit`` for them)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import Value
from ..tables.catalog import Catalog
from .known import item_length, known_list
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter


def short_circuit(writer: ExpressionWriter, name: str, gen: ast.Generator, scope: Scope) -> str:
    """any(), all() or first() over one clause: a loop that stops at the first item that
    decides, as a function of the Python locals in scope."""
    source = writer.write(gen.clauses[0].source, scope)
    inner = scope.inner()
    loop = _deciding(writer, name, gen, inner, "_source", "_found", known_list(writer, gen.clauses[0].source, scope))
    used = set(re.findall(r"\w+", " ".join(loop)))
    passed = [name for name in ("_depth", *scope.python.values()) if name in used]  # only those it reads
    # The work charged is counted in a Python local, and written back at the end, when
    # nothing else in the loop can read or charge it (no line uses the state).
    local = not any(_STATE.search(line) for line in loop if not _CHARGING.match(line))
    charged = {"_W": "_w" if local else "st.work",
               "_CHARGE": "st.charge(_w - st.work)" if local else "st.charge(0)"}
    loop = [_PLACEHOLDER.sub(lambda m: charged[m.group(0)], line) for line in loop]
    helper = writer.module.fresh("_g")
    writer.module.define(helper, "\n".join([
        f"def {helper}({', '.join(['_source', 'st', 'env', *passed])}):  # {name}() at {_where(gen)}",
        "    _limit = st.max_steps",  # (the bound of a charge, read once)
        *(["    _w = st.work"] if local else []),
        *inner.table_reads("    "),
        *("    " + line for line in loop),
        *(["    st.work = _w"] if local else []), "    return _found"]) + "\n")
    return f"{helper}({', '.join([source, 'st', scope.env, *passed])})"


def _deciding(writer: ExpressionWriter, name: str, gen: ast.Generator, scope: Scope, items: str,
              found: str, known: tuple[Value, ...] | None, length: int | None = None) -> list[str]:
    """Lines that set ``found`` to any(), all() or first() of ``gen`` (one clause) over the
    list in the Python local ``items``, charged as ``runtime.items`` charges it. An element
    that is itself any() or all() over one clause is a loop within this one. ``known``: the
    list's value if known at load time (known.py), ``length``: its length if known."""
    (clause,) = gen.clauses
    source_kind = writer.items_kind(clause.source, scope)
    var = scope.python[clause.var] = writer.module.fresh("_v")
    writer.bind_item_kind(var, clause.source, scope)
    condition = writer.write(clause.condition, scope) if clause.condition is not None else None
    body: list[str] = []
    element = gen.element
    if nested_short_circuit(writer.cat, element):
        assert isinstance(element, ast.Call) and isinstance(element.args[0], ast.Generator)
        inner_items, value = writer.module.fresh("_s"), writer.module.fresh("_r")
        inner_source = element.args[0].clauses[0].source
        body.append(f"{inner_items} = {writer.write(inner_source, scope)}")
        # An item of a list known at load time, each of whose items is a list of one length
        each = item_length(known) if isinstance(inner_source, ast.Name) and inner_source.name == clause.var \
            and scope.python.get(clause.var) == var else None
        body += _deciding(writer, element.function, element.args[0], scope, inner_items, value,
                          known_list(writer, inner_source, scope), each)
    else:
        value = writer.write(element, scope)
    body += {"any": [f"if {value}:", f"    {found} = True", "    break"],
             "all": [f"if not {value}:", f"    {found} = False", "    break"],
             "first": [f"{found} = {value}", "break"]}[name]
    if condition is not None:
        body = [f"if {condition}:", *("    " + line for line in body)]
    # A list known to be one (a board query's, a constant's) is not made one; the items
    # are charged in place (_W: the work counted so far, _CHARGE: the error past the
    # bound, as ``_short_circuit`` writes them).
    a_list = (source_kind is not None and source_kind[1] >= 1) or known is not None or length is not None
    making = [f"if type({items}) is not tuple:", f"    {items} = _sequence(st, {items})"]
    if writer.zone_read(clause.source, scope):   # a zone's list, in place (the loop changes nothing)
        making = [f"{items} = st.zones[{items}.slot]"]
    if known is not None:
        length = len(known)
    charge = [f"if {items}:", f"    _W += len({items})", "    if _W > _limit:", "        _CHARGE"]
    if length is not None:   # its length known: the charge written in place (none for no item)
        charge = [f"_W += {length}", "if _W > _limit:", "    _CHARGE"] if length else []
    return [*([] if a_list else making), *charge,
            f"{found} = {dict(any='False', all='True', first='None')[name]}",
            f"for {var} in {items}:", *("    " + line for line in body)]


def nested_short_circuit(cat: Catalog, node: ast.Expr) -> bool:
    """Whether ``node`` is any() or all() over a generator of one clause (not a function
    or component of the ruleset of that name)."""
    return (isinstance(node, ast.Call) and node.function in ("any", "all")
            and node.function not in cat.component_types and node.function not in cat.functions
            and len(node.args) == 1 and isinstance(node.args[0], ast.Generator)
            and node.args[0].key is None and len(node.args[0].clauses) == 1)


_PLACEHOLDER = re.compile(r"\b_W\b|\b_CHARGE\b")
_CHARGING = re.compile(r"\s*(_W \+= (len\(\w+\)|\d+)|if _W > _limit:|_CHARGE|\w+ = _sequence\(st, \w+\)"
                       r"|\w+ = st\.zones\[\w+\.slot\])$")
"""The lines of a loop of ``_deciding`` that charge its work or make a list (``sequence``,
or a zone's own list: neither charges anything)."""
_STATE = re.compile(r"\bst\b")


def _where(node: ast.Node) -> str:
    return f"line {node.span.line}, column {node.span.column}"
