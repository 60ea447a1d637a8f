"""Built-in functions of the language: pure queries over values and the state.

Each entry is ``name -> (min_args, max_args, function(st, *args))``. Aggregates over
generators (sum, count, any, all, min, max, sorted, best, first) are compiled in lower.py.
"""
from __future__ import annotations

from .values import Component, EnumType, Ref, RuleError, ZoneRef, kind_of


def as_list(st, value) -> tuple:
    """A value seen as a sequence: a list, a zone's contents (bottom first), a range..."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, ZoneRef):
        return tuple(st.zones[value.slot])
    if isinstance(value, range):
        return tuple(value)
    if isinstance(value, dict):
        return tuple(value)
    if isinstance(value, EnumType):
        return value.values
    if isinstance(value, Ref) and value.kind == "board":
        return value.target.spaces
    if isinstance(value, Ref) and value.kind == "die":
        return value.target
    raise RuleError(f"expected a list or a zone, got {kind_of(value)}")


def _int(value, what="a number") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"expected {what}, got {kind_of(value)}")
    return value


def _board(value):
    if isinstance(value, Ref) and value.kind == "board":
        return value.target
    raise RuleError(f"expected a board, got {kind_of(value)}")


def _board_of(st, space):
    try:
        return st.game.catalog.boards[space.board]
    except (AttributeError, KeyError):
        raise RuleError(f"expected a space, got {kind_of(space)}") from None


def size(st, value):
    if isinstance(value, ZoneRef):
        return len(st.zones[value.slot])
    return len(as_list(st, value))


def top(st, zone, n=None):
    items = st.zones[zone.slot] if isinstance(zone, ZoneRef) else as_list(st, zone)
    if n is None:
        return items[-1] if items else None
    n = _int(n)
    return tuple(reversed(items[-n:])) if n > 0 else ()


def bottom(st, zone):
    items = as_list(st, zone)
    return items[0] if items else None


def next_player(st, player, steps=1):
    n = st.game.num_players
    return st.game.catalog.players[(player.index + _int(steps)) % n]


def rotate(st, seq, start):
    items = as_list(st, seq)
    if start not in items:
        raise RuleError(f"rotate: {start} is not in the list")
    i = items.index(start)
    return items[i:] + items[:i]


def index_of(st, seq, item):
    items = as_list(st, seq)
    return items.index(item) if item in items else -1


def bank(st, supply):
    if not (isinstance(supply, Ref) and supply.kind == "supply"):
        raise RuleError(f"bank() takes a supply, got {kind_of(supply)}")
    return st.sup[supply.name][0]


def tokens(st, holder, supply):
    """How many tokens of ``supply`` (a supply, or a variable holding one) ``holder`` has."""
    if not (isinstance(supply, Ref) and supply.kind == "supply"):
        raise RuleError(f"tokens() takes a holder and a supply, got {kind_of(supply)}")
    return st.sup[supply.name][st.game.catalog.holder_slot(holder)]


def owner(st, zone):
    if not isinstance(zone, ZoneRef):
        raise RuleError(f"owner() takes a zone, got {kind_of(zone)}")
    return zone.owner


def zone_of(st, component):
    if not isinstance(component, Component):
        raise RuleError(f"zone_of() takes a component, got {kind_of(component)}")
    return st.game.catalog.zone_refs[st.loc[component.id]]


def slice_of(st, seq, start, end=None):
    items = as_list(st, seq)
    return items[_int(start): None if end is None else _int(end)]


def inserted(st, seq, position, item):
    items = as_list(st, seq)
    position = _int(position)
    return items[:position] + (item,) + items[position:]


def removed(st, seq, item):
    items = list(as_list(st, seq))
    if item in items:
        items.remove(item)
    return tuple(items)


BUILTINS = {
    "size": (1, 1, size),
    "top": (1, 2, top),
    "bottom": (1, 1, bottom),
    "next_player": (1, 2, next_player),
    "rotate": (2, 2, rotate),
    "reversed": (1, 1, lambda st, s: tuple(reversed(as_list(st, s)))),
    "index": (2, 2, index_of),
    "slice": (2, 3, slice_of),
    "insert": (3, 3, inserted),
    "remove": (2, 2, removed),
    "abs": (1, 1, lambda st, x: abs(_int(x))),
    "bank": (1, 1, bank),
    "tokens": (2, 2, tokens),
    "owner": (1, 1, owner),
    "zone_of": (1, 1, zone_of),
    "values": (1, 1, lambda st, t: as_list(st, t)),
    "list": (1, 1, lambda st, s: as_list(st, s)),
    "spaces": (1, 1, lambda st, b: _board(b).spaces),
    "space": (2, 2, lambda st, b, name: _board(b).space(name)),
    "lines": (2, 2, lambda st, b, n: _board(b).lines(_int(n))),
    "neighbors": (1, 1, lambda st, s: _board_of(st, s).neighbors(s)),
    "distance": (2, 2, lambda st, a, b: _board_of(st, a).distance(a, b)),
    "within": (2, 2, lambda st, s, n: _board_of(st, s).within(s, _int(n))),
    "ahead": (2, 2, lambda st, s, n: _board_of(st, s).ahead(s, _int(n))),
    "behind": (2, 2, lambda st, s, n: _board_of(st, s).behind(s, _int(n))),
    "step": (2, 2, lambda st, s, d: _board_of(st, s).step(s, _int(d))),
    "direction": (2, 2, lambda st, a, b: _board_of(st, a).direction(a, b)),
    "region": (2, 2, lambda st, s, attr: _board_of(st, s).region(s, attr)),
    "largest_region": (3, 3, lambda st, b, attr, v: _board(b).largest_region(attr, v)),
    "player_number": (1, 1, lambda st, p: p.index + 1),
}

# Functions whose arguments may be generators (``f(x for x in s if c by key)``).
AGGREGATES = {"sum", "count", "any", "all", "min", "max", "sorted", "best", "worst", "first"}

# Functions only meaningful while loading (boards are built once, from data).
LOAD_TIME = {"square_grid", "hex_grid", "load_board"}

