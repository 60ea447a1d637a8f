"""any(), all() and first() over one clause as loops that stop at the first item that
decides: a generated function of the Python locals in scope, its work counted in a local
and charged as ``runtime.items`` charges it (the expression writer, codegen.py, calls
``short_circuit`` for them)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Player, Value
from ..tables.catalog import Catalog
from .assigned_reads import written_assigning
from .known import item_length, known_list
from .patterns import pattern
from .scope import Scope
from .unrolled import unrolled

if TYPE_CHECKING:
    from .codegen import ExpressionWriter
    from .module import Module


def short_circuit(writer: ExpressionWriter, name: str, gen: ast.Generator, scope: Scope) -> str:
    """any(), all() or first() over one clause: a loop that stops at the first item that
    decides, as a function of the Python locals in scope."""
    source = writer.write(gen.clauses[0].source, scope)
    inner = scope.inner()
    known = known_list(writer, gen.clauses[0].source, scope)
    if known is None:
        known = _seats(writer.cat, gen.clauses[0].source, scope)
    loop, indexed = _deciding(writer, name, gen, inner, "_source", "_found", known, spaces=_spaces_depth(known))
    if indexed and known is not None:   # the loop goes through the spaces' indices
        source = writer.module.constant(_indices(known), _INDICES)
    used = set(re.findall(r"\w+", " ".join(loop)))
    passed = [name for name in ("_depth", *scope.python.values()) if name in used]  # only those it reads
    # The work charged is counted in a Python local, and written back at the end, when
    # nothing else in the loop can read or charge it (no line uses the state).
    local = not any(_STATE.search(line) for line in loop if not _CHARGING.match(line))
    charged = {"_W": "_w" if local else "st.work",
               "_CHARGE": "st.charge(_w - st.work)" if local else "st.charge(0)"}
    loop = [_PLACEHOLDER.sub(lambda m: charged[m.group(0)], line) for line in loop]
    written_out = unrolled(loop, name, _indices(known)) if local and indexed and known is not None else None
    loop = [*(written_out or ()), *loop]   # (where they run, the items one by one without a loop)
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
              found: str, known: tuple[Value, ...] | None, length: int | None = None,
              spaces: int = 0) -> tuple[list[str], bool]:
    """Lines that set ``found`` to any(), all() or first() of ``gen`` (one clause) over the
    list in the Python local ``items``, charged as ``runtime.items`` charges it. An element
    that is itself any() or all() over one clause is a loop within this one. ``known``: the
    list's value if known at load time (known.py), ``length``: its length if known;
    ``spaces``: 1 (2) if ``items`` can be given as the indices of its spaces (of its lists
    of spaces), known at load, else 0. With them, whether the lines go through those indices (the loop
    reads nothing of a space but its index: its variables' tables in place)."""
    lines, indexed = _deciding_once(writer, name, gen, scope, items, found, known, length, spaces)
    if indexed is None:   # (an inner loop that would go through indices, this one not)
        lines, indexed = _deciding_once(writer, name, gen, scope, items, found, known, length, 0)
    return lines, bool(indexed)


def _deciding_once(writer: ExpressionWriter, name: str, gen: ast.Generator, scope: Scope, items: str,
                   found: str, known: tuple[Value, ...] | None, length: int | None,
                   spaces: int) -> tuple[list[str], bool | None]:
    """``_deciding``'s lines, and whether they go through indices (None: an inner loop
    does and this one cannot: to be written again without)."""
    (clause,) = gen.clauses
    source_kind = writer.items_kind(clause.source, scope)
    var = scope.python[clause.var] = writer.module.fresh("_v")
    writer.bind_item_kind(var, clause.source, scope)
    condition = writer.write(clause.condition, scope) if clause.condition is not None else None
    body: list[str] = []
    element, inner_indexed, assigned = gen.element, False, ""
    if nested_short_circuit(writer.cat, element):
        assert isinstance(element, ast.Call) and isinstance(element.args[0], ast.Generator)
        inner_source = element.args[0].clauses[0].source
        # An item of a list known at load time, each of whose items is a list of one length:
        # gone through itself (the inner loop makes nothing of it)
        itself = isinstance(inner_source, ast.Name) and inner_source.name == clause.var \
            and scope.python.get(clause.var) == var
        direct = itself and item_length(known) is not None
        inner_items, value = var if direct else writer.module.fresh("_s"), writer.module.fresh("_r")
        if not direct:
            assigned = f"{inner_items} = {writer.write(inner_source, scope)}"
            body.append(assigned)
        inner_known = known_list(writer, inner_source, scope)
        offer = 1 if itself and spaces == 2 else _spaces_depth(inner_known, 1)
        inner_lines, inner_indexed = _deciding(writer, element.function, element.args[0], scope, inner_items,
                                               value, inner_known, item_length(known) if itself else None, offer)
        if inner_indexed and not itself:   # (a list of its own, known at load: its indices)
            indices = writer.module.constant(_indices(inner_known or ()), _INDICES)
            body[-1] = assigned = f"{inner_items} = {indices}"
            inner_indexed = False
        body += inner_lines
    else:
        value = written_assigning(writer, element, scope)
    body += {"any": [f"if {value}:", f"    {found} = True", "    break"],
             "all": [f"if not {value}:", f"    {found} = False", "    break"],
             "first": [f"{found} = {value}", "break"]}[name]
    if condition is not None:
        body = [f"if {condition}:", *("    " + line for line in body)]
    indexed: bool | None = False
    if spaces:   # read only as a space's index, or as the list of an inner loop of indices
        text = "\n".join(line for line in body if not (inner_indexed and (
            line.strip() == assigned or pattern(rf"\s*for \w+ in {var}:").fullmatch(line))))
        if not re.search(rf"\b{var}\b(?!\.index\b)" if spaces == 1 else rf"\b{var}\b", text):
            body = [pattern(rf"\b{var}\.index\b").sub(var, line) for line in body]
            indexed = True
    if inner_indexed and not indexed:
        return [], None
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
            f"for {var} in {items}:", *("    " + line for line in body)], indexed


def _seats(cat: Catalog, node: ast.Expr, scope: Scope) -> tuple[Value, ...] | None:
    """The players (the seats) if ``node`` is ``players`` (``seats``) and not a local: a list
    known at load, gone through by their indices as a list of spaces is."""
    if isinstance(node, ast.Name) and node.name in ("players", "seats") and not scope.is_local(node.name):
        return tuple(cat.real_players if node.name == "players" else cat.players)
    return None


def _spaces_depth(known: tuple[Value, ...] | None, most: int = 2) -> int:
    """1 if ``known`` is a list of spaces (or one of players: each read by its index as a
    space is), 2 if one of lists of them (up to ``most``), else 0."""
    if known is None:
        return 0
    if all(type(item) is Space for item in known) or (known and all(type(item) is Player for item in known)):
        return 1
    deep = most >= 2 and all(type(item) is tuple and _spaces_depth(item, 1) == 1 for item in known)
    return 2 if deep else 0


def _indices(known: tuple[Value, ...]) -> tuple[object, ...]:
    """The indices of the spaces (or players) of ``known`` (a list of them, or of lists of them)."""
    return tuple(item.index if isinstance(item, (Space, Player)) else _indices(cast(tuple[Value, ...], item))
                 for item in known)


def nested_short_circuit(cat: Catalog, node: ast.Expr) -> bool:
    """Whether ``node`` is any() or all() over a generator of one clause (not a function
    or component of the ruleset of that name)."""
    return (isinstance(node, ast.Call) and node.function in ("any", "all")
            and node.function not in cat.component_types and node.function not in cat.functions
            and len(node.args) == 1 and isinstance(node.args[0], ast.Generator)
            and node.args[0].key is None and len(node.args[0].clauses) == 1)


_INDICES = "<the indices of a list of spaces known at load>"
_PLACEHOLDER = re.compile(r"\b_W\b|\b_CHARGE\b")
_CHARGING = re.compile(r"\s*(_W \+= (len\(\w+\)|\d+)|if _W > _limit:|_CHARGE|\w+ = _sequence\(st, \w+\)"
                       r"|\w+ = st\.zones\[\w+\.slot\])$")
"""The lines of a loop of ``_deciding`` that charge its work or make a list (``sequence``,
or a zone's own list: neither charges anything)."""
_STATE = re.compile(r"\bst\b(?!\.zones\[)")   # (a zone's own list read: it charges nothing)


def _where(node: ast.Node) -> str:
    return f"line {node.span.line}, column {node.span.column}"


def search_in_place(module: Module, text: str) -> list[str] | None:
    """The lines that set ``_found`` to ``text`` where ``text`` is exactly a call of a search
    written by ``short_circuit`` with the names it is defined with (but its list): its body
    in a loop run once, each ``return`` a ``break``, for a test written in place in a
    resumable function (no call). None for any other text, or a body that returns from
    within a loop of its own."""
    conjoined = _after_a_test(text)
    if conjoined is not None:   # (``(TEST and SEARCH)``: the search's lines where the test is true)
        searched = search_in_place(module, conjoined[1])
        return None if searched is None else ["_found = False", f"if {conjoined[0]}:",
                                              *("    " + line for line in searched)]
    called = re.fullmatch(r"(_g\d+)\(([^()]*)\)", text)
    source = module.units.get(called.group(1)) if called is not None else None
    if called is None or source is None:
        return None
    head, *body = source.rstrip("\n").split("\n")
    params = pattern(rf"def {called.group(1)}\(([^()]*)\):.*").fullmatch(head)
    args = called.group(2).split(", ")
    if params is None or params.group(1).split(", ")[1:] != args[1:] or args[1:3] != ["st", "env"]:
        return None
    constant = re.fullmatch(r"_k\d+", args[0]) is not None   # (a list known at load: read where it is gone through)
    written = [*([] if constant else [f"_source = {args[0]}"]), "while True:"]
    if constant:
        body = [re.sub(r"\b_source\b", args[0], line) for line in body]
    looping = False
    for line in body:
        looping = looping or line.lstrip().startswith(("for ", "while "))
        returned = re.fullmatch(r"(\s*)return (.*)", line)
        if returned is None:
            written.append(line)
        elif looping and line is not body[-1]:   # (a return from a loop of its own: not a break here)
            return None
        else:
            found = [] if returned.group(2) == "_found" else [f"{returned.group(1)}_found = {returned.group(2)}"]
            written += [*found, f"{returned.group(1)}break"]
    return written


def _after_a_test(text: str) -> tuple[str, str] | None:
    """(TEST, SEARCH) of ``text`` written ``(TEST and SEARCH)``, a call of a search after a
    test of no ``or`` and no conditional (so ``and`` joins the two at the top); else None."""
    found = re.fullmatch(r"\((.+) and (_g\d+\([^()]*\))\)", text)
    if found is None or re.search(r" or | if |\blambda\b", found.group(1)):
        return None
    depth = 0
    for char in found.group(1):   # (TEST's brackets balanced: the outer ones are the whole's)
        depth += (char in "([{") - (char in ")]}")
        if depth < 0:
            return None
    return (found.group(1), found.group(2)) if depth == 0 else None
