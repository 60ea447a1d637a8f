"""A deal: the top of one zone moved to each of several zones in turn, in one call.

The compiler writes a loop (or a nest of loops) whose body only moves the top of one zone
as one call of ``deal_tops`` (compiler/deals.py), where the zone holds enough components
and no events are kept: each component goes where ``State.move_top`` would have put it, and
whoever sees the zone it enters learns where it is, as there (who sees the zone it leaves
knew: ``State.component_knowledge``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state.state import State


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
    Two tests of slices at C speed."""
    zone = st.zones[slot]
    count = len(zone)
    if not count:
        return None
    first = st.game.catalog.deck_first[zone[0].id]
    knowledge = st.component_knowledge
    known = knowledge[first]
    if st.component_zone[first:first + count].count(slot) == count \
            and knowledge[first:first + count].count(known) == count:
        return known
    return None
