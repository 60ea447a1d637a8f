"""A permutation checked before its sample is built, for the information-set sampler
(infostate.py).

Most permutations a sampler draws and rejects break an invariant that reads only what the
zones hold (by fields of their components, ``unmoved.uniform_fields``), the tokens and the
plain variables. A sample is a copy of its state with the components permuted, every
reference relabelled and the decision awaited rebuilt by running on; where that run cannot
change anything (``rebuilds_alone``: the operation that stops there is run again, and it
changes nothing but the decision awaited), such an invariant has in the sample the value it
has in the state with only its zones permuted (``Precheck.light``, which shares every other
table with the state). ``Precheck.keeps`` computes those invariants there: a permutation that
breaks one is drawn again without a copy, and the sample of one that does not need not
compute them again.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.errors import RulelangError

from .unmoved import static_expression

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..game import Game
    from ..model.program import Invariant
    from ..model.values import Component
    from .state import State

Checked = tuple[set[int], set[str]]
"""What a precheck computed of a permutation's sample: the ids of the invariants, and the
labels of those of them it breaks (which the reference breaks too)."""


class Precheck:
    """The invariants ``ids`` computed for permutations of the components at ``where`` (by
    id, their zone slot and position) of ``st``, on one state that shares every table of
    ``st`` but its zones (``light``)."""

    def __init__(self, st: State, ids: set[int], moving: list[Component], where: dict[int, tuple[int, int]]):
        self.ids, self.where, self.zones = ids, where, st.zones
        self.slots = sorted({where[c.id][0] for c in moving})
        kind = type(st)   # (State: not imported here, which state.py imports through infostate.py)
        light = kind.__new__(kind)
        for name in kind.__slots__:
            setattr(light, name, getattr(st, name))
        light.zones = st.zones[:]   # (its own list of zones: those of ``slots`` are copied for each permutation)
        self.light = light

    def keeps(self, mapping: dict[int, Component], rules: list[Invariant],
              reference_holds: Callable[[Invariant], bool]) -> Checked | None:
        """The invariants of ``ids`` computed on the state with ``mapping`` put in place, in
        the order of ``rules``: None if one breaks that the reference keeps (moved first in
        ``rules``, as ``Fit.keeps_invariants`` does) or fails to compute; else what was
        computed."""
        light, zones, where = self.light, self.zones, self.where
        placed = light.zones
        for slot in self.slots:
            placed[slot] = zones[slot][:]
        for cid, new in mapping.items():
            slot, i = where[cid]
            placed[slot][i] = new
        ids = self.ids
        broken: set[str] = set()
        try:
            for k, rule in enumerate(rules):
                if id(rule) in ids and not light.evaluate(rule.condition, {}, rule.span):
                    if reference_holds(rule):
                        rules.insert(0, rules.pop(k))
                        return None
                    broken.add(rule.label)
        except RulelangError:
            return None
        return ids, broken


def rebuilds_alone(st: State) -> bool:
    """Whether running ``st`` on after its decision is set aside, with any components
    permuted, can only run the operation that made it again and stop there, changing nothing
    else (or fail): a menu; a choice without ``otherwise`` (which runs on when there is no
    option); a simultaneous choice whose players a permutation cannot change (the same
    players are left to pick). The game over: nothing runs."""
    if st.terminal:
        return True
    decision = st.pending
    if decision is None or decision.span is None:
        return False
    if decision.kind == "menu":
        return True
    return _alone(st.game).get((decision.kind, decision.span), False)


_ALONE: dict[int, tuple[Game, dict[tuple[str, Span], bool]]] = {}
"""``_alone`` of the last few games, by the id of each (kept with it)."""


def _alone(game: Game) -> dict[tuple[str, Span], bool]:
    """By (kind, span) of each choice and simultaneous choice of ``game``'s procedures,
    whether running it again stops there at once (``rebuilds_alone``); made once a game."""
    kept = _ALONE.get(id(game))
    if kept is None or kept[0] is not game:
        if len(_ALONE) >= 16:
            _ALONE.clear()
        catalog = game.catalog
        alone: dict[tuple[str, Span], bool] = {}
        for node in _statements(catalog.decls):
            if isinstance(node, ast.Choose):
                key, fine = ("choose", node.span), node.otherwise is None
            elif isinstance(node, ast.Simultaneous):
                key, fine = ("simultaneous", node.span), static_expression(catalog, node.players)
            else:
                continue
            alone[key] = alone.get(key, fine) and fine
        kept = _ALONE[id(game)] = (game, alone)
    return kept[1]


def _statements(nodes: list[ast.Decl]) -> Iterator[ast.Node]:
    """Every node below ``nodes``, depth first."""
    stack: list[ast.Node] = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(ast.children(node))))
