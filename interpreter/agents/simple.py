"""The one-ply agents: ``RandomAgent`` (uniform among the legal actions) and ``GreedyAgent``
(the action after which the seat's score, or a heuristic function of the ruleset, is best)."""
from __future__ import annotations

import math
import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.errors import RulelangError

from ..model.values import who
from ..state.infostate import Sampler
from ..state.state import Action, State
from .base import AgentSpecError, only_action

if TYPE_CHECKING:
    from ..game import Game


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


Evaluation = Callable[[State, int], float]
"""The value of a state for a seat, higher is better."""

_OF_TABLES: weakref.WeakSet[Evaluation] = weakref.WeakSet()
"""The evaluations that read only what a state's tables hold (its variables, zones and
tokens), not its history, its count of decisions or the decision it awaits: the score, and
a ruleset's heuristic function (an expression of the rules reads nothing else)."""


def score_of(state: State, player: int) -> float:
    """The seat's score, as ``State.returns`` computes it, without the other seats' (a
    score that is not a number or too large for one: TypeError, as a greedy seat takes a
    rule that fails)."""
    score = state.game.program.score
    if score is None:
        return 0.0
    value = state.evaluate(score.value, {score.variable: state.game.catalog.real_players[player]}, score.span)
    if not isinstance(value, int):
        raise TypeError(f"'{score.kind} {score.variable}' gives {value!r}, not a number")
    try:
        return float(value)
    except OverflowError:
        raise TypeError(f"'{score.kind} {score.variable}' gives a number too large for a score") from None


_OF_TABLES.add(score_of)


def heuristic_function(game: Game, name: str) -> Evaluation:
    """The ruleset's function ``name(p: player) -> int`` as an evaluation; AgentSpecError if
    the ruleset declares no such function or it has another shape."""
    decl = game.catalog.functions.get(name)
    if decl is None:
        declared = ", ".join(sorted(game.catalog.functions)) or "none"
        raise AgentSpecError(f"greedy:{name}: the ruleset declares no function '{name}' (functions: {declared})")
    shape = _shape_problem(decl)
    if shape:
        raise AgentSpecError(f"greedy:{name}: {shape}; a heuristic takes one player and returns an int")
    call = ast.Call(decl.span, name, (ast.Name(decl.span, "p"),))
    compiled = game.program.compile_expression(call, {"p"})
    players = game.catalog.players

    def evaluation(state: State, player: int) -> float:
        return _number(state.evaluate(compiled, {"p": players[player]}, decl.span))
    _OF_TABLES.add(evaluation)
    return evaluation


def _shape_problem(decl: ast.FunctionDecl) -> str:
    """What makes ``decl`` unfit as a heuristic, or "" if it fits."""
    params = ", ".join(f"{p.name}: {p.type}" for p in decl.params)
    if len(decl.params) != 1 or decl.params[0].type.name != "player" or decl.params[0].type.optional:
        return f"function '{decl.name}' takes ({params}), not (p: player)"
    if decl.result is None or decl.result.name != "int" or decl.result.optional:
        return f"function '{decl.name}' returns {decl.result}, not int"
    return ""


def _number(value: object) -> float:
    if isinstance(value, int):
        return float(value)
    raise TypeError(f"a heuristic gave {value!r}, not a number")


class GreedyAgent:
    """One ply: the action whose resulting state is best for the seat by ``evaluation``,
    each action tried on one sample of what the seat cannot see; ties broken at random.

    A pick in a simultaneous choice that leaves another seat to pick changes none of the
    state's tables (the picks are known together, once the last is made): where the
    evaluation reads only those (``_OF_TABLES``), every action leads to the same value, a
    tie of all, so the seat picks at random without a sample (drawing from its generator as
    trying them would: the sample's seed, then one of the tied actions)."""

    def __init__(self, seed: int = 0, evaluation: Evaluation = score_of):
        self.rng = random.Random(seed)
        self.evaluation = evaluation
        self.of_tables = evaluation in _OF_TABLES

    def choose(self, state: State, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``."""
        actions = state.legal_actions(player)
        if len(actions) < 2:
            return only_action(actions, player)
        seed = self.rng.getrandbits(63)
        if self.of_tables and _leaves_others_to_pick(state, player):
            return self.rng.choice(actions)
        try:
            sample = Sampler(state, player).sample(seed)
        except RulelangError:
            return actions[self.rng.randrange(len(actions))]
        last = len(actions) - 1   # the sample is not needed after the last action: played on itself
        values = [self._value_after(sample if k == last else sample.clone(), player, action.id)
                  for k, action in enumerate(actions)]
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values, strict=True) if v == best])

    def _value_after(self, after: State, player: int, action_id: int) -> float:
        """The evaluation of ``after`` (a copy of the sample, changed here) after ``action_id``;
        -inf if the rules fail."""
        try:
            after.apply_action(action_id, player=player)
            return self.evaluation(after, player)
        except (RulelangError, TypeError, IndexError):
            return -math.inf


def _leaves_others_to_pick(state: State, player: int) -> bool:
    """Whether ``player``'s pick in the decision ``state`` awaits is one of a simultaneous
    choice that another seat has yet to make (the pick then changes no table of the state)."""
    decision = state.pending
    return decision is not None and decision.kind == "simultaneous" and any(p != player for p in decision.players)
