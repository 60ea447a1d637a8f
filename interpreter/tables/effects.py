"""What the statements of the rules do to a state, on values already computed.

The lowered operations (lower.py) and the compiled procedures (procedures.py) both call
these, so a statement does the same thing, with the same checks, bounds and events, however
it runs.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rulelang.boards import Space
from rulelang.check.zone_types import wrong_zone

from ..model.program import LogLine, LogTemplate, line_text, plain_line
from ..model.values import (
    Component,
    EnumType,
    EnumValue,
    Player,
    Ref,
    RuleError,
    Value,
    ZoneRef,
    display_within,
    kind_of,
)
from .builtins import FREE_WORK, as_list
from .runtime import MAX_INT, MAX_STRING, bounded, join

if TYPE_CHECKING:
    from ..state.state import State
    from .catalog import Catalog

LAZY_TEXT = 8 * FREE_WORK  # a text up to this long is joined by '+' without a charge
_SHOWN_AS_STR = frozenset({Player, EnumValue, EnumType, Component, Space, ZoneRef, Ref})  # display(v) is str(v)
NAMED = _SHOWN_AS_STR | {bool, type(None)}
"""The kinds of value that show as a name of the catalog, or as none, true or false: no
wider than ``widest_shown``."""


# ---- variables ----

def set_global(st: State, name: str, value: Value) -> None:
    st.global_values[name] = value
    if st.event_log is not None:
        st.event_log.append(("set", "global", name, -1, value, -1))


def updated(old: Any, delta: Any, op: str) -> int:
    """The value of ``old += delta`` (or ``-=``): numbers only, bounded."""
    if type(old) is int and type(delta) is int:   # (integers, not booleans: bounded's test in place)
        found = old + delta if op == "+=" else old - delta
        if -MAX_INT <= found <= MAX_INT:
            return found
    if not isinstance(old, int) or not isinstance(delta, int):
        raise RuleError(f"'{op}' needs numbers, got {kind_of(old)} and {kind_of(delta)}")
    result: int = bounded(old + delta if op == "+=" else old - delta)
    return result


# ---- components and tokens ----

NOTHING_TO_MOVE = "nothing to move (the value is none)"


def move(st: State, destination: Any, value: Any) -> None:
    """``move value to destination``: a component, a list of them, or a whole zone. A zone
    that holds one component type (``Catalog.zone_holds``) lets no other enter: the error
    comes before anything moves."""
    if not isinstance(destination, ZoneRef):
        raise RuleError(f"'move ... to' needs a zone, got {kind_of(destination)}")
    holds = st.game.catalog.zone_holds[destination.slot]
    if isinstance(value, Component):
        if holds is not None and value.type != holds:
            raise RuleError(wrong_zone(destination.name, holds, value.type))
        st.move(value, destination.slot)
    elif value is None:
        raise RuleError(NOTHING_TO_MOVE)
    elif type(value) is ZoneRef:  # a whole zone, bottom first: as the loop below would
        moving = st.zones[value.slot]
        size = len(moving)
        if size > FREE_WORK:
            st.charge(size)
        if holds is not None and holds != st.game.catalog.zone_holds[value.slot]:
            _all_held(moving, destination.name, holds)
        st.move_all(value.slot, destination.slot)
    else:
        items: list[Component] = []
        for c in as_list(st, value):
            if not isinstance(c, Component):
                raise RuleError(f"can only move components, not {kind_of(c)}")
            items.append(c)
        if holds is not None:
            _all_held(items, destination.name, holds)
        for c in items:
            st.move(c, destination.slot)


def _all_held(components: Iterable[Component], zone: str, holds: str) -> None:
    """The error of the first of ``components`` not of type ``holds``, which ``zone`` holds."""
    for c in components:
        if c.type != holds:
            raise RuleError(wrong_zone(zone, holds, c.type))


def supply_named(value: Any, name: str) -> str:
    """The supply a variable named in 'gain'/'pay' holds."""
    if not (isinstance(value, Ref) and value.kind == "supply"):
        raise RuleError(f"'{name}' should hold a supply, not a {kind_of(value)}")
    return value.name


def amount(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"an amount must be a number, got {kind_of(value)}")
    if value < 0:
        raise RuleError(f"an amount cannot be negative ({value})")
    return value


# ---- the log ----

def log(st: State, text: str | LogLine, audience: Any = None, private: bool = False) -> None:
    """``log text`` (``private``: ``log text to audience``)."""
    players = None
    if st.event_log is not None:
        text = line_text(text)  # the event holds the text
    if not private:
        st.log_lines.append(text)
    else:
        players = audience_of(st, audience)
        st.private_lines.append((len(st.log_lines), players, text))
    if st.event_log is not None:
        st.event_log.append(("log", text, players))


def say(st: State, template: LogTemplate, values: tuple[Value, ...], audience: Any = None,
        private: bool = False) -> None:
    """``log "text" + a + b...`` (``private``: ``... to audience``), the message's texts in
    ``template`` (``log_template``) and its other operands' ``values``: the line is kept as
    these (a ``LogLine``, built when read) when its text is certainly short, which the kinds
    of the values tell at C speed for most lines; else ``line`` builds it as '+' would."""
    if template.room >= 0 and (NAMED.issuperset(map(type, values)) or _fits(template, values)):
        text: str | LogLine = (template, *values)
    else:
        text = line(st, template.texts[0], template.operands(values))
    if st.event_log is None and not private:
        st.log_lines.append(text)
    else:
        log(st, text, audience, private)


def _fits(template: LogTemplate, values: tuple[Any, ...]) -> bool:
    """Whether the line of ``values`` is certainly within LAZY_TEXT characters when some are
    numbers, texts or lists of names: ``template.room`` counts each value at the widest a name
    shows (``widest_shown``), at least 20 characters, which covers a number within the bounds
    (and the brackets of an empty list); a list of names takes ``template.item`` more for each
    of its items (``[a, b]``: a name and two characters each)."""
    room = template.room
    for value in values:
        kind = type(value)
        if kind is int:
            if not -MAX_INT <= value <= MAX_INT:
                return False
        elif kind is str:
            room -= len(value)
            if room < 0:
                return False
        elif kind is tuple and NAMED.issuperset(map(type, value)):
            room -= len(value) * template.item
            if room < 0:
                return False
        elif kind not in NAMED:
            return False
    return True


def log_template(catalog: Catalog, first: str, layout: Sequence[str | None]) -> LogTemplate:
    """The template of a message ``first + ...`` whose operands after ``first`` are
    ``layout``: a literal text, or None for a value computed as the line is written."""
    texts = [first]
    for text in layout:
        if text is None:
            texts.append("")
        else:
            texts[-1] += text
    values, widest = len(texts) - 1, widest_shown(catalog)
    room = LAZY_TEXT - sum(len(text) for text in texts) - values * max(20, widest)
    return LogTemplate(tuple(texts), tuple(layout), room, widest + 2)


def widest_shown(catalog: Catalog) -> int:
    """The most characters a value of the kinds in NAMED shows as (``display``): the
    players, enumerations, components, zones, spaces and declared things of ``catalog``,
    and none, true and false; the catalog holds every such value a state can hold."""
    names: list[object] = [*catalog.players, *catalog.components, *catalog.zone_refs, *catalog.spaces,
                           *catalog.enums.values(), *catalog.constants.values()]
    for enum in catalog.enums.values():
        names += enum.values
    return max([5, *(len(str(name)) for name in names if type(name) in NAMED)])


def reveal(st: State, shown: Value, audience: Any) -> None:
    """``reveal shown to audience``: a private line, and the audience knows where they are."""
    text = lazy_text(shown, "you see ")
    players = audience_of(st, audience)
    if st.event_log is not None:
        text = line_text(text)
    st.private_lines.append((len(st.log_lines), players, text))
    st.revealed(shown, players)
    if st.event_log is not None:
        st.event_log.append(("log", text, players))


def turn_begins(st: State, player: Value) -> None:
    """``log turn PLAYER``: the turn of ``player`` begins (an event, for the narration);
    ``log turn none``: a turn that is no player's (no event: the narration heads none)."""
    if player is None:
        return
    if not isinstance(player, Player):
        raise RuleError(f"'log turn' needs a player or none, got {kind_of(player)}")
    if st.event_log is not None:
        st.event_log.append(("turn", player.index))


def line(st: State, first: str, values: Sequence[Value]) -> str | LogLine:
    """The line ``first + values[0] + values[1]...`` that a 'log' writes, its text built
    only when the log is read (``LogLine``) while it is known to be short: each '+' joins
    texts as it would have (the same line, the same charges and bounds: a line is kept for
    later only while its text stays within LAZY_TEXT characters, which '+' does not charge)."""
    room = LAZY_TEXT - len(first)
    for k, value in enumerate(values):
        # (the usual values sized here, as shown_size would, without a call)
        if type(value) is str:
            size = len(value)
        elif type(value) is int and -MAX_INT <= value <= MAX_INT:
            size = 20
        else:
            size = shown_size(value, room)
            if size < 0:
                return _line_built(st, (first, *values[:k]), values[k:])
        room -= size
        if room < 0:
            return _line_built(st, (first, *values[:k]), values[k:])
    return plain_line((first, *values))


def _line_built(st: State, pieces: tuple[Value, ...], rest: Sequence[Value]) -> str:
    """The rest of ``line`` once its text is too long to keep for later: the ``pieces`` kept
    so far joined, then each value of ``rest`` joined by '+', a long text charged."""
    text = line_text(plain_line(pieces))  # what the '+' so far made, uncharged
    for value in rest:
        text = join(text, value)
        if len(text) > LAZY_TEXT:
            st.charge(len(text) // 8)
    return log_text(text, "")


def shown_size(value: Any, room: int) -> int:
    """At least the length of ``display(value)`` when that is at most ``room``, else -1:
    found without building the text of most values."""
    kind = type(value)
    if kind is str:
        size = len(value)
    elif kind is int:
        size = 20 if -MAX_INT <= value <= MAX_INT else room + 1
    elif kind is bool or value is None:
        size = 5
    elif kind in _SHOWN_AS_STR:
        size = len(str(value))
    elif kind is tuple:
        size = 2 * len(value) or 2  # the brackets and the separators
        for item in value:
            if size > room:
                return -1
            more = shown_size(item, room - size)
            if more < 0:
                return -1
            size += more
    else:
        return -1
    return size if size <= room else -1


def lazy_text(value: Value, prefix: str) -> str | LogLine:
    """``log_text(value, prefix)``, kept as a ``LogLine`` to build later when the text is
    known to be short enough."""
    if type(value) is not str and shown_size(value, MAX_STRING - len(prefix)) >= 0:
        return plain_line((prefix, value))
    return log_text(value, prefix)


def log_text(value: Value, prefix: str) -> str:
    """A value as a line of the log (at most MAX_STRING characters)."""
    text = value if isinstance(value, str) else display_within(value, MAX_STRING - len(prefix))
    if text is None or len(text) + len(prefix) > MAX_STRING:
        raise RuleError(f"this {kind_of(value)} as text makes more than {MAX_STRING} characters to log")
    return prefix + text


def audience_of(st: State, value: Any) -> tuple[int, ...]:
    """The players a private line is for: a player, or a list (or zone) of players."""
    indices: set[int] = set()
    for p in (value,) if isinstance(value, Player) else as_list(st, value):
        if not isinstance(p, Player):
            raise RuleError(f"'to' needs a player or a list of players, not {kind_of(p)}")
        indices.add(p.index)
    return tuple(sorted(indices))
