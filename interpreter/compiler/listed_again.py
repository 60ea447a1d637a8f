"""A comprehension that computes again, for each item of a list, what the statement just
before it listed for the same items: ``let best = max(E for p in L)`` then ``let leaders =
[p for p in L if E == best]``. The second reads each item's value from the first's list,
beside the item (``zip``), instead of computing it again.

Both are lifted (comprehensions.py: a list made by loops, in lines of the statement) and
written one after the other at one indentation, so that nothing runs between them but the
first statement's own lines: a list ``_aN`` of ``E`` for each item of ``L``, then a local
given its ``max``, ``min``, ``sum``, ``len`` or ``tuple`` (which do not change the list).
``L`` is a local or a constant that nothing there binds; ``E`` reads the state (which
nothing changes between them) and no local the first statement binds, charges no work and
calls nothing but the error of a missing item: each item's value is what the second would
compute, with no error (the first would have failed first) and the same work (the second
still charges its items).
"""
from __future__ import annotations

import ast
import copy
import re
from typing import TYPE_CHECKING

from .fields import no_item

if TYPE_CHECKING:
    from .module import Module

_CHARGED = [r"_x = st\.work \+ len\((\w+)\)", r"st\.work = _x", r"if _x > st\.max_steps:", r"    st\.charge\(0\)"]
_FIRST = [r"(_a\d+) = \[\]", *_CHARGED, r"for (_v\d+) in \2:", r"    \1\.append\((.+)\)",
          r"(\w+) = (?:max|min|sum|len|tuple)\(\1(?: or \(None,\))?\)"]
_SECOND = [r"(_a\d+) = \[\]", *_CHARGED, r"for (_v\d+) in \2:", r"    if (.+):", r"        \1\.append\((.+)\)"]
_HELD = r"(env\[_k\d+\]) = (\w+)"   # (the first's local kept in the environment too: a procedure that may pause)
_PURE = (ast.Expression, ast.Name, ast.Load, ast.Store, ast.Constant, ast.Attribute, ast.Subscript, ast.BinOp,
         ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.NamedExpr, ast.operator, ast.unaryop, ast.cmpop,
         ast.boolop, ast.Call)


def listed_again(module: Module, before: list[str], lines: list[str], indent: int) -> list[str]:
    """``lines`` (a lifted comprehension's, to be written at ``indent`` right after the lines
    ``before``) reading its items' values from the list of the statement just before, where
    that one listed the same expression of the same items; else ``lines`` as they are."""
    second, first = _matched(_SECOND, lines), _first_before(before, indent)
    if second is None or first is None:
        return lines
    listed, items, var, element, bound = first
    _, source, item, test, kept = second
    if items != source or not _pure(module, element, bound):
        return lines
    again = _same_in(element, var, item, test)
    if again is None:
        return lines
    if _walrus_locals(again) & set(re.findall(r"\b_u\d+\b", f"{test} {kept}".replace(again, " "))):
        return lines   # (a local of ':=' in it read elsewhere too)
    value = module.fresh("_w")
    new_test, new_kept = test.replace(again, value), kept.replace(again, value)
    return [*lines[:5], f"for {item}, {value} in zip({source}, {listed}):", f"    if {new_test}:",
            f"        {lines[-1].strip().replace(kept, new_kept)}"]


def _matched(patterns: list[str], lines: list[str]) -> tuple[str, ...] | None:
    """The groups of ``lines`` matched one by one by ``patterns`` (a back reference ``\\N``
    is the N-th group of the lines before), or None."""
    if len(lines) != len(patterns):
        return None
    groups: list[str] = []
    for line, pattern in zip(lines, patterns, strict=True):
        for number in range(len(groups), 0, -1):
            pattern = pattern.replace(f"\\{number}", re.escape(groups[number - 1]))
        found = re.fullmatch(pattern, line)
        if found is None:
            return None
        groups += found.groups()
    return tuple(groups)


def _first_before(before: list[str], indent: int) -> tuple[str, str, str, str, str] | None:
    """The list, items, variable, element and bound local of the statement whose lines end
    ``before`` at ``indent``, where it is a listing of ``_FIRST`` (then maybe its local kept
    in the environment: the element must not read that entry either), or None."""
    margin = "    " * indent
    for size in (len(_FIRST) + 1, len(_FIRST)):   # (with its local kept in the environment, or not)
        window = before[-size:]
        if len(window) < size or not all(line.startswith(margin) for line in window):
            continue
        tail = [line[len(margin):] for line in window]
        held = re.fullmatch(_HELD, tail[-1]) if size > len(_FIRST) else None
        found = _matched(_FIRST, tail[:len(_FIRST)])
        if found is not None and (held is not None or size == len(_FIRST)):
            break
    else:
        return None
    if held is not None and held.group(2) != found[4]:
        return None
    listed, items, var, element, bound = found
    if items == bound or (held is not None and held.group(1) in element):
        return None
    return listed, items, var, element, bound


def _pure(module: Module, element: str, bound: str) -> bool:
    """Whether ``element`` computes without charging work or changing anything: names,
    fields, items and operators, no read of ``bound``, calls only of the error of a missing
    item (``fields.no_item``)."""
    try:
        tree = ast.parse(element, mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if not isinstance(node, _PURE) or (isinstance(node, ast.Name) and node.id == bound):
            return False
        if isinstance(node, ast.Attribute) and node.attr in {"work", "rounds", "charge", "step"}:
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name)
                                               and module.namespace.get(node.func.id) is no_item):
            return False
    return True


def _same_in(element: str, var: str, item: str, test: str) -> str | None:
    """The text of ``test`` that computes ``element`` of ``item`` (``element`` is of ``var``;
    the locals of ``:=`` in it named alike in their order), or None."""
    shape = _shape(ast.parse(element, mode="eval").body, var)
    for node in ast.walk(ast.parse(test, mode="eval")):
        if isinstance(node, ast.expr) and _shape(node, item) == shape:
            return ast.get_source_segment(test, node)
    return None


def _shape(node: ast.expr, var: str) -> str:
    """``node`` as ``ast.dump`` gives it, ``var`` and the locals of ``:=`` (``_uN``) renamed
    in the order they are met."""
    renamed, names = copy.deepcopy(node), dict[str, str]()
    for part in ast.walk(renamed):
        if isinstance(part, ast.Name) and part.id == var:
            part.id = "@item"
        elif isinstance(part, ast.Name) and re.fullmatch(r"_u\d+", part.id):
            part.id = names.setdefault(part.id, f"@u{len(names)}")
    return ast.dump(renamed)


def _walrus_locals(text: str) -> set[str]:
    """The locals that ``:=`` binds in ``text``."""
    return set(re.findall(r"\b(_u\d+) :=", text))
