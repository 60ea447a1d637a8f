"""rulelang: a rules-as-data engine for tabletop games.

    import rulelang
    game = rulelang.load("games/my_game.rules", players=3)
    state = game.new_initial_state(seed=7)

``rulelang`` is the only import root: the runtime is ``rulelang.interpreter``.
"""
from rulelang.diagnostics import Diagnostic
from rulelang.errors import (
    IllegalActionError,
    InternalError,
    RulelangError,
    RulesetError,
    RulesRuntimeError,
    StateDataError,
)
from rulelang.interpreter import CHANCE, Action, DecisionContext, Game, State
from rulelang.loader import load

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
]
