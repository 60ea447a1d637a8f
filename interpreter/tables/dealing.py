"""A deal: the top of one zone moved to each of several zones in turn, in one call.

The compiler writes a loop (or a nest of loops) whose body only moves the top of one zone
as one call of ``deal_tops`` (compiler/deals.py), where the zone holds enough components
and no events are kept: each component goes where ``State.move_top`` would have put it, and
whoever sees the zone it enters learns where it is, as there (who sees the zone it leaves
knew: ``State.component_knowledge``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.values import Component
    from ..state.state import State

NO_RUN = (0, -1)
"""``Catalog.whole_run`` of a zone whose components are no one run: no length is ``-1 - 0``."""


def whole_runs(holds: Sequence[str | None], components: Sequence[Component]) -> list[tuple[int, int]]:
    """By zone slot (``holds``: ``Catalog.zone_holds``): the ids ``(first, stop)`` of every
    component of the type the zone holds, where they are one run of ids, else ``NO_RUN``.

    Components are neither made nor destroyed in play, each is in exactly one zone, and a zone
    that holds one type lets no other in (``effects.move``, the compiled moves, the position readers). So
    a zone of such a type that holds ``stop - first`` components holds the whole run, in some
    order: a shuffled pile's stamp, and a deal of all of it, need no test of where each is."""
    ids: dict[str, list[int]] = {}
    for component in components:
        ids.setdefault(component.type, []).append(component.id)
    runs: dict[str, tuple[int, int]] = {}
    for kind, of_kind in ids.items():
        if of_kind[-1] - of_kind[0] + 1 == len(of_kind):   # (ascending, so no gap)
            runs[kind] = (of_kind[0], of_kind[-1] + 1)
    return [runs.get(kind, NO_RUN) if kind is not None else NO_RUN for kind in holds]


def deal_tops(st: State, source: int, slots: list[int]) -> None:
    """``State.move_top(source, slot)`` for each of ``slots`` in turn (the zone in ``source``
    holds at least as many components, no slot is ``source``, no event is kept)."""
    zones = st.zones
    zone = zones[source]
    zone_of, knowledge = st.component_zone, st.component_knowledge
    seers = st.game.catalog.zone_seers   # who saw it arrive knows where it is
    for slot in slots:
        component = zone.pop()
        zones[slot].append(component)
        cid = component.id
        zone_of[cid] = slot
        knowledge[cid] |= seers[slot]


def deal_rounds(st: State, source: int, slots: list[int], rounds: int) -> None:
    """``deal_tops`` of ``slots`` repeated ``rounds`` times: the top of the zone in ``source``
    to each of ``slots`` in turn, round after round. Where no slot comes twice in a round, each
    zone takes its components as one slice (the k-th from the top goes to slot k % len(slots))."""
    count = len(slots)
    if len(set(slots)) < count:
        deal_tops(st, source, slots * rounds)
        return
    if not rounds or not count:
        return
    zones = st.zones
    zone = zones[source]
    known = one_knowledge(st, source) if count * rounds * 4 >= len(zone) else None   # (most of it dealt)
    taken = zone[-count * rounds:]
    del zone[-count * rounds:]
    taken.reverse()   # (top first, as they are dealt)
    zone_of, knowledge = st.component_zone, st.component_knowledge
    seers = st.game.catalog.zone_seers
    left = seers[source]
    for first, slot in enumerate(slots):
        dealt = taken[first::count]
        zones[slot] += dealt
        seen = seers[slot]
        if not seen & ~left:   # (nobody new sees them: their zones only)
            for component in dealt:
                zone_of[component.id] = slot
            continue
        if known is not None:   # (each knows what all of them knew, and who sees its new zone)
            now = known | seen
            for component in dealt:
                cid = component.id
                zone_of[cid] = slot
                knowledge[cid] = now
            continue
        for component in dealt:
            cid = component.id
            zone_of[cid] = slot
            knowledge[cid] |= seen


def one_knowledge(st: State, slot: int) -> int | None:
    """What every component of the zone in ``slot`` knows (``State.component_knowledge``),
    where it holds a run of ids (a whole deck, as a pile does once gathered) that all know
    the same (once it is shuffled: the shuffle's stamp and who sees the zone); else None.
    Tests of slices at C speed: of where the run's components are, unless the zone holds
    every component its type allows (``Catalog.whole_run``), and of what they know."""
    zone = st.zones[slot]
    count = len(zone)
    if not count:
        return None
    catalog = st.game.catalog
    first, stop = catalog.whole_run[slot]
    knowledge = st.component_knowledge
    if stop - first != count:
        first = catalog.deck_first[zone[0].id]
        if st.component_zone[first:first + count].count(slot) != count:
            return None
    known = knowledge[first]
    if knowledge[first:first + count].count(known) == count:
        return known
    return None
