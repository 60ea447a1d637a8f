"""What the generated code of a ruleset calls: the operations of the language on values.

The compiler (codegen.py) writes each expression of the rules as Python source that reads
the state directly and calls these functions for whatever needs a check or a bound: an
arithmetic result out of range, a list too long to build, values that cannot be compared.
Each takes plain values (never closures), so one call replaces a tree of them.
"""
from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from rulelang.boards import Space

from ..model.values import (
    ORDER_KEYS,
    ComponentSpec,
    OrderKey,
    Player,
    RuleError,
    Value,
    ZoneRef,
    display_within,
    kind_of,
    less,
)
from .builtins import BUILTINS, FREE_WORK, sequence, size

if TYPE_CHECKING:
    from ..state.state import State

MAX_LIST = 100_000  # the longest list a range or a list repetition may build
MAX_STRING = 1_000_000  # the longest string a repetition may build
MAX_INT = 2**63 - 1  # the largest number a result may be (and the smallest is -MAX_INT)
MAX_FUNCTION_DEPTH = 100  # the most calls of the ruleset's functions within one another (E603)
CALL_WORK = 4  # the items of work a function call is charged (it costs about as much as four)
MAX_VISITS = MAX_LIST * 10  # the most items a comprehension of several clauses goes through
MAX_DEPTH = 1000  # the most procedures running at once (calls within calls): deeper is a runaway (E603)


def too_large() -> RuleError:
    return RuleError(f"number too large: a result must stay between -{MAX_INT} and {MAX_INT}")


def bounded(value: Any) -> Any:
    """``value``, once checked: a number must stay within +-MAX_INT."""
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        raise too_large()
    return value


# ---- arithmetic ----

def plus(st: State, a: Any, b: Any) -> Any:
    """``a + b``: numbers (bounded), texts (a value joined as the rules write it), lists; a
    long list or text built is charged."""
    if type(a) is int and type(b) is int:
        result = a + b
        if -MAX_INT <= result <= MAX_INT:
            return result
        raise too_large()
    if type(a) is tuple and type(b) is tuple:   # two lists: joined and charged as join and _charged would
        return concat(st, a, b)
    return _charged(st, _operated(join, "+", a, b))


def concat(st: State, a: tuple[Value, ...], b: tuple[Value, ...]) -> tuple[Value, ...]:
    """``a + b`` of two values proven lists (codegen.py): ``join`` and ``plus`` without the
    tests of their kinds; a long list built is charged."""
    if len(a) + len(b) > MAX_LIST:
        raise RuleError(f"joining lists of {len(a)} and {len(b)} items makes more than {MAX_LIST} items")
    result = a + b
    if len(result) > FREE_WORK:
        st.charge(len(result))
    return result


def times(st: State, a: Any, b: Any) -> Any:
    """``a * b``: numbers, or a list or text repeated; a long list or text built is charged."""
    if type(a) is int and type(b) is int:
        return bounded(a * b)
    return _charged(st, _operated(repeat, "*", a, b))


def minus(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        result = a - b
        if -MAX_INT <= result <= MAX_INT:
            return result
        raise too_large()
    return _operated(_subtract, "-", a, b)


def divide(a: Any, b: Any) -> Any:
    return _operated(_divide, "/", a, b)


def modulo(a: Any, b: Any) -> Any:
    return _operated(_modulo, "%", a, b)


def join(a: Any, b: Any) -> Any:
    """``a + b`` without the charge (a log line joins its pieces with it)."""
    if type(a) is int and type(b) is int:
        return bounded(a + b)
    if isinstance(a, str) or isinstance(b, str):
        left = display_within(a, MAX_STRING)  # as the rules write values: true, none, [1, 2]
        right = None if left is None else display_within(b, MAX_STRING - len(left))
        if left is None or right is None:
            raise RuleError(f"joining {kind_of(a)} and {kind_of(b)} as text makes more than {MAX_STRING} characters")
        return left + right
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) + len(b) > MAX_LIST:
        raise RuleError(f"joining lists of {len(a)} and {len(b)} items makes more than {MAX_LIST} items")
    return bounded(a + b)


def repeat(a: Any, b: Any) -> Any:
    if isinstance(b, (tuple, str)) and isinstance(a, int):
        a, b = b, a
    if isinstance(a, tuple) and isinstance(b, int) and len(a) * b > MAX_LIST:
        raise RuleError(f"repeating a list of {len(a)} {b} times makes more than {MAX_LIST} items")
    if isinstance(a, str) and isinstance(b, int) and len(a) * b > MAX_STRING:
        raise RuleError(f"repeating a string of {len(a)} {b} times makes more than {MAX_STRING} characters")
    return bounded(a * b)


def _subtract(a: Any, b: Any) -> Any:
    return bounded(a - b)


def _divide(a: Any, b: Any) -> Any:
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def _modulo(a: Any, b: Any) -> Any:
    if b == 0:
        raise RuleError("modulo by zero")
    return a % b


def _operated(fn: Callable[[Any, Any], Any], op: str, a: Any, b: Any) -> Any:
    try:
        return fn(a, b)
    except TypeError:
        raise RuleError(f"cannot apply '{op}' to {kind_of(a)} and {kind_of(b)}") from None


def _charged(st: State, result: Any) -> Any:
    if type(result) is tuple and len(result) > FREE_WORK:
        st.charge(len(result))
    elif type(result) is str and len(result) > 8 * FREE_WORK:
        st.charge(len(result) // 8)
    return result


def negated(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"cannot apply '-' to {kind_of(value)}")
    return -value


# ---- comparisons ----

def _ordering(op: str, fn: Callable[[Any, Any], bool], of_rules: Callable[[Any, Any], bool]
              ) -> Callable[[Any, Any], bool]:
    """``<``, ``<=``, ``>`` or ``>=``: numbers and strings as Python compares them, other values
    of the rules (players, enum values...) in their order (``less``)."""
    def compare(x: Any, y: Any) -> bool:
        if type(x) is not int:
            key = ORDER_KEYS.get(type(x))
            if key is not None and type(y) is type(x):  # two players, two enum values...
                return fn(key(x), key(y))
        try:
            return fn(x, y)
        except TypeError:
            pass
        try:
            return of_rules(x, y)
        except TypeError:
            raise RuleError(f"cannot apply '{op}' to {kind_of(x)} and {kind_of(y)}") from None
    return compare


ORDERINGS: dict[str, Callable[[Any, Any], bool]] = {
    "<": _ordering("<", operator.lt, less),
    "<=": _ordering("<=", operator.le, lambda x, y: not less(y, x)),
    ">": _ordering(">", operator.gt, lambda x, y: less(y, x)),
    ">=": _ordering(">=", operator.ge, lambda x, y: not less(x, y)),
}


# ---- lists ----

def items(st: State, value: Any) -> tuple[Value, ...]:
    """The items a comprehension or an aggregate goes through: a long list is charged by
    ``as_list``, a short one here (nested clauses multiply)."""
    found = value if type(value) is tuple else sequence(st, value)
    if found:  # a long one as as_list would, a short one here: as State.charge, in place
        work = st.work + len(found)
        st.work = work
        if work > st.max_steps:
            st.charge(0)  # (its error)
    return found


def zone_items(st: State, zone: ZoneRef) -> Sequence[Value]:
    """``items`` of a zone (the compiler knows it is one), read in place: the comprehension
    or aggregate that goes through them changes nothing."""
    found = st.zones[zone.slot]
    if found:
        work = st.work + len(found)
        st.work = work
        if work > st.max_steps:
            st.charge(0)  # (its error)
    return found


def zone_seen(st: State, zone: ZoneRef) -> Sequence[Value]:
    """``as_list`` of a zone (the compiler knows it is one) for a look that keeps nothing
    (``x in zone``; ``list(zone)`` is the tuple of it): its list in place, charged as
    ``as_list`` charges it."""
    found = st.zones[zone.slot]
    if len(found) > FREE_WORK:
        st.charge(len(found))
    return found


def inclusive_range(st: State, low: Any, high: Any) -> tuple[int, ...]:
    if not isinstance(low, int) or not isinstance(high, int) or isinstance(low, bool) or isinstance(high, bool):
        raise RuleError(f"a range needs two numbers, got {kind_of(low)} and {kind_of(high)}")
    if high - low >= MAX_LIST:
        raise RuleError(f"the range {low}..{high} has more than {MAX_LIST} numbers")
    if high - low >= FREE_WORK:
        st.charge(4 * (high - low + 1))  # new numbers: more memory than a list of existing values
    return tuple(range(low, high + 1))


def index(st: State, container: Any, key: Any) -> Any:
    """``container[key]``: an entry of a map, or an item of a list (from the end if negative)."""
    if type(container) is tuple and type(key) is int:  # the usual case, first: Python's own bounds
        try:
            return container[key]
        except IndexError:
            pass
    if type(container) is dict:  # a map (of a simultaneous choice): ``entry`` in place
        try:
            return container[key]
        except KeyError:
            raise no_entry(key) from None
        except TypeError:
            pass   # (entry's error, below)
    if isinstance(container, dict):
        return entry(container, key)
    found = sequence(st, container)
    if not isinstance(key, int) or not -len(found) <= key < len(found):
        raise RuleError(f"index {key} is out of range for a list of {len(found)}")
    return found[key]


def item(items: tuple[Value, ...], key: int) -> Value:
    """``items[key]`` of a value proven a list and a key proven an integer (codegen.py):
    ``index`` without the tests of their kinds."""
    try:
        return items[key]
    except IndexError:
        raise RuleError(f"index {key} is out of range for a list of {len(items)}") from None


def entry(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]``, where a missing or impossible key is the rules' error."""
    try:
        return mapping[key]
    except KeyError:
        raise RuleError(f"no entry for {key}") from None
    except TypeError:  # a map or a list holding one: it has no hash
        raise RuleError("a map, or a list holding one, cannot be a key") from None


_TOP = BUILTINS["top"]


def top(st: State, value: Any) -> Any:
    """``top(zone)``: a zone's last component read in place (other lists: the builtin)."""
    if type(value) is ZoneRef:
        found = st.zones[value.slot]
        return found[-1] if found else None
    return _TOP(st, value)


class Visits:
    """Counts the items a comprehension of several clauses goes through (at most MAX_VISITS)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def over(self, items: tuple[Value, ...]) -> tuple[Value, ...]:
        """``items``, all of them counted at once (a comprehension goes through every item
        of its sources: the count is the one that counting each as it comes would reach)."""
        count = self.count + len(items)
        self.count = count
        if count > MAX_VISITS:
            raise too_many_visits()
        return items


def too_many_visits() -> RuleError:
    """The error of a comprehension of several clauses past MAX_VISITS items (``Visits``)."""
    return RuleError(f"a comprehension went through more than {MAX_VISITS} items")


def component_spec(type_name: str, fields: dict[str, Value]) -> ComponentSpec:
    return ComponentSpec(type_name, fields)


# ---- functions of the ruleset ----

def enter(st: State, depth: int) -> bool:
    """Before a call of a function of the ruleset from depth ``depth``: bounded and charged."""
    if depth >= MAX_FUNCTION_DEPTH:
        raise RuleError(f"functions call each other more than {MAX_FUNCTION_DEPTH} deep", "E603")
    st.charge(CALL_WORK)
    return True


def size_of(st: State, value: Any) -> int:
    """``size(value)``: a list's length read in place, anything else as the builtin reads it."""
    if type(value) is tuple:
        return len(value)
    return len(st.zones[value.slot]) if type(value) is ZoneRef else size(st, value)


def enter_procedure(st: State, depth: int) -> int:
    """At a call of a compiled procedure while ``depth`` procedures run: bounded, and
    counted as a step; the depth of the procedure called."""
    if depth >= MAX_DEPTH:
        raise RuleError(f"procedures call each other more than {MAX_DEPTH} deep", "E603")
    if st.rounds >= st.max_steps:
        st.step()  # (its error)
    st.rounds += 1
    return depth + 1


def make_room_for_calls() -> None:
    """Let Python nest calls of compiled procedures as deep as the rules may (MAX_DEPTH
    of them, each a Python call, with room for what each calls), so that the rules' bound,
    not Python's, stops a runaway recursion."""
    needed = 3 * MAX_DEPTH + 1000
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def too_deep(depth: int) -> RuleError:
    return RuleError(f"functions call each other too deep ({depth} calls)", "E603")


# ---- errors ----

def no_attribute(value: Any, name: str) -> Any:
    raise RuleError(f"a {kind_of(value)} has no attribute '{name}'")


def unbound(error: KeyError, names: Collection[str]) -> Exception:
    """The error of a local read before it was given a value, or of a map read in place
    without an entry for a player (``no_entry``); any other KeyError as it is."""
    key = error.args[0] if error.args else None
    if isinstance(key, str) and key in names:
        return no_value(key)
    return no_entry(key) if type(key) is Player else error


def no_entry(key: Value) -> RuleError:
    """The rules' error of ``m[key]`` where the map ``m`` has no entry for ``key``."""
    return RuleError(f"no entry for {key}")


def no_value(name: str) -> RuleError:
    """The rules' error for local ``name`` (its environment key) read before it has a value."""
    return RuleError(f"'{name}' has no value here")


# ---- aggregates: over the elements (or (element, key) pairs) of a generator ----

def checked(name: str, fn: Callable[[Any], Any], values: Any, keys: Sequence[Any] | None = None,
            fallback: Callable[[Any], Any] | None = None) -> Any:
    """``fn(values)``, where values of the rules that cannot be compared or added (a
    TypeError) are the rules' error; ``keys`` are what is compared, when not the values.
    ``fallback(values)`` is tried before giving up: the same, in the order of the rules
    (``less``), for values that Python does not order (players, enum values...)."""
    try:
        return fn(values)
    except TypeError:
        pass
    if fallback is not None:
        try:
            return fallback(values)
        except TypeError:
            pass
    kinds = " and ".join(sorted({kind_of(v) for v in (values if keys is None else keys)}))
    raise RuleError(f"{name}() cannot compare or add values of kind {kinds}") from None


def _min_in_rules_order(values: Any) -> Any:
    return min(values, key=OrderKey)


def _max_in_rules_order(values: Any) -> Any:
    return max(values, key=OrderKey)


def total(values: Sequence[Any]) -> Any:
    return bounded(checked("sum", sum, values))


def count(values: Sequence[Any]) -> int:
    """How many values are neither false nor none: all of them when neither is found (at C
    speed; ``in`` also finds a 0 as false, which the slow count then tells apart)."""
    if False in values or None in values:
        return sum(1 for v in values if v is not False and v is not None)
    return len(values)


def least(values: Sequence[Any]) -> Any:
    return checked("min", min, values, fallback=_min_in_rules_order) if values else None


def most(values: Sequence[Any]) -> Any:
    return checked("max", max, values, fallback=_max_in_rules_order) if values else None


def least_of_two(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:   # (integers, not booleans: min's own choice, the first of equals)
        return b if b < a else a
    return checked("min", min, (a, b), fallback=_min_in_rules_order)


def most_of_two(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:   # (as least_of_two)
        return b if b > a else a
    return checked("max", max, (a, b), fallback=_max_in_rules_order)


def in_order(values: Sequence[Any], descending: bool) -> tuple[Value, ...]:
    return tuple(checked("sorted", lambda v: sorted(v, reverse=descending), values,
                         fallback=lambda v: sorted(v, key=OrderKey, reverse=descending)))


_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)
FIRST_OF, SECOND_OF = _FIRST, _SECOND   # (the generated code's: a sort by integer keys, aggregates.py)
_INTEGERS = frozenset((int,))


def in_order_by(pairs: Sequence[tuple[Any, Any]], descending: bool) -> tuple[Value, ...]:
    if set(map(type, map(_SECOND, pairs))) <= _INTEGERS:   # (integers, not booleans: ordered as by_key
        return tuple(map(_FIRST, sorted(pairs, key=_SECOND, reverse=descending)))   # orders them, no error)
    keys = [k for _, k in pairs]

    def by_key(found: Sequence[tuple[Any, Any]]) -> list[Any]:
        return [e for e, _ in sorted(found, key=lambda p: p[1], reverse=descending)]

    def by_key_in_rules_order(found: Sequence[tuple[Any, Any]]) -> list[Any]:
        return [e for e, _ in sorted(found, key=lambda p: OrderKey(p[1]), reverse=descending)]
    return tuple(checked("sorted", by_key, pairs, keys, fallback=by_key_in_rules_order))


def _best_of(pairs: Sequence[tuple[Any, Any]], better: Callable[[Any, Any], bool]) -> Any:
    chosen, chosen_key = None, None
    for element, key in pairs:
        if chosen_key is None or better(key, chosen_key):
            chosen, chosen_key = element, key
    return chosen


def best(pairs: Sequence[tuple[Any, Any]]) -> Any:
    return checked("best", lambda p: _best_of(p, operator.gt), pairs, [k for _, k in pairs],
                   fallback=lambda p: _best_of(p, lambda k, chosen: less(chosen, k)))


def worst(pairs: Sequence[tuple[Any, Any]]) -> Any:
    return checked("worst", lambda p: _best_of(p, operator.lt), pairs, [k for _, k in pairs],
                   fallback=lambda p: _best_of(p, less))


def first(values: Sequence[Any]) -> Any:
    return next(iter(values), None)


def elements(pairs: Sequence[tuple[Any, Any]]) -> list[Any]:
    return [e for e, _ in pairs]


# ---- board queries of constant arguments ----

class _Recording:
    """The state as a query computed once sees it: the work charged is charged to the state
    and recorded, to be charged again each time the query's value is used."""

    __slots__ = ("st", "work")

    def __init__(self, st: State):
        self.st, self.work = st, 0

    @property
    def game(self) -> Any:
        return self.st.game

    def charge(self, work: int) -> None:
        self.work += work
        self.st.charge(work)


def once_per_game(fn: Callable[..., Value], args: Sequence[Value]) -> Callable[[State, object], Value]:
    """A call of the builtin ``fn`` (a board query: no state read) with the constant
    ``args``, computed at its first call in this game (a Game compiles its own code) and kept:
    each later call charges the work the first did, and gives the same value."""
    found: list[tuple[Value, int]] = []

    def call(st: State, env: object) -> Value:
        if found:
            value, work = found[0]
            if work:
                st.charge(work)
            return value
        recording = _Recording(st)
        value = fn(recording, *args)  # an error (or too much work) keeps nothing: raised again next time
        found.append((value, recording.work))
        return value
    return call


def per_space(fn: Callable[..., Value], args: Sequence[Value], at: int,
              free: dict[Space, Value] | None = None) -> Callable[[State, Value], Value]:
    """A call of the builtin ``fn`` (a board query: no state read) whose arguments are the
    constants ``args`` but the one at ``at``, given at each call: for a space, its answer
    computed at the first call with that space in this game and kept (a Game compiles its
    own code); each later call charges the work the first did, and gives the same value.
    Any other value is passed on to ``fn``, which answers it (or raises) as it always does.
    The answers that charged no work go to ``free`` too, which the code may read in place."""
    before, after = tuple(args[:at]), tuple(args[at + 1:])
    found: dict[Space, tuple[Value, int]] = {}

    def call(st: State, varying: Value) -> Value:
        if type(varying) is not Space:
            return fn(st, *before, varying, *after)
        kept = found.get(varying)
        if kept is not None:
            if kept[1]:
                st.charge(kept[1])
            return kept[0]
        recording = _Recording(st)
        value = fn(recording, *before, varying, *after)  # an error (or too much work) keeps nothing
        found[varying] = (value, recording.work)
        if free is not None and not recording.work:
            free[varying] = value
        return value
    return call
