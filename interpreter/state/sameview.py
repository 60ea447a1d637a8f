"""Whether a seat sees the same in two states of one game: ``view_of`` makes what he sees
(his observation and labelled options, as the information-set sampler compares them);
``asked`` and ``alike_to`` tell, without making either observation, that two states show
him the same (the sampler's check of every sample it keeps)."""
from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING

from ..model.visibility import shown

if TYPE_CHECKING:
    from ..model.values import Value
    from .state import State


def view_of(st: State, viewer: int) -> tuple[object, ...]:
    """What ``viewer`` can tell a state by: his observation and his labelled legal actions."""
    return st.observation(viewer), [(a.id, a.label) for a in st.legal_actions(viewer)]


def asked(st: State, viewer: int) -> tuple[object, ...]:
    """What an observation shows of the decision awaited: who is to act (and, in a
    simultaneous choice, who has chosen), and what ``viewer`` is asked, if he is; with his
    labelled options."""
    pending = st.pending
    options = [(a.id, a.label) for a in st.legal_actions(viewer)]
    if pending is None or st.terminal:
        return st.terminal, pending is None, options
    chosen = list(pending.chosen) if pending.kind == "simultaneous" else None
    asked: tuple[object, ...] = ()
    if viewer in pending.players:
        context = st.decision(viewer)
        assert context is not None
        asked = context.prompt, context.kind, [(a.id, a.label) for a in context.actions]
    return False, list(pending.players), chosen, asked, options


def alike_to(sample: State, seen: State, viewer: int) -> bool:
    """Whether ``viewer``'s observation of ``sample`` is sure to equal his observation of
    ``seen`` (whose decision awaited he sees alike, ``asked``) without making either:
    neither is over, and every table an observation is made of holds the same values in
    both (the same objects, or values shown alike), the log too, but for the zones whose
    size only, or nothing, he sees, which may hold other components. False: not sure."""
    if sample.terminal or seen.terminal or sample.game is not seen.game:
        return False
    if sample.supply_counts != seen.supply_counts or sample.log_lines != seen.log_lines:
        return False
    if own_lines(sample, viewer) != own_lines(seen, viewer):
        return False
    if not alike_tables({"": list(sample.global_values.values())}, {"": list(seen.global_values.values())}):
        return False
    if any(not alike_tables(mine, theirs) for mine, theirs in
           ((sample.player_values, seen.player_values), (sample.space_values, seen.space_values),
            (sample.component_values, seen.component_values))):
        return False
    if list(sample.global_values) != list(seen.global_values):
        return False
    bit, seers = 1 << viewer, sample.game.catalog.zone_seers
    return all(mine == theirs or (not seers[slot] & bit and len(mine) == len(theirs))
               for slot, (mine, theirs) in enumerate(zip(sample.zones, seen.zones, strict=True)))


def own_lines(st: State, viewer: int) -> list[tuple[int, tuple[int, ...], object]]:
    """The private lines of the log that ``viewer`` sees."""
    return [line for line in st.private_lines if viewer in line[1]]


def alike_tables(mine: dict[str, list[Value]], theirs: dict[str, list[Value]]) -> bool:
    """Whether two tables of variables hold, name for name, values shown alike."""
    if mine.keys() != theirs.keys():
        return False
    for name, values in mine.items():
        others = theirs[name]
        if len(values) != len(others):
            return False
        if not all(map(is_, values, others)) and any(
                a is not b and shown(a) != shown(b) for a, b in zip(values, others, strict=True)):
            return False
    return True
