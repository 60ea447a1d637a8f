"""rulelang: a rules-as-data engine for tabletop games.

    import rulelang
    game = rulelang.load("games/my_game.rules", players=3)
    state = game.new_initial_state(seed=7)
"""
from .diagnostics import Diagnostic, RulesetError
from .loader import load

__all__ = ["load", "Diagnostic", "RulesetError", "CHANCE", "IllegalActionError"]

CHANCE = -1


def __getattr__(name):
    # The runtime's names, without importing it until it is needed.
    if name == "IllegalActionError":
        from interpreter.state import IllegalActionError
        return IllegalActionError
    if name == "RulesRuntimeError":
        from interpreter.state import RulesRuntimeError
        return RulesRuntimeError
    raise AttributeError(name)
