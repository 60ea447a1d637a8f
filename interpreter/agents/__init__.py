"""Agents: players the engine can seat at a game. An agent picks one legal action.

A line-up is written as text, one spec per seat separated by commas (``mcts:400,random,greedy``),
or one spec for every seat. ``parse_agents`` turns it into ``AgentSpec`` values: plain data
that can be sent to other processes, each building its agent with ``AgentSpec.build``.

The kinds (docs/agents.md):

- ``random``: uniform among the legal actions;
- ``greedy`` / ``greedy:NAME``: one ply, maximising the seat's score (``State.returns``) or
  the ruleset's function ``NAME(p: player) -> int`` on the state after the action;
- ``mcts:N``, ``mcts:Ns`` (``mcts:0.5s``), with options ``:c=X``, ``:depth=D``, ``:rave=K``
  and ``:decisive=L``: single-observer information-set Monte Carlo tree search (Cowling,
  Powley and Whitehouse, 2012) with UCT, ``N`` iterations or ``N`` seconds per decision.

Agents other than ``random`` never read what their seat cannot see: they search from a
*canonical* state (``canonical_state``), the same for every state the seat cannot tell
apart, and from samples of it drawn by ``State.resample_from_infostate``.

The modules: ``base`` (the ``Agent`` protocol, ``AgentSpecError``, seeds), ``simple``
(random and greedy), ``mcts`` (IS-MCTS) and ``spec`` (``AgentSpec`` and the line-up parser).
This package is the import path: ``from rulelang.interpreter.agents import parse_agents``.
"""
from .base import Agent, AgentSpecError, derive_seed, only_action
from .mcts import DEFAULT_EXPLORATION, DEFAULT_ITERATIONS, Budget, MctsAgent, Node, rewards_of, standing
from .simple import Evaluation, GreedyAgent, RandomAgent, heuristic_function, score_of
from .spec import AGENT_KINDS, SPEC_SYNTAX, AgentSpec, parse_agents

__all__ = [
    "AGENT_KINDS",
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "SPEC_SYNTAX",
    "Agent",
    "AgentSpec",
    "AgentSpecError",
    "Budget",
    "Evaluation",
    "GreedyAgent",
    "MctsAgent",
    "Node",
    "RandomAgent",
    "derive_seed",
    "heuristic_function",
    "only_action",
    "parse_agents",
    "rewards_of",
    "score_of",
    "standing",
]
