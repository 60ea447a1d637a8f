"""What a procedure's compiled code knows of its 'let' locals: a local that one 'let' alone
binds (no other 'let', loop, choice or assignment of that name in the procedure, not a
parameter) only ever holds the value of that 'let', so what the text proves of the value (an
integer and its bound, a list, the kind of its items: integers.py, ``items_kind``) holds of
the local wherever it is read, and the code after it reads it without testing its kind.

The writers of procedures (procedures.py, unpaused.py) record a local's facts where its 'let'
is written and teach them to the scope of every expression after it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rulelang import ast
from rulelang.check.tree import names_bound_once

from .integers import integer_bound, is_tuple, length_bound, natural
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter


class Facts(NamedTuple):
    """What a local certainly holds: an integer of at most ``bound`` (None: not known one), a
    list (``is_list``), a player, space or component or lists of one (``kind``), a list of
    at most ``length`` items (None: not known), a component of type ``typed`` or none, an
    integer never below zero (``natural``)."""

    bound: int | None
    is_list: bool
    kind: tuple[type, int] | None
    length: int | None = None
    typed: str | None = None   # a component of this type, or none unless ``kind`` says a component (typed.py)
    natural: bool = False   # an integer never below zero (integers.natural)


def bound_once(decl: ast.ProcedureDecl) -> frozenset[str]:
    """The names of ``decl`` that one 'let' binds and nothing else binds or assigns."""
    return names_bound_once(tuple(p.name for p in decl.params), decl.body)


def facts_of(writer: ExpressionWriter, value: ast.Expr, scope: Scope) -> Facts | None:
    """What the text proves of ``value`` (None: nothing)."""
    found = Facts(integer_bound(writer.cat, value, scope), is_tuple(writer.cat, value, scope),
                  writer.items_kind(value, scope), length_bound(writer.cat, value, scope),
                  writer.component_type(value, scope), natural(writer.cat, value, scope))
    return None if found == Facts(None, False, None) else found


def teach(scope: Scope, known: dict[str, Facts]) -> Scope:
    """``scope``, told the facts of the Python locals ``known`` (by their text)."""
    for local, facts in known.items():
        if facts.bound is not None:
            scope.integers[local] = facts.bound
        if facts.is_list:
            scope.lists.add(local)
        if facts.kind is not None:
            scope.kinds[local] = facts.kind
        if facts.length is not None:
            scope.lengths[local] = facts.length
        if facts.typed is not None:
            scope.typed[local] = facts.typed
        if facts.natural:
            scope.naturals.add(local)
    return scope
