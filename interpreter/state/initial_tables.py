"""The initial values of a game's variables, computed by its first new state and copied by
every later one (``State._set_initial_values_of_game``)."""
from __future__ import annotations

from typing import NamedTuple, TypeVar

from ..model.values import Value

_V = TypeVar("_V")
_LIST_COPY = list.copy


class InitialTables(NamedTuple):
    """The initial values of a game's variables (``State.set_initial_values``), by owner."""

    global_values: dict[str, Value]
    player_values: dict[str, list[Value]]
    space_values: dict[str, list[Value]]
    component_values: dict[str, list[Value]]
    max_steps: int  # the bound on the work they were computed within


def copied(table: dict[str, list[_V]]) -> dict[str, list[_V]]:
    """A table of owned variables whose lists can change without changing ``table``'s."""
    copy: dict[str, list[_V]] = {}
    for name, values in table.items():  # (a loop: fewer instructions than a comprehension for a few names)
        copy[name] = _LIST_COPY(values)
    return copy
