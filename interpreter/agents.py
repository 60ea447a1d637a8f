"""Agents: players the engine can seat at a game. An agent picks one legal action."""
from __future__ import annotations

import hashlib
import random

from .state import Action, State
from .values import who


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers; the same parts give the same seed on any machine."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``."""
        actions = state.legal_actions(player)
        if not actions:
            raise ValueError(f"{who(player)} has no legal action here")
        return actions[self.rng.randrange(len(actions))]
