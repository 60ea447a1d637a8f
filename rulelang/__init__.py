"""rulelang: a rules-as-data engine for tabletop games.

    import rulelang
    game = rulelang.load("games/my_game.rules", players=3)
    state = game.new_initial_state(seed=7)

``rulelang`` is the only import root: the runtime is ``rulelang.interpreter``. Importing
``rulelang`` loads the diagnostics and errors only; the runtime (and ``load``) is imported the
first time one of its names is read, so that the command line and the linter start at once.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic
from .errors import (
    IllegalActionError,
    InternalError,
    RulelangError,
    RulesetError,
    RulesRuntimeError,
    StateDataError,
)

if TYPE_CHECKING:
    from .interpreter import CHANCE, Action, DecisionContext, Game, State
    from .interpreter.hosts.gym_registry import register_envs
    from .loader import load

# The names imported when first read: name -> the module that defines it.
_LAZY = {"CHANCE": ".interpreter", "Action": ".interpreter", "DecisionContext": ".interpreter",
         "Game": ".interpreter", "State": ".interpreter", "load": ".loader",
         "register_envs": ".interpreter.hosts.gym_registry"}

__all__ = [
    "CHANCE",
    "Action",
    "DecisionContext",
    "Diagnostic",
    "Game",
    "IllegalActionError",
    "InternalError",
    "RulelangError",
    "RulesRuntimeError",
    "RulesetError",
    "State",
    "StateDataError",
    "load",
    "register_envs",
]


def __getattr__(name: str) -> Any:
    """The runtime's names, imported when first read (then kept in the package)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
