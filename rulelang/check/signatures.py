"""The builtin functions of the language: one table of their signatures.

Every function a ruleset may call without declaring it is here, with the kind of each
argument, how many arguments it needs and the kind of its result. The name checks take
arity from this table, the kind checks take results, the runtime implements exactly
these functions, and docs/language.md documents each of them (tests hold all three to it).

Kinds are the checker's words for values: ``number``, ``bool``, ``string``, ``list``,
``zone``, ``player``, ``space``, ``board``, ``component``, ``supply``, ``enum``, and
``items`` (anything with items: a list, a range, a zone, an enum, a board, a die),
``holder`` (a player or a component), ``any``. A result ending in ``?`` may also be none.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["query", "aggregate", "board"]

QUERY: Role = "query"          # a pure query over values and the state
AGGREGATE: Role = "aggregate"  # takes one list or one generator ('x for x in ... by KEY')
BOARD: Role = "board"          # builds a board, only while loading


@dataclass(frozen=True)
class Signature:
    """How one builtin function is called and what it gives back."""

    name: str
    params: tuple[str, ...]       # the kind of each positional argument, in order
    result: str
    required: int | None = None   # how many of ``params`` must be given (default: all)
    role: Role = QUERY
    keywords: tuple[str, ...] = ()  # named arguments ('diagonal: true'), board constructors only
    needs_key: bool = False       # an aggregate whose generator must end in 'by KEY'
    full_result: str | None = None  # the result when every optional argument is given, if another

    def result_of(self, given: int) -> str:
        """The kind of the result of a call with ``given`` positional arguments."""
        return self.full_result if self.full_result is not None and given == self.max_args else self.result

    @property
    def min_args(self) -> int:
        """The fewest positional arguments the function takes."""
        return len(self.params) if self.required is None else self.required

    @property
    def max_args(self) -> int:
        """The most positional arguments the function takes."""
        return len(self.params)

    def arity_problem(self, given: int) -> str | None:
        """The E201 message for a call with ``given`` arguments, or None when that fits."""
        if self.min_args <= given <= self.max_args:
            return None
        low, high = self.min_args, self.max_args
        want = str(low) if low == high else f"{low} to {high}"
        return f"{self.name}() takes {want} arguments, got {given}"


def _query(name: str, params: tuple[str, ...], result: str, required: int | None = None,
           full_result: str | None = None) -> Signature:
    return Signature(name, params, result, required, full_result=full_result)


def _aggregate(name: str, result: str, *, values: bool = False, needs_key: bool = False) -> Signature:
    """An aggregate over one list or generator (``values``: or over two values, min(a, b))."""
    if values:
        return Signature(name, ("any", "any"), result, 1, AGGREGATE)
    return Signature(name, ("items",), result, role=AGGREGATE, needs_key=needs_key)


_TABLE = (
    # Lists, zones and players.
    _query("size", ("items",), "number"),
    _query("top", ("items", "number"), "any", required=1, full_result="list"),   # top(z): one; top(z, n): a list
    _query("bottom", ("items",), "any"),
    _query("next_player", ("player", "number"), "player", required=1),
    _query("rotate", ("items", "any"), "list"),
    _query("reversed", ("items",), "list"),
    _query("index", ("items", "any"), "number"),
    _query("slice", ("items", "number", "number"), "list", required=2),
    _query("insert", ("items", "number", "any"), "list"),
    _query("remove", ("items", "any"), "list"),
    _query("abs", ("number",), "number"),
    _query("bank", ("supply",), "number"),
    _query("tokens", ("holder", "supply"), "number"),
    _query("owner", ("zone",), "player?"),
    _query("zone_of", ("component",), "zone"),
    _query("values", ("enum",), "list"),
    _query("list", ("items",), "list"),
    _query("player_number", ("player",), "number"),
    # Boards.
    _query("spaces", ("board",), "list"),
    _query("space", ("board", "string"), "space"),
    _query("lines", ("board", "number"), "list"),
    _query("neighbors", ("space",), "list"),
    _query("distance", ("space", "space"), "number"),
    _query("within", ("space", "number"), "list"),
    _query("ahead", ("space", "number"), "list"),
    _query("behind", ("space", "number"), "list"),
    _query("step", ("space", "number"), "space?"),
    _query("direction", ("space", "space"), "number?"),
    _query("region", ("space", "string"), "list"),
    _query("largest_region", ("board", "string", "any"), "list"),
    # Aggregates.
    _aggregate("sum", "number"),
    _aggregate("count", "number"),
    _aggregate("any", "bool"),
    _aggregate("all", "bool"),
    _aggregate("min", "any", values=True),
    _aggregate("max", "any", values=True),
    _aggregate("sorted", "list"),
    _aggregate("best", "any", needs_key=True),
    _aggregate("worst", "any", needs_key=True),
    _aggregate("first", "any"),
    # Board constructors, for 'board' declarations.
    Signature("square_grid", ("number", "number"), "board", role=BOARD, keywords=("diagonal",)),
    Signature("hex_grid", ("list",), "board", role=BOARD),
    Signature("load_board", ("string",), "board", role=BOARD),
)

SIGNATURES: dict[str, Signature] = {s.name: s for s in _TABLE}


def names_with_role(role: Role) -> frozenset[str]:
    """The names of the builtin functions of one role (queries, aggregates, board constructors)."""
    return frozenset(s.name for s in _TABLE if s.role == role)
