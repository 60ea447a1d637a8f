"""Lists whose value the compiler knows at load time: a board query with constant arguments
that charges no work and reads nothing of the state (computed here, once), or a constant of
the game that is a list. Such a list is a constant of the generated module, gone through in
place: its length, and the lengths of its items, are known, and so is the work each
costs (searches.py charges it in place, as ``runtime.items`` would). And the attribute of
each space of the game's one board, a tuple of the board's data read by a space's index."""
from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Value
from ..tables import runtime
from ..tables.builtins import BOARD_QUERIES, BUILTINS
from ..tables.catalog import Catalog
from .fields import spaces_by_index
from .module import CHEAP, Module
from .scope import Scope

if TYPE_CHECKING:
    from .kinds import KindKnowledge


class _Unknown(Exception):
    """A query that would charge work (or read the state): not computed at load time."""


class _NoState:
    """The state a query computed at load time sees: none; charging any work gives up."""

    __slots__ = ()

    def charge(self, work: int) -> None:
        raise _Unknown


class _CatalogOnly(_NoState):
    """The state a query of a space computed at load time sees: the game's catalog (what
    finds a space's board), nothing else; charging any work gives up."""

    __slots__ = ("game",)

    def __init__(self, cat: Catalog):
        self.game = SimpleNamespace(catalog=cat)


def known_query(cat: Catalog, name: str, constants: list[Value] | None) -> tuple[Value, ...] | None:
    """The value of the board query ``name`` over the constant arguments ``constants``, if
    it is a list computed at no work and with no state read but the catalog's boards; else
    None (the query then runs where it runs, with its work and its errors)."""
    if constants is None or name not in BOARD_QUERIES or name in cat.component_types \
            or name in cat.functions or name in cat.load_time_functions:
        return None
    try:
        value = BUILTINS[name](_CatalogOnly(cat), *constants)
    except Exception:  # (work, a read of the state, or an error: all where the query runs)
        return None
    return value if type(value) is tuple else None


def known_list(writer: KindKnowledge, node: ast.Expr, scope: Scope) -> tuple[Value, ...] | None:
    """The value of ``node`` if the compiler knows it at load time and it is a list: a
    board query of constant arguments (``known_query``) or a constant of the game."""
    if isinstance(node, ast.Call) and node.args and not any(isinstance(a, ast.KeywordArg) for a in node.args):
        return known_query(writer.cat, node.function, writer._constant_values(node.args, scope))
    if isinstance(node, ast.Name):
        constant = writer._constant_values((node,), scope)
        if constant is not None and type(constant[0]) is tuple:
            return constant[0]
    return None


def item_length(items: tuple[Value, ...] | None) -> int | None:
    """The length of every item of ``items`` if each is a list of the same length, else None."""
    if not items or any(type(item) is not tuple for item in items):
        return None
    lengths = {len(item) for item in items if type(item) is tuple}
    return lengths.pop() if len(lengths) == 1 else None


def per_space(cat: Catalog, module: Module, name: str, constants: list[Value | None], at: int, space: str,
              certain: bool) -> str:
    """The source of board query ``name`` whose arguments are ``constants`` but the one at
    ``at``, the space written ``space`` (``certain``: known to be one): where every space is
    one of the game's board (``spaces_by_index``) and no answer charges work, an item of its
    answers computed at load, by the space's index; else its answer kept per space
    (``runtime.per_space``), read in place where kept and charged no work."""
    spaces = spaces_by_index(cat) if certain else None
    if spaces is not None:
        answers = [known_query(cat, name, [*constants[:at], each, *constants[at + 1:]]) for each in spaces]
        if all(answer is not None for answer in answers):
            table = module.constant(tuple(answers), f"<{name}(...) of each space, computed at load>")
            return f"{table}[{space}.index]"
    free = dict[Space, Value]()
    query = module.constant(runtime.per_space(BUILTINS[name], constants, at, free), f"<{name}(...), kept per space>")
    if not CHEAP.match(space):
        return f"{query}(st, {space})"
    kept = module.constant(free, f"<{name}(...) of the spaces asked, no work charged>")
    test = f"{space} in {kept}" if certain else f"type({space}) is _Space and {space} in {kept}"
    return f"({kept}[{space}] if {test} else {query}(st, {space}))"
