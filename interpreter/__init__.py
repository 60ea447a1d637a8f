"""The runtime: states, legal actions, applying actions, chance, views, serialization."""
from .state import CHANCE, Action, IllegalActionError, RulesRuntimeError, State

__all__ = ["CHANCE", "Action", "IllegalActionError", "RulesRuntimeError", "State"]
