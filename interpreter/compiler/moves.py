"""The generated code of 'move': the few cases most moves are, written as one call each.

``move top(ZONE) to W`` takes the zone's last component off in place (``State.move_top``),
without reading it first and searching for it; ``move ZONE to W`` of a zone with at most
FREE_WORK components, which costs no work (``effects.move``), is one ``State.move_all``;
one component is ``State.move``. A zone the rules name (a constant of the generated code), or
a player's own zone of a player the text proves, needs no test of its kind where it runs.
Anything else (a list, none, a value of another kind) goes to ``effects.move``, which says
what is wrong where the rules wrote it.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from rulelang import ast

from ..model.values import Component, ZoneRef
from ..tables.builtins import AGGREGATES, FREE_WORK
from ..tables.catalog import Catalog
from .module import Module

_CONSTANT = re.compile(r"_k\d+")  # the name of a constant of the generated code (Module.constant)
_PLAYERS_ZONE = re.compile(r"\((_k\d+)\[(_[lv]\d+)\.index\]\)")  # zones[p.index], p a local known a player


def top_of(node: ast.Expr, cat: Catalog) -> ast.Expr | None:
    """The zone of ``node`` if it is the builtin ``top(ZONE)`` (not a function or component
    type of the rules named so), else None."""
    if not (isinstance(node, ast.Call) and node.function == "top" and len(node.args) == 1):
        return None
    if "top" in cat.component_types or "top" in cat.functions or "top" in AGGREGATES \
            or "top" in cat.load_time_functions:
        return None
    return node.args[0]


def move_lines(node: ast.Move, cat: Catalog, write: Callable[[ast.Expr], str], module: Module,
               certain: Callable[[ast.Expr], type | None] = lambda node: None,
               typed: Callable[[ast.Expr], str | None] = lambda node: None,
               component_of: Callable[[ast.Expr], str | None] = lambda node: None,
               gathered: str | None = None) -> list[str]:
    """The lines (indented from 0) of ``move what to destination``: the destination is
    evaluated first, then what moves, as ``effects.move`` receives them. ``certain``: the
    class an expression certainly has (a zone, a component), where the text proves it: its
    kind is then not tested. ``typed``: the type of a component the text proves (typed.py):
    a zone that holds one type (``Catalog.zone_holds``) lets another in only by
    ``effects.move``, which refuses it; where the text does not prove the types agree, the
    way in place tests them. ``component_of``: the type of the component that an expression
    is, or none (``top(Z)`` of a typed zone, a local that holds one: typed.py), where the
    text proves it: never a zone, so only a component's way and the general one (none's
    error) are written. ``gathered``: the slot of the zone whose entries a mend writes after
    this move (gathered.py), where a whole zone moved onto it leaves them to it."""
    zone = top_of(node.what, cat)
    what = write(node.what if zone is None else zone)
    to = write(node.to)
    to_slot, what_slot = _slot(to, module), _slot(what, module)
    where = to if to_slot is not None else module.fresh("_t")  # (a constant is read where it is used)
    moved = what if what_slot is not None else module.fresh("_t")
    lines = [f"{name} = {text}" for name, text in ((where, to), (moved, what)) if name != text]
    to_zone = "" if to_slot is not None or certain(node.to) is ZoneRef else f"type({where}) is _ZoneRef"
    holds = _Holds(cat, module, to_slot, typed(node.to))
    to_slot = to_slot if to_slot is not None else f"{where}.slot"
    if zone is not None:
        what_zone = "" if what_slot is not None else f"type({moved}) is _ZoneRef"
        held = holds.zone(what_slot, what_slot if what_slot is not None else f"{moved}.slot", to_slot, typed(zone))
        what_slot = what_slot if what_slot is not None else f"{moved}.slot"
        return lines + _tested([to_zone, what_zone, held], f"st.move_top({what_slot}, {to_slot})",
                               f"_move(st, {where}, _top(st, {moved}))")
    general = f"_move(st, {where}, {moved})"
    moving = certain(node.what) if zone is None and what_slot is None else None
    if moving is ZoneRef:   # a whole zone, known to be one
        held = holds.zone(None, f"{moved}.slot", to_slot, typed(node.what))
        what_slot = f"{moved}.slot"
    else:
        held = holds.zone(what_slot, what_slot, to_slot, typed(node.what)) if what_slot is not None else ""
    if moving is Component:
        held = holds.component(typed(node.what), moved, to_slot)
        if not to_zone and not held:   # (State.move in place: no call)
            return lines + component_moved(moved, to_slot, module, cat)
        if not to_zone:
            in_place = component_moved(moved, to_slot, module, cat)
            return [*lines, f"if {held}:", *("    " + line for line in in_place), "else:", f"    {general}"]
        return lines + _tested([to_zone, held], f"st.move({moved}, {to_slot})", general)
    if what_slot is not None and not to_zone and not held:  # a whole zone: one moved in place, else State.move_all
        return lines + zone_moved(what_slot, to_slot, general, module, cat, gathered)
    if what_slot is not None:  # a whole zone that the rules name (or a player's own)
        return lines + _tested([to_zone, f"len(st.zones[{what_slot}]) <= {FREE_WORK}", held],
                               f"st.move_all({what_slot}, {to_slot})", general)
    first = "if"
    if to_zone:
        lines += [f"if type({where}) is not _ZoneRef:", f"    {general}"]
        first = "elif"
    # (a component to a zone the text names: State.move in place, no call)
    component = component_moved(moved, to_slot, module, cat) if not to_zone else [f"st.move({moved}, {to_slot})"]
    known = component_of(node.what)
    if known is not None:   # (a component of a known type, or none: no zone's way; its type tested where it differs)
        some = holds.component(known, moved, to_slot)
        return [*lines, f"{first} {moved} is not None{' and ' + some if some else ''}:",   # (the one other value)
                *("    " + line for line in component), "else:", f"    {general}"]
    some = holds.component(None, moved, to_slot)
    some_zone = holds.zone(None, f"{moved}.slot", to_slot, None)
    return [*lines,
            f"{first} type({moved}) is _Component{' and ' + some if some else ''}:",
            *("    " + line for line in component),
            f"elif type({moved}) is _ZoneRef{' and ' + some_zone if some_zone else ''}"
            f" and len(_m_zone := st.zones[{moved}.slot]) <= {FREE_WORK}:",
            *("    " + line for line in all_moved(f"{moved}.slot", to_slot, module, cat, gathered)),
            "else:",
            f"    {general}"]


class _Holds:
    """The tests, in place, that what a move takes in may enter its destination zone: the
    component type each zone holds (``Catalog.zone_holds``, None: any), known from the
    text where it names the zones (a slot, or a player's own zone of one name), else read
    where it runs; an empty test where the text proves it."""

    def __init__(self, cat: Catalog, module: Module, to_slot: str | None, typed: str | None):
        self.cat, self.module = cat, module
        self.to = _one(slot_holds(to_slot, module, cat)) if to_slot is not None else _UNKNOWN
        if self.to is _UNKNOWN and typed is not None:   # (a zone of a type, the text proves: typed.py)
            self.to = typed
        self.only = only_type(cat)   # (every component of the game is of it: any may enter)
        if self.only is not None and self.to in (self.only, _UNKNOWN):
            self.to = None

    def _table(self) -> str:
        table = _HOLDS_TABLES.get(self.module)
        if table is None:
            table = _HOLDS_TABLES[self.module] = self.module.constant(tuple(self.cat.zone_holds),
                                                                      "<the component type each zone holds>")
        return table

    def component(self, known: str | None, moved: str, to_slot: str) -> str:
        """The test that the component ``moved`` (known to be of type ``known``) may enter."""
        if self.to is None or (known is not None and self.to == known):
            return ""
        if self.to is not _UNKNOWN:
            return f"{moved}.type == {self.module.constant(self.to)}"
        return f"{self._table()}[{to_slot}] in (None, {moved}.type)"

    def zone(self, static: str | None, what_slot: str, to_slot: str, typed: str | None) -> str:
        """The test that the components of the zone in ``what_slot`` (``static``: the text
        of a slot the text names; ``typed``: the type it holds, where the text proves it)
        may enter, where they are all of its type."""
        if self.to is None:
            return ""
        known = _one(slot_holds(static, self.module, self.cat)) if static is not None else _UNKNOWN
        known = typed if known is _UNKNOWN and typed is not None else known
        if known is not _UNKNOWN and known == self.to:
            return ""
        table = self._table()
        return f"{table}[{to_slot}] in (None, {table}[{what_slot}])"


_UNKNOWN = "<unknown>"
_HOLDS_TABLES: WeakKeyDictionary[Module, str] = WeakKeyDictionary()


def _one(found: set[str | None] | None) -> str | None:
    """The one type of ``found``, or _UNKNOWN."""
    return next(iter(found)) if found is not None and len(found) == 1 else _UNKNOWN


def only_type(cat: Catalog) -> str | None:
    """The one component type of the game's components, where they are all of one and
    every zone holds any type or that one (so no move can put a component where its type
    is refused); else None."""
    types = {component.type for component in cat.components} if cat.decks_built else set()
    if len(types) != 1:
        return None
    only = types.pop()
    return only if all(holds is None or holds == only for holds in cat.zone_holds) else None


def slot_holds(slot: str, module: Module, cat: Catalog) -> set[str | None] | None:
    """The component types (None: any) that the zones a slot's text (``_slot``: a number,
    or a table of a player's own zones' slots) may give hold; None where it is not such a text."""
    if slot.isdigit():
        return {cat.zone_holds[int(slot)]}
    found = re.fullmatch(r"(_k\d+)\[\w+\.index\]", slot)
    slots = module.namespace.get(found.group(1)) if found else None
    if type(slots) is not tuple or not slots or not all(type(s) is int for s in slots):
        return None
    return {cat.zone_holds[s] for s in slots}


def component_moved(moved: str, to_slot: str, module: Module, cat: Catalog) -> list[str]:
    """``State.move`` of the component ``moved`` (a local) to the zone in ``to_slot``, written
    in place: the same lists, knowledge and event as the method's."""
    slot = _local_slot(to_slot, "_m_to")
    return [*([] if slot == to_slot else [f"_m_to = {to_slot}"]),
            f"_m_id = {moved}.id",
            "_m_from = st.component_zone[_m_id]",
            "_m_zone = st.zones[_m_from]",
            f"if _m_zone[-1] is {moved}:",
            "    _m_zone.pop()",
            "else:",
            f"    _m_zone.remove({moved})",
            *_arrived(moved, ("_m_from", "_m_from"), (slot, to_slot), module, cat)]


def zone_moved(what_slot: str, to_slot: str, general: str, module: Module, cat: Catalog,
               gathered: str | None = None) -> list[str]:
    """``move ZONE to W``, both known to be zones: a zone of one component moves it in place
    (as ``State.move_all`` would), one of at most FREE_WORK too where no event is kept
    (``all_moved``: by ``State.move_all`` otherwise; an empty one moves nothing), a longer one
    by ``general`` (which charges it). Onto the zone in ``gathered``, no entry of
    ``component_zone`` is written in place (gathered.py's mend writes them)."""
    source, slot = _local_slot(what_slot, "_m_from"), _local_slot(to_slot, "_m_to")
    deferred = gathered is not None and slot == gathered
    if deferred and _seen_by((source, what_slot), (slot, to_slot), module, cat) is None:   # (the lists alone)
        other = "" if source.isdigit() and source != slot else f" and {source} != {slot}"
        return [*([] if source == what_slot else [f"_m_from = {what_slot}"]),
                f"_m_zone = st.zones[{source}]",
                f"if len(_m_zone) <= {FREE_WORK} and st.event_log is None{other}:",
                f"    st.zones[{slot}] += _m_zone",
                "    _m_zone.clear()",
                f"elif len(_m_zone) <= {FREE_WORK}:",
                f"    st.move_all({source}, {slot})",
                "else:",
                f"    {general}"]
    return [*([] if slot == to_slot else [f"_m_to = {to_slot}"]),
            *([] if source == what_slot else [f"_m_from = {what_slot}"]),
            f"_m_zone = st.zones[{source}]",
            "if len(_m_zone) == 1:",
            "    _m_moved = _m_zone.pop()",
            "    _m_id = _m_moved.id",
            *("    " + line for line in _arrived("_m_moved", (source, what_slot), (slot, to_slot), module, cat,
                                              deferred)),
            f"elif len(_m_zone) <= {FREE_WORK}:",
            *("    " + line for line in all_moved(source, slot, module, cat, gathered)),
            "else:",
            f"    {general}"]


def all_moved(source: str, slot: str, module: Module, cat: Catalog, gathered: str | None = None) -> list[str]:
    """``State.move_all`` of the zone ``_m_zone`` (in ``source``) to the zone in ``slot``,
    written in place where it holds components and no event is kept: each component's
    zone and knowledge as the method sets them (no knowledge where the move adds none:
    ``_seen_by``), then the list moved (onto a zone of another slot: a zone moved onto itself
    keeps its order, ``State.move_all`` moves it). Onto the zone in ``gathered``, where the
    move adds no knowledge, the lists alone (gathered.py's mend writes the zones)."""
    other = "" if source.isdigit() and slot.isdigit() and source != slot else f" and {source} != {slot}"
    seen = _seen_by((source, source), (slot, slot), module, cat)
    if seen is None and gathered is not None and slot == gathered:
        return [f"if _m_zone and st.event_log is None{other}:",
                f"    st.zones[{slot}] += _m_zone",
                "    _m_zone.clear()",
                "elif _m_zone:",
                f"    st.move_all({source}, {slot})"]
    if seen is None:
        return [f"if _m_zone and st.event_log is None{other}:",
                "    _m_of = st.component_zone",
                "    for _m_moved in _m_zone:",
                f"        _m_of[_m_moved.id] = {slot}",
                f"    st.zones[{slot}] += _m_zone",
                "    _m_zone.clear()",
                "elif _m_zone:",
                f"    st.move_all({source}, {slot})"]
    return [f"if _m_zone and st.event_log is None{other}:",
            f"    _m_seen, _m_of, _m_known = {seen}, st.component_zone, st.component_knowledge",
            "    for _m_moved in _m_zone:",
            "        _m_id = _m_moved.id",
            f"        _m_of[_m_id] = {slot}",
            "        _m_known[_m_id] |= _m_seen",
            f"    st.zones[{slot}] += _m_zone",
            "    _m_zone.clear()",
            "elif _m_zone:",
            f"    st.move_all({source}, {slot})"]


def _arrived(moved: str, source: tuple[str, str], slot: tuple[str, str], module: Module, cat: Catalog,
             deferred: bool = False) -> list[str]:
    """The lines after ``moved`` (whose id is ``_m_id``) left the zone in ``source``: it goes
    on top of the zone in ``slot``, and whoever sees either zone knows where it is. Each zone
    is a local or a number, with the text that computed it (its zones may tell who sees it).
    ``deferred``: its entry of ``component_zone`` left to gathered.py's mend."""
    seen = _seen_by(source, slot, module, cat)
    return [f"st.zones[{slot[0]}].append({moved})",
            *([] if deferred else [f"st.component_zone[_m_id] = {slot[0]}"]),
            *([] if seen is None else [f"st.component_knowledge[_m_id] |= {seen}"]),
            "if st.event_log is not None:",
            f"    st.event_log.append(('move', _m_id, {source[0]}, {slot[0]}))"]


def _seen_by(source: tuple[str, str], slot: tuple[str, str], module: Module, cat: Catalog) -> str | None:
    """The bits a move (``_arrived``) adds to what its component's knowledge holds: those of
    the players who see the zone it enters, as a number where the text tells it, else read
    from the table of every zone's; None where none can be new (a zone nobody sees in full,
    or one whose seers all see the zone it leaves: a component's knowledge holds those of
    its zone already, ``State.component_knowledge``)."""
    leaves, enters = (_seers(text, cat, module) for _, text in (source, slot))
    if enters == 0 or (enters is not None and leaves is not None and not enters & ~leaves):
        return None
    if enters is not None:
        return str(enters)
    return f"{module.constant(cat.zone_seers, '<the players who see each zone>')}[{slot[0]}]"


def _seers(text: str, cat: Catalog, module: Module) -> int | None:
    """The bits of the players who see the zone that ``text`` gives where every zone it may
    give has the same (a zone the rules name, a number; or a player's own, read from the
    constant table of their slots), else None."""
    found = re.fullmatch(r"(_k\d+)\[\w+\.index\]", text)
    slots = (int(text),) if text.isdigit() else module.namespace.get(found.group(1)) if found else None
    if type(slots) is not tuple or not slots or not all(type(slot) is int for slot in slots):
        return None
    masks = {cat.zone_seers[slot] for slot in slots}
    return masks.pop() if len(masks) == 1 else None


def _local_slot(slot: str, local: str) -> str:
    """``slot`` if it is a number, else ``local`` (which the caller sets to it)."""
    return slot if slot.isdigit() else local


def zone_slot(text: str, module: Module) -> str | None:
    """The slot, as source, of the zone that the generated ``text`` names if it is a constant
    of the module holding a zone, else None."""
    if _CONSTANT.fullmatch(text):
        value = module.namespace.get(text)
        if type(value) is ZoneRef:
            return str(value.slot)
    return None


def zone_list(text: str, module: Module) -> str:
    """The list of the zone that the generated ``text`` certainly gives: by its slot where the
    text names it (a number, or read from the constant table of a player's own zones' slots:
    no ZoneRef read), else by the zone's."""
    return f"st.zones[{_slot(text, module) or f'{text}.slot'}]"


def top_in_place(text: str, module: Module) -> str | None:
    """``top(ZONE)`` read in place where the generated ``text`` certainly names a zone (one the
    rules name, or a player's own): its last component, none if it is empty (``runtime.top``)."""
    slot = _slot(text, module)
    if slot is None:
        return None
    return f"(st.zones[{slot}] or {module.constant((None,), '<the top of an empty zone: none>')})[-1]"


def listed_in_place(text: str, module: Module, looked: str) -> str | None:
    """``list(ZONE)`` read in place where the generated ``text`` certainly names a zone (one
    the rules name, or a player's own): the tuple of its list where it holds at most
    FREE_WORK components, else ``looked`` (the call that charges the look); None where the
    text does not name one."""
    slot = _slot(text, module)
    if slot is None:
        return None
    return f"(tuple(st.zones[{slot}]) if len(st.zones[{slot}]) <= {FREE_WORK} else {looked})"


def _slot(text: str, module: Module) -> str | None:
    """The slot, as source, of a zone that ``text`` certainly names: one the rules name, or a
    player's own of a player the text proves."""
    return zone_slot(text, module) or players_zone_slot(text, module)


def players_zone_slot(text: str, module: Module) -> str | None:
    """The slot, as source, of the zone that the generated ``text`` reads as a player's own
    (``zones[p.index]``, a constant tuple of the zones of that name of every player, by the
    index of a local the text proves a player: nothing there can fail), else None."""
    found = _PLAYERS_ZONE.fullmatch(text)
    zones = module.namespace.get(found.group(1)) if found else None
    if found is None or type(zones) is not tuple or not all(type(zone) is ZoneRef for zone in zones):
        return None
    numbers = tuple(zone.slot for zone in zones)
    kept = _SLOT_TABLES.setdefault(module, {})   # (one table for equal slots: the same text reads one zone)
    if numbers not in kept:
        kept[numbers] = module.constant(numbers, f"<the slots of {found.group(1)}>")
    return f"{kept[numbers]}[{found.group(2)}.index]"


_SLOT_TABLES: WeakKeyDictionary[Module, dict[tuple[int, ...], str]] = WeakKeyDictionary()


def _tested(tests: list[str], fast: str, general: str) -> list[str]:
    """``fast`` where every one of ``tests`` holds (an empty test always does), else ``general``."""
    needed = [test for test in tests if test]
    if not needed:
        return [fast]
    return [f"if {' and '.join(needed)}:", f"    {fast}", "else:", f"    {general}"]
