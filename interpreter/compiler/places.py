"""The places an assignment of lowered code writes (lower.py's ``Compiler.access``): a
local, a global variable, an item of a list held by one of those; each as a pair of
functions (read, write) of the state and the frame's environment."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.program import Env, Expr
from ..model.values import RuleError, Value, kind_of
from ..tables import effects
from ..tables.declared import Declared, checked_write

if TYPE_CHECKING:
    from ..state.state import State
    from ..tables.attributes import Write


def item_access(place: tuple[Expr, Write], index: Expr) -> tuple[Expr, Write]:
    """(read, write) of an item of the list held at ``place`` (``piles[i]``: the list is
    replaced by a new one), at the position ``index`` gives."""
    read_list, write_list = place

    def position(st: State, env: Env) -> tuple[tuple[Value, ...], int]:
        items, i = read_list(st, env), index(st, env)
        if not isinstance(items, tuple):
            raise RuleError(f"only an item of a list can be assigned, not of {kind_of(items)}")
        if type(i) is not int or not -len(items) <= i < len(items):
            raise RuleError(f"index {i} is out of range for a list of {len(items)}")
        return items, i % len(items)

    def read_item(st: State, env: Env) -> Value:
        items, i = position(st, env)
        return items[i]

    def write_item(st: State, env: Env, new: Value) -> None:
        items, i = position(st, env)
        write_list(st, env, (*items[:i], new, *items[i + 1:]))
    return read_item, write_item


def local_access(name: str) -> tuple[Expr, Write]:
    """(read, write) of the local variable ``name``."""
    def read(st: State, env: Env) -> Value:
        return env[name]

    def write(st: State, env: Env, value: Value) -> None:
        env[name] = value
    return read, write


def global_access(name: str, promise: Declared | None) -> tuple[Expr, Write]:
    """(read, write) of the global variable ``name``, of type ``promise`` (declared.py)."""
    def read(st: State, env: Env) -> Value:
        return st.global_values[name]

    def write(st: State, env: Env, value: Value) -> None:
        effects.set_global(st, name, checked_write(value, promise, name))
    return read, write
