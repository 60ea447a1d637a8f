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
from rulelang.check.tree import walk
from rulelang.diagnostics import Span

from ..tables import runtime
from .calls_in_place import in_place
from .counted_by_key import counted_by_key
from .filters_merged import filters_merged
from .integers import is_tuple
from .items_in_place import clause_lines
from .listed_again import listed_again
from .module import Module
from .moves import zone_list
from .patterns import pattern
from .players_written_out import players_written_out
from .scope import Scope
from .tallied import tallied

if TYPE_CHECKING:
    from .codegen import ExpressionWriter
    from .procedures import ProcedureWriter

_OWNED_READ = re.compile(r"(_t\d+\[(\w+|env\[\w+\])\.(?:id|index)(?: \+ _k\d+)?\])")
"""A read of a variable of a player, space or component from a table (``Scope.tables``):
the read, and whose it is (a Python local, or a held parameter in the environment: one
the scope knows the kind of is always bound)."""

_CLOSED = r"(?:\)|, (?:True|False)| or \(None,\))*"
"""What may follow the list a statement's value computes first, in calls that close on it
(``listed_once``): no other value, so nothing is computed before the list."""
_COMPARED = re.compile(r"\((.+) (?:[<>]=?|==|!=) _k\d+\)")   # (a value compared with a constant of the module)


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
    hoisted = {table: local for table, local in tables.items() if pattern(rf"\b{local}\b").search(per_item)}
    loops = [_inline(loop, tables, hoisted) for loop in loops]
    before = [f"for {local} in ({table},)" for table, local in hoisted.items()]
    before += [f"for {local} in ({_inline(read, tables, hoisted)},)" for read, local in reads.items()]
    return element, [*before, *loops]


def listed_once(writer: ProcedureWriter, node: ast.Expr, indent: int, span: Span, scope: Scope) -> str | None:
    """``node``, the value of a procedure's statement (in ``scope``), with the comprehension
    it computes first written before it (``lifted``), each line at ``span`` (None: not one);
    its items' values read from the list of the statement just before where that one listed
    them (``listed_again``)."""
    found = lifted(writer.compiler.writer, node, scope)
    if found is None:
        scope.tables = {}   # (written again, as a whole)
        return None
    reads, before = scope.table_reads(""), [line for line, _ in writer.lines[-9:]]
    lines = found[1] if reads else listed_again(writer.module, before, found[1], indent)   # (values listed before)
    if not reads:   # (a filter of the same list just before: one loop)
        lines = filters_merged(writer.lines, lines, indent, writer.module.fresh)
    for line in [*reads, *lines]:
        writer.emit(indent, line, span)
    return found[0]


def lifted(expressions: ExpressionWriter, node: ast.Expr, scope: Scope) -> tuple[str, list[str]] | None:
    """``node`` whose Python comprehension would be computed first (a list comprehension,
    an aggregate of a generator: ``tuple([...])``, ``_order3(sum([...]), x)``...), written
    with that comprehension as the lines before it (indented as they nest): its clauses as
    nested loops and tests, in their order (the same items charged, the same errors), its
    items appended to a list, with no function made and called to run them. None: not one."""
    if not has_items(node):
        return None
    found = expressions.lifted = list[tuple[str, str, list[str], str | None]]()
    try:
        text = expressions.write(node, scope)
    finally:
        expressions.lifted = None
    if not found or not _computed_first(found[0][0], text):
        return None
    listed, element, loops, source = found[0]
    element, loops, entry = _entry_read_once(expressions.module, element, loops, source)
    keyed = counted_by_key(expressions.module, expressions.cat, listed, element, loops,
                           lambda: _clause_lines(expressions.module, loops[0], source), work_charged)
    if keyed is not None:   # (counts by key: one pass over the zone)
        return text, keyed
    written = players_written_out(expressions.module, listed, element, loops, work_charged("@N"))
    if written is not None and entry is None:   # (over the players known at load: no loop)
        return text, written
    element, counting = counted_in_place(expressions.module, element)
    before, element = in_place(expressions.module, element)
    lines = [f"{listed} = []"]
    for depth, clause in enumerate(loops):
        written = _clause_lines(expressions.module, clause, source)
        if entry is not None and clause.startswith("for "):
            if len(written) == 1:   # (its items not taken apart: no place to read the entry once)
                return None
            items = written[-1].removesuffix(":").split(" in ", 1)[1]   # (a local or a constant: read again free)
            written.insert(-1, f"{entry[0]} = {entry[1]} if {items} else None")
        lines += ["    " * depth + line for line in written]
    lines += ["    " * len(loops) + line for line in [*counting, *before]]
    counter = tallied(expressions.module, text, listed, element, loops, source)
    if counter is not None:   # (its items counted as they pass: no list)
        return counter, [f"{counter} = 0", *lines[1:], f"{'    ' * len(loops)}{counter} += 1"]
    return text, [*lines, f"{'    ' * len(loops)}{listed}.append({element})"]


def _clause_lines(module: Module, clause: str, source: str | None) -> list[str]:
    """The lines of a clause of the loops, the last one opening its block (``for``, ``if``):
    over a source the text proves a list or a zone, its items charged with no test
    (``charged_in_place``); over any other source's items, as ``runtime.items`` takes
    them (``items_in_place.clause_lines``); a test as it is."""
    if source is not None and clause.startswith("for "):
        return charged_in_place(module, clause, source)
    *before, last = clause_lines(module, clause) if clause.startswith("for ") else [clause]
    return [*before, f"{last}:"]


def _entry_read_once(module: Module, element: str, loops: list[str], source: str | None
                     ) -> tuple[str, list[str], tuple[str, str] | None]:
    """``element`` and ``loops`` of a comprehension of one clause (``source`` known) whose
    item's first read (its test's, else its element's) is an entry of the environment: that
    entry read once before the loop, where it has items (the same read first, at the same
    point: nothing before it per item), into a local that the element and the test read;
    with the local and the entry. Elsewhere as they are, and None."""
    clause = [i for i, loop in enumerate(loops) if re.fullmatch(r"for \w+ in \w+\(st, .+\)", loop)]
    if source is None or len(clause) != 1 or clause[0] != len(loops) - 1 - (loops[-1].startswith("if ")):
        return element, loops, None
    test = loops[-1] if loops[-1].startswith("if ") else None
    first = test.removeprefix("if ") if test is not None else element
    found = re.match(r"\(*(env\[_k\d+\])", first)
    if found is None or _MAY_SKIP.search(first):
        return element, loops, None
    entry, local = found.group(1), module.fresh("_h")
    if test is not None:
        loops = [*loops[:-1], test.replace(entry, local)]
    return element.replace(entry, local), loops, (local, entry)


def counted_in_place(module: Module, element: str) -> tuple[str, list[str]]:
    """``element`` and the lines before it: ``count(c for c in ZONE if ...)`` (a component
    is neither false nor none: ``runtime.count`` counts each item that passes) as a loop that
    counts in a local, the zone's items charged before it as ``zone_items`` charges them; any
    other element as it is, with no lines."""
    found = _COUNTED.fullmatch(element)
    if found is None or module.namespace.get(found.group(2)) is not runtime.zone_items or " for " in found.group(4):
        return element, []
    var, zone, test = found.group(1), found.group(3), found.group(4)
    counter = module.fresh("_n")
    loop = charged_in_place(module, f"for {var} in {found.group(2)}(st, {zone})", "zone")
    return counter, [f"{counter} = 0", *loop, f"    if {test}:", f"        {counter} += 1"]


_COUNTED = re.compile(r"_count\(\[(_v\d+) for \1 in (_k\d+)\(st, (.+?)\) if (.+)\]\)")


def charged_in_place(module: Module, clause: str, source: str | None) -> list[str]:
    """The lines of ``clause`` (``for v in _items(st, x)`` over a ``source`` the text proves a
    list, "tuple", or a zone, "zone") with its items charged before it as ``runtime.items``
    and ``runtime.zone_items`` charge them, no call; any other clause as it is."""
    if source is None:
        return [f"{clause}:"]
    items_of = "_items" if source == "tuple" else module.constant(runtime.zone_items)   # (named by listing_parts)
    found = pattern(rf"for (\w+) in {items_of}\(st, (.+)\)").fullmatch(clause)
    if found is None:
        return [f"{clause}:"]
    var, text = found.groups()
    items, read = text, list[str]()
    if source == "zone" or not re.fullmatch(r"\w+", text):   # (a local or a constant: as it is)
        items = module.fresh("_s")
        read = [f"{items} = {zone_list(text, module) if source == 'zone' else text}"]
    return [*read, *work_charged(f"len({items})"), f"for {var} in {items}:"]


_END_ITEM = re.compile(r"\(st\.zones\[(?:\w+|_k\d+\[\w+\.index\])\] or _k\d+\((?:0|-1)\)\)\[(?:0|-1)\]")
"""The end item of a zone read in place (``z[0]``, ``z[-1]``): it reads the state only, and
fails (no item) or gives the same component wherever an expression reads it."""
_MAY_SKIP = re.compile(r" if | else | and | or |\blambda\b| for ")


def read_once(module: Module, text: str) -> str:
    """``text`` (a comprehension's element, or its test ``if ...``) with an end item of a zone
    it reads more than once read at the first, into a local (``:=``), and that local after,
    where nothing in it may skip or reorder a part (no test, 'and', 'or', clause): the first
    read is the first computed, and the others read the same."""
    found = _END_ITEM.findall(text)
    rest = _END_ITEM.sub("_", text.removeprefix("if "))
    if len(found) == len(set(found)) or _MAY_SKIP.search(rest):
        return text
    for item in {item for item in found if found.count(item) > 1}:
        local = module.fresh("_u")
        first = text.index(item)
        text = text[:first] + f"({local} := {item})" + text[first + len(item):].replace(item, local)
    return text


def work_charged(work: str) -> list[str]:
    """Lines that charge ``work`` items as ``runtime.items`` does (``st.charge`` raises the
    error past the budget)."""
    return [f"_x = st.work + {work}", "st.work = _x", "if _x > st.max_steps:", "    st.charge(0)"]


def has_items(node: ast.Expr) -> bool:
    """Whether ``node`` has a comprehension or a generator."""
    return any(isinstance(n, (ast.Comprehension, ast.Generator)) for n in walk(node))


def _computed_first(listed: str, text: str) -> bool:
    """Whether the list ``listed`` is the first value ``text`` computes: ``text`` calls of
    names closing on it (``_CLOSED``), or one call whose first argument (through calls of
    names, or of ``map`` of the constant ``_first_of``: a sort by integer keys) it is, its
    other arguments after it; or such a text compared with a constant
    (``(count([...]) >= 2)``: the constant, read after it, computes nothing)."""
    compared = _COMPARED.fullmatch(text)
    if compared is not None:
        text = compared.group(1)
    if pattern(rf"(?:[\w.]+\((?:st, |_first_of, )?)*{listed}{_CLOSED}").fullmatch(text):
        return True
    start = pattern(rf"(?:[\w.]+\((?:st, |_first_of, )?)+{listed}\b").match(text)
    if start is None or "'" in text or '"' in text:
        return False
    depth = start.group().count("(")
    for at in range(start.end(), len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if depth == 0:
            return at == len(text) - 1
    return False


def lifted_listing(writer: ExpressionWriter, clauses: tuple[ast.CompClause, ...], parts: tuple[ast.Expr, ...],
                   scope: Scope, bounds: list[int | None] | None) -> str | None:
    """The list the first comprehension ``writer`` writes while it lifts them
    (``listed_once``) is in, its clauses and element kept for the lines before it (None: not
    lifting, or not the first)."""
    lifted = writer.lifted
    if lifted is None or lifted:
        return None
    writer.lifted = None   # (a comprehension inside it: as it is)
    source = _proven_source(writer, clauses, scope)
    element, loops = writer.listing_parts(clauses, parts, scope, "[]", bounds)
    lifted.append((writer.module.fresh("_a"), element, loops, source))
    writer.lifted = lifted
    return lifted[0][0]


def _proven_source(writer: ExpressionWriter, clauses: tuple[ast.CompClause, ...], scope: Scope) -> str | None:
    """What the text proves the source of a comprehension of one clause: a list ("tuple"),
    a zone ("zone"), or nothing (None, and for several clauses: ``_Visits`` counts them)."""
    if len(clauses) != 1:
        return None
    if is_tuple(writer.cat, clauses[0].source, scope):
        return "tuple"
    return "zone" if writer.zone_read(clauses[0].source, scope) else None


def _inline(text: str, tables: dict[str, str], hoisted: dict[str, str]) -> str:
    """``text`` with each table not read before the loops read where it is used."""
    for table, local in tables.items():
        if local not in hoisted.values():
            text = pattern(rf"\b{local}\b").sub(table, text)
    return text
