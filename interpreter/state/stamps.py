"""What a shuffle tells the players: only those who see the zone in full know where its
components are, and they come from one shuffle (infostate.py), in each component's entry of
``State.component_knowledge``."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State


def shuffled_knowledge(st: State, slot: int) -> None:
    """After a shuffle of the zone in ``slot``: each of its components' knowledge is the
    shuffle's stamp. A zone that holds a run of ids (the components of a whole deck, as a
    shuffled pile usually does) has their entries set as one slice: where it holds every
    component its type allows (``Catalog.whole_run``) with no test, else where the test of
    where the run's components are finds them all here."""
    catalog = st.game.catalog
    stamp = (len(st.action_history) * len(st.zones) + slot + 1) << st.game.num_players | catalog.zone_seers[slot]
    knowledge, zone = st.component_knowledge, st.zones[slot]
    count = len(zone)
    first, stop = catalog.whole_run[slot]
    if stop - first == count:   # (the whole run is here)
        knowledge[first:stop] = [stamp] * count
        return
    first = catalog.deck_first[zone[0].id] if zone else 0
    if st.component_zone[first:first + count].count(slot) == count:   # (ids first.. all here: the zone's own)
        knowledge[first:first + count] = [stamp] * count
        return
    for component in zone:
        knowledge[component.id] = stamp
