"""Built-in functions of the language: pure queries over values and the state.

Each entry is ``name -> function(st, *args)``; what each takes and gives is declared once,
in the front end's signature table (rulelang/check/signatures.py). Aggregates over generators
(sum, count, any, all, min, max, sorted, best, worst, first) are compiled in codegen.py.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulelang.boards import Board, Space
from rulelang.check.signatures import AGGREGATE, BOARD, SIGNATURES, names_with_role

from ..model.values import Component, EnumType, Player, Ref, RuleError, Value, ZoneRef, kind_of

if TYPE_CHECKING:
    from ..state.state import State

Builtin = Callable[..., Value]
"""A builtin function: ``function(state, *arguments) -> value``."""


FREE_WORK = 64
"""Going through a list of at most this many items is free; a longer one is charged to the
step budget (``State.charge``), so that no single step does unbounded work."""


class LoadTimeWork:
    """The stand-in for a state while a declaration is evaluated at load time: it has no
    game data (reading any is an error, E402) but bounds the work like ``State.charge``."""

    __slots__ = ("work",)
    LIMIT = 1_000_000
    max_steps = LIMIT  # (as a state's: the bound the generated code reads in place)

    def __init__(self) -> None:
        self.work = 0

    def charge(self, work: int) -> None:
        self.work += work
        if self.work > self.LIMIT:
            raise RuleError(f"this declaration went through more than {self.LIMIT} items while loading")


def as_list(st: State, value: object) -> tuple[Value, ...]:
    """A value seen as a sequence: a list, a zone's contents (bottom first), a range...
    A long one is charged to the step budget: whoever asks for it goes through it."""
    if isinstance(value, tuple):
        if len(value) > FREE_WORK:
            st.charge(len(value))
        return value
    items = sequence(st, value)
    if len(items) > FREE_WORK:
        st.charge(len(items))
    return items


def sequence(st: State, value: object) -> tuple[Value, ...]:
    """``as_list`` without the charge, for a look that does not go through the items."""
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
    if isinstance(value, Ref) and isinstance(value.target, Board):
        return value.target.spaces
    if isinstance(value, Ref) and value.kind == "die" and isinstance(value.target, tuple):
        return value.target
    raise RuleError(f"expected a list or a zone, got {kind_of(value)}")


def _int(value: Value, what: str = "a number") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"expected {what}, got {kind_of(value)}")
    return value


def _board(value: Value) -> Board:
    if isinstance(value, Ref) and isinstance(value.target, Board):
        return value.target
    raise RuleError(f"expected a board, got {kind_of(value)}")


def _board_of(st: State, space: Value) -> Board:
    board = st.game.catalog.boards.get(space.board) if isinstance(space, Space) else None
    if board is None:
        raise RuleError(f"expected a space, got {kind_of(space)}")
    return board


def size(st: State, value: Value) -> int:
    if isinstance(value, ZoneRef):
        return len(st.zones[value.slot])
    return len(sequence(st, value))


def top(st: State, zone: Value, n: Value = None) -> Value:
    items: Sequence[Value] = st.zones[zone.slot] if isinstance(zone, ZoneRef) else sequence(st, zone)
    if n is None:
        return items[-1] if items else None
    count = _int(n)
    if count > FREE_WORK:
        st.charge(min(count, len(items)))
    return tuple(reversed(items[-count:])) if count > 0 else ()


def bottom(st: State, zone: Value) -> Value:
    items = sequence(st, zone)
    return items[0] if items else None


def next_player(st: State, player: Value, steps: Value = 1) -> Player:
    if not isinstance(player, Player):
        raise RuleError(f"next_player() takes a player, got {kind_of(player)}")
    return st.game.catalog.players[(player.index + _int(steps)) % st.game.num_players]


def player_number(st: State, player: Value) -> int:
    """The 1-based number of ``player``, as players are shown (player 1, player 2...)."""
    if not isinstance(player, Player):
        raise RuleError(f"player_number() takes a player, got {kind_of(player)}")
    return player.index + 1


def rotate(st: State, seq: Value, start: Value) -> tuple[Value, ...]:
    items = as_list(st, seq)
    if start not in items:
        raise RuleError(f"rotate: {start} is not in the list")
    i = items.index(start)
    return items[i:] + items[:i]


def index_of(st: State, seq: Value, item: Value) -> int:
    items = as_list(st, seq)
    return items.index(item) if item in items else -1


def bank(st: State, supply: Value) -> int:
    if not (isinstance(supply, Ref) and supply.kind == "supply"):
        raise RuleError(f"bank() takes a supply, got {kind_of(supply)}")
    return st.supply_counts[supply.name][0]


def tokens(st: State, holder: Value, supply: Value) -> int:
    """How many tokens of ``supply`` (a supply, or a variable holding one) ``holder`` has."""
    if not (isinstance(supply, Ref) and supply.kind == "supply"):
        raise RuleError(f"tokens() takes a holder and a supply, got {kind_of(supply)}")
    counts = st.supply_counts[supply.name]
    if type(holder) is Player:  # a seat's or a component's slot in place; any other holder checked by the catalog
        return counts[holder.index + 1]
    catalog = st.game.catalog
    return counts[catalog.holder_base + holder.id if type(holder) is Component else catalog.holder_slot(holder)]


def owner(st: State, zone: Value) -> Player | None:
    if not isinstance(zone, ZoneRef):
        raise RuleError(f"owner() takes a zone, got {kind_of(zone)}")
    return zone.owner


def zone_of(st: State, component: Value) -> ZoneRef:
    if not isinstance(component, Component):
        raise RuleError(f"zone_of() takes a component, got {kind_of(component)}")
    return st.game.catalog.zone_refs[st.component_zone[component.id]]


def slice_of(st: State, seq: Value, start: Value, end: Value = None) -> tuple[Value, ...]:
    result = sequence(st, seq)[_int(start): None if end is None else _int(end)]
    if len(result) > FREE_WORK:
        st.charge(len(result))
    return result


def inserted(st: State, seq: Value, position: Value, item: Value) -> tuple[Value, ...]:
    items = as_list(st, seq)
    at = _int(position)
    return (*items[:at], item, *items[at:])


def removed(st: State, seq: Value, item: Value) -> tuple[Value, ...]:
    items = list(as_list(st, seq))
    if item in items:
        items.remove(item)
    return tuple(items)


def _walk(st: State, s: Value, n: Value, forward: bool) -> tuple[Space, ...]:
    """``ahead``/``behind``: the spaces exactly ``n`` steps on. A count beyond the board's size
    is first reduced to a smaller one with the same answer (the sets of spaces reached step
    after step repeat), each step charged to the step budget."""
    board, count = _board_of(st, s), _int(n)
    assert isinstance(s, Space)  # _board_of has checked it
    if count < 0:
        count, forward = -count, not forward
    if count > len(board.spaces):
        count = _equivalent_steps(st, board, s, count, forward)
    elif count > FREE_WORK:
        st.charge(count)
    return board.ahead(s, count) if forward else board.behind(s, count)


def _equivalent_steps(st: State, board: Board, s: Value, count: int, forward: bool) -> int:
    follow = board.successors if forward else board.predecessors
    frontier: frozenset[Space] = frozenset((s,)) if isinstance(s, Space) else frozenset()
    seen = {frontier: 0}
    for k in range(1, count + 1):
        frontier = frozenset(t for x in frontier for t in follow(x))
        st.charge(4 * len(frontier) + 1)
        if not frontier or k == count:
            return k
        first = seen.setdefault(frontier, k)
        if first != k:  # the same spaces as ``first`` steps on: from there it repeats
            return first + (count - first) % (k - first)
    return count


def lines(st: State, b: Value, n: Value) -> tuple[tuple[Space, ...], ...]:
    """Every straight line of ``n`` spaces; none is longer than the board has spaces. Finding
    them looks at up to ``n`` spaces along each axis from every space: charged."""
    board, count = _board(b), _int(n)
    if count > len(board.spaces):
        return ()
    if count > FREE_WORK:  # (shorter lines: once per length, then memoized)
        st.charge(count * len(board.spaces))
    return board.lines(count)


BUILTINS: dict[str, Builtin] = {
    "size": size,
    "top": top,
    "bottom": bottom,
    "next_player": next_player,
    "rotate": rotate,
    "reversed": lambda st, s: tuple(reversed(as_list(st, s))),
    "index": index_of,
    "slice": slice_of,
    "insert": inserted,
    "remove": removed,
    "abs": lambda st, x: abs(_int(x)),
    "bank": bank,
    "tokens": tokens,
    "owner": owner,
    "zone_of": zone_of,
    "values": lambda st, t: as_list(st, t),
    "list": lambda st, s: as_list(st, s),
    "spaces": lambda st, b: _board(b).spaces,
    "space": lambda st, b, name: _board(b).space(name),
    "lines": lines,
    "neighbors": lambda st, s: _board_of(st, s).neighbors(s),
    "distance": lambda st, a, b: _board_of(st, a).distance(a, b),
    "within": lambda st, s, n: _board_of(st, s).within(s, _int(n)),  # memoized: bounded work
    "ahead": lambda st, s, n: _walk(st, s, n, True),
    "behind": lambda st, s, n: _walk(st, s, n, False),
    "step": lambda st, s, d: _board_of(st, s).step(s, _int(d)),
    "direction": lambda st, a, b: _board_of(st, a).direction(a, b),
    "region": lambda st, s, attr: _board_of(st, s).region(s, attr),  # memoized per attribute
    "largest_region": lambda st, b, attr, v: _board(b).largest_region(attr, v),
    "player_number": player_number,
}

# Board queries: functions of their arguments and of the boards' data alone (which never
# change), so a call whose arguments are constants gives the same value every time.
BOARD_QUERIES = frozenset({"spaces", "space", "lines", "neighbors", "distance", "within", "ahead", "behind",
                           "step", "direction", "region", "largest_region"})
assert set(BUILTINS) >= BOARD_QUERIES

# Functions whose arguments may be generators (``f(x for x in s if c by key)``).
AGGREGATES = names_with_role(AGGREGATE)

# Functions only meaningful while loading (boards are built once, from data).
LOAD_TIME = names_with_role(BOARD)


def arity(name: str) -> tuple[int, int]:
    """The fewest and the most arguments that the builtin ``name`` takes."""
    signature = SIGNATURES[name]
    return signature.min_args, signature.max_args
