"""What every agent shares: the ``Agent`` protocol, the error of a line-up that cannot be
read (``AgentSpecError``, E608), the seeds agents are built with (``derive_seed``), and the
answer when there is at most one legal action (``only_action``)."""
from __future__ import annotations

import hashlib
from typing import Protocol

from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulelangError

from ..model.values import who
from ..state.state import Action, State


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers; the same parts give the same seed on any machine."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Agent(Protocol):
    """What the engine asks of an agent: one of ``player``'s legal actions in ``state``."""

    def choose(self, state: State, player: int) -> Action: ...


class AgentSpecError(RulelangError, ValueError):
    """A line-up of agents that cannot be read, or that does not fit the game (E608
    bad-agent-spec); the diagnostic's message says why."""

    def __init__(self, message: str):
        super().__init__([Diagnostic("E608", message)])



def only_action(actions: list[Action], player: int) -> Action:
    """The one legal action of ``player``; ValueError if there is none."""
    if not actions:
        raise ValueError(f"{who(player)} has no legal action here")
    return actions[0]
