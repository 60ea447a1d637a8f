"""The runtime: games, states, legal actions, applying actions, chance, views, serialization."""
from .game import Game
from .state.state import CHANCE, Action, DecisionContext, State

__all__ = ["CHANCE", "Action", "DecisionContext", "Game", "State"]
