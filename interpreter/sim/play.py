"""Playing the games of a simulation, what the serial runner (``simulate``) and the parallel
one (``parallel``) share: game number ``index`` of a run seeded with ``seed``, with one agent
per seat built from the line-up (``play_game``), which depends on nothing else, so that a
run split among processes gives the games a single process would; one game with agents
already seated (``play_one``) and one step of it (``play_step``); and the bound on decisions
after which a game counts as unfinished (``bound_of``).

Games that hit the bound, or stop on a runtime error, come back as unfinished
``GameResult`` values, never raised.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, RulelangError, RulesRuntimeError

from ..agents import Agent, AgentSpec, derive_seed
from ..model.values import CHANCE
from ..state.state import State

if TYPE_CHECKING:
    from ..game import Game

DEFAULT_MAX_DECISIONS = 10_000
OnProgress = Callable[[int, int], None]   # (games done, games in all)


@dataclass
class GameResult:
    """How one simulated game went."""

    finished: bool
    decisions: int
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    error: str = ""
    diagnostic: Diagnostic | None = None   # the error that stopped the game, if one did


def play_one(game: Game, seed: int, agents: Sequence[Agent], max_decisions: int,
             chance: random.Random | None = None) -> GameResult:
    """One game from ``seed`` with one agent per seat; a chance node that the state exposes is
    sampled with ``chance`` (by default a generator seeded with ``seed``)."""
    decisions = 0
    chance = chance if chance is not None else random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            decisions = state.decisions
            if decisions >= max_decisions:
                return GameResult(False, decisions, error="max_decisions")
            play_step(state, agents, chance)
        return GameResult(True, state.decisions, state.returns(), state.winners())
    except RulelangError as error:  # the rules failed, or (a bug) the engine did
        return _failed(decisions, error.diagnostic)
    except ValueError as error:  # an agent found no legal action
        return _failed(decisions, Diagnostic("E602", str(error)))
    except Exception as error:  # a bug in rulelang: reported as such, never raised
        message = f"rulelang failed while simulating: {type(error).__name__}: {error}"
        return _failed(decisions, Diagnostic("E900", message, hint=BUG_HINT))


def play_game(game: Game, agents: Sequence[AgentSpec], seed: int, index: int, max_decisions: int) -> GameResult:
    """Game number ``index`` of a run seeded with ``seed``: it depends on nothing else."""
    seated = [spec.build(game, derive_seed(seed, index, seat)) for seat, spec in enumerate(agents)]
    chance = random.Random(derive_seed(seed, index, CHANCE))
    return play_one(game, derive_seed(seed, index), seated, max_decisions, chance)


def _failed(decisions: int, diagnostic: Diagnostic) -> GameResult:
    """An unfinished game, stopped after ``decisions`` by the error ``diagnostic`` says."""
    return GameResult(False, decisions, error=diagnostic.code, diagnostic=diagnostic)


def play_step(state: State, agents: Sequence[Agent] | Mapping[int, Agent], chance: random.Random) -> None:
    """Apply one action: the first player to act picks with his agent (a simultaneous choice
    takes one step per player); a chance node that is exposed anyway is sampled with ``chance``."""
    players = state.current_players()
    if not players:
        raise RulesRuntimeError(Diagnostic("E602", "the game is not over but nobody is to act"))
    player = players[0]
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        action = chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = agents[player].choose(state, player)
    state.apply_action(action, player=player)


def bound_of(game: Game) -> int:
    """The most decisions a simulated game of ``game`` may take before it counts as unfinished."""
    return int(game.max_decisions or DEFAULT_MAX_DECISIONS)
