"""The action space of a game and legal-action masks: every action id a game may offer lies
below its ``size``, the numbers a choice offers last, bounded as far as the ruleset's text
says (docs/embedding.md, "Tensors and action masks"; ``tensors.py`` gives them to hosts).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rulelang import ast
from rulelang.check.kinds import Kinds
from rulelang.check.signatures import SIGNATURES
from rulelang.check.tree import walk
from rulelang.errors import IllegalActionError

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog
    from .state import State

DEFAULT_MAX_NUMBER = 100
"""The largest number with an action id (at least) when some choice may offer numbers that
the ruleset's text does not bound (``choose n in 0..size(hand)``) and the host gives no
``max_number``."""


@dataclass(frozen=True)
class ActionSpace:
    """A game's action ids, all below ``size``: the ids of spaces, components, players,
    enum values, labels and constants below ``number_base``, then the numbers
    ``0..max_number`` (number ``n`` is ``number_base + n``)."""

    number_base: int
    max_number: int        # -1: no number has an id
    bounded: bool          # whether the ruleset's text bounds every number a choice offers

    @property
    def size(self) -> int:
        """How many ids there are: ``num_distinct_actions``."""
        return self.number_base + self.max_number + 1

    def check(self, action_id: int) -> None:
        """IllegalActionError if ``action_id`` is beyond this action space."""
        if action_id >= self.size:
            number = action_id - self.number_base
            raise IllegalActionError(
                f"the number {number} (action id {action_id}) is beyond this game's action space of "
                f"{self.size} ids, where numbers up to {self.max_number} have ids: pass a larger max_number")


_BOUNDS: WeakKeyDictionary[Game, tuple[int, bool]] = WeakKeyDictionary()   # number_bound, once per game


def action_space(game: Game, max_number: int | None = None) -> ActionSpace:
    """The action space of ``game``: numbers up to ``max_number`` if given; else up to the
    largest number the ruleset's text bounds its choices, random picks and dice by, and at
    least ``DEFAULT_MAX_NUMBER`` when some choice may offer numbers the text does not bound.
    A ruleset that offers no number has no number ids (``max_number`` -1)."""
    catalog = game.catalog
    found = _BOUNDS.get(game)
    if found is None:
        found = _BOUNDS[game] = number_bound(catalog)
    largest, bounded = found
    if max_number is None:
        max_number = largest if bounded else max(largest, DEFAULT_MAX_NUMBER)
    elif isinstance(max_number, bool) or not isinstance(max_number, int) or max_number < 0:
        raise IllegalActionError(f"max_number must be a whole number of 0 or more, not {max_number!r}")
    elif max_number < largest:
        raise IllegalActionError(f"max_number {max_number} is below {largest}, a number the rules offer")
    return ActionSpace(catalog.int_base, max_number, bounded)


def number_bound(catalog: Catalog) -> tuple[int, bool]:
    """The largest number that the ruleset's choices, random picks and dice may offer, as
    far as the text says it (-1 when it offers none), and whether the text bounds them all:
    a range ``a..b`` with a constant ``b`` and a list of constant numbers are bounded; a set
    whose items are not numbers (as far as the checker can tell) offers none; any other set
    (``0..size(hand)``, a list computed while the game runs) is not bounded."""
    largest, bounded = -1, True
    for source, kinds in _choice_sources(catalog.decls):
        bound = _constant_bound(source)
        if bound is not None:
            largest = max(largest, bound)
        elif _is_range(source) or _may_hold_numbers(source, kinds):
            bounded = False
    faces = [face for die in catalog.dice.values() for face in die if isinstance(face, int)]
    return max([largest, *faces]), bounded


def _choice_sources(decls: list[ast.Decl]) -> Iterator[tuple[ast.Expr, Kinds]]:
    """The sets that choices and random picks draw from, each with the checker's kinds of
    the names of its declaration."""
    kinds = Kinds(decls)
    for decl in decls:
        kinds.bind_locals(decl)
        for node in walk(decl):
            if isinstance(node, (ast.Choose, ast.Simultaneous, ast.RandomPick)):
                yield node.source, kinds


def _may_hold_numbers(source: ast.Expr, kinds: Kinds) -> bool:
    """Whether the items of ``source`` may be numbers: False only where the text makes it
    plain that they are not (the checker knows their kind; a comprehension over such a set;
    a builtin that gives spaces or enum values, or that keeps the items of such a set)."""
    item = kinds.item_of(source)
    if item is not None:
        return "number" in item.classes
    if isinstance(source, ast.Comprehension):
        return _element_may_be_number(source, kinds)
    if isinstance(source, ast.ListExpr):
        return any(_may_be_number(e, kinds) for e in source.items)
    if isinstance(source, ast.IfExpr):
        return _may_hold_numbers(source.then, kinds) or _may_hold_numbers(source.otherwise, kinds)
    if isinstance(source, ast.BinaryOp) and source.op == "+":
        return _may_hold_numbers(source.left, kinds) or _may_hold_numbers(source.right, kinds)
    if isinstance(source, ast.Call):
        return _call_may_hold_numbers(source, kinds)
    return True


def _may_be_number(expr: ast.Expr, kinds: Kinds) -> bool:
    kind = kinds.of(expr)
    return kind is None or "number" in kind.classes


def _element_may_be_number(comprehension: ast.Comprehension, kinds: Kinds) -> bool:
    """A comprehension's element is one of its own variables: the items of that set; else
    its kind."""
    element = comprehension.element
    if isinstance(element, ast.Name):
        for clause in comprehension.clauses:
            if clause.var == element.name:
                return _may_hold_numbers(clause.source, kinds)
    return _may_be_number(element, kinds)


def _call_may_hold_numbers(call: ast.Call, kinds: Kinds) -> bool:
    """A builtin's list: of spaces (its first parameter a board or a space) or of enum
    values (``values``): no numbers; the items of its first argument (a parameter of
    ``items``), and any other argument that it adds to them, may be."""
    signature = SIGNATURES.get(call.function)
    if signature is None or signature.result != "list" or not signature.params or not call.args:
        return True
    first = signature.params[0]
    if first in ("board", "space", "enum"):
        return False
    if first != "items":
        return True
    added = call.args[2:3] if call.function == "insert" else ()   # insert(items, at, item)
    return _may_hold_numbers(call.args[0], kinds) or any(_may_be_number(a, kinds) for a in added)


def _is_range(expr: ast.Expr) -> bool:
    return isinstance(expr, ast.BinaryOp) and expr.op == ".."


def _constant_bound(expr: ast.Expr) -> int | None:
    """The largest number of a range with a constant upper end or of a list of constant
    numbers; None when the text does not say."""
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        return _constant_number(expr.right)
    if isinstance(expr, ast.ListExpr) and expr.items:
        numbers = [_constant_number(item) for item in expr.items]
        return None if None in numbers else max(n for n in numbers if n is not None)
    return None


def _constant_number(expr: ast.Expr) -> int | None:
    if isinstance(expr, ast.Literal) and _is_number(expr.value):
        return int(expr.value)   # type: ignore[arg-type]  # a number, checked just above
    return None


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def legal_action_mask(state: State, player: int | None = None, max_number: int | None = None) -> list[int]:
    """1 for each action id ``player`` may take now, 0 for the others, over the game's
    action space (``action_space``): all 0 when that player is not to act.
    IllegalActionError if a legal id lies beyond the action space."""
    space = action_space(state.game, max_number)
    mask = [0] * space.size
    for action_id in state.legal_action_ids(player):
        space.check(action_id)
        mask[action_id] = 1
    return mask
