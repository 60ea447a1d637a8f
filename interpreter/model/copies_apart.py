"""The zones that never hold a component that has a copy, as the compiler proved them from the
ruleset's moves (``interpreter/compiler/zone_flow.py``), and whether that proof still holds
for the game: a state made from data (saved JSON, a position: ``state_from_json``) may place
components where no rule moves them, and then every choice tests its lists for copies again."""
from __future__ import annotations

from collections.abc import Sequence

from .values import Component

__all__ = ["CopiesApart"]


class CopiesApart:
    """``slots``: the zone slots no component of ``twins`` (the ids of the components that
    have a copy) ever reaches by the rules; ``broken``: a state of this game was made with
    one of them in such a slot (from then on, for every state of the game)."""

    __slots__ = ("broken", "slots", "twins")

    def __init__(self, slots: frozenset[int], twins: frozenset[int]):
        self.slots, self.twins, self.broken = slots, twins, False

    def check(self, zones: Sequence[Sequence[Component]]) -> None:
        """Mark the proof broken if ``zones`` (a state's, placed from data) hold a component
        that has a copy in a slot the rules never bring one to."""
        twins = self.twins
        if not self.broken and any(c.id in twins for slot in self.slots for c in zones[slot]):
            self.broken = True
