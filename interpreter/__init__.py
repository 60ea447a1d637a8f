"""The runtime: games, states, legal actions, applying actions, chance, views, serialization.

Its names are imported when first read, so that importing one of its subpackages (say the
model's values) does not load every layer above it."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .state.state import CHANCE, Action, DecisionContext, State

_LAZY = {"Game": ".game", "CHANCE": ".state.state", "Action": ".state.state",
         "DecisionContext": ".state.state", "State": ".state.state"}

__all__ = ["CHANCE", "Action", "DecisionContext", "Game", "State"]


def __getattr__(name: str) -> Any:
    """A name of the runtime's API, imported when first read (then kept in the package)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'rulelang.interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
