"""Any ruleset as an OpenSpiel game, so OpenSpiel's algorithms run on it.

    from rulelang.interpreter.openspiel_adapter import register
    name = register("games/my_game.rules", players=2)
    game = pyspiel.load_game(name)

Needs ``pip install open-spiel`` (not a dependency of rulelang). The adapter shows the
engine's state with explicit chance; simultaneous choices become successive moves in seat
order, each player unaware of the others' picks. Observation strings are the observations
as JSON; information-state strings add the player's own past actions.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyspiel

import rulelang

from .serialize import state_to_json
from .state import State as EngineState
from .values import CHANCE

_VOLATILE = ("history", "decisions", "log")


def register(path: str | Path, players: int, *, short_name: str | None = None, max_number: int = 100,
             min_utility: float = -1000.0, max_utility: float = 1000.0) -> str:
    """Register the ruleset at ``path`` with pyspiel; returns the name for ``load_game``.

    ``max_number`` bounds the numbers a choice may offer (OpenSpiel needs a finite action
    space); ``min_utility`` and ``max_utility`` bound the scores."""
    game = rulelang.load(path, players=players)
    name = short_name or "rulelang_" + _slug(game.title)
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"rulelang: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False)
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions() + max_number + 1,
        max_chance_outcomes=game.num_distinct_actions() + max_number + 1,
        num_players=players, min_utility=min_utility, max_utility=max_utility,
        max_game_length=int(game.max_decisions or 10_000))

    class Game(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
        def __init__(self, params: dict[str, Any] | None = None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return State(self, game.new_initial_state(explicit_chance=True))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(perfect_recall=bool(iig_obs_type and iig_obs_type.perfect_recall))

    pyspiel.register_game(game_type, Game)
    return name


class State(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state around an engine state."""

    def __init__(self, game: Any, inner: EngineState):
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.inner.current_players()[0]
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.inner.legal_action_ids(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((action.id, p) for action, p in self.inner.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        player = self.inner.current_players()[0]
        self.inner.apply_action(int(action), player=player)

    def _action_to_string(self, player: int, action: int) -> str:
        player = CHANCE if player == pyspiel.PlayerId.CHANCE else player
        labels = {a.id: str(a) for a in self.inner.legal_actions(player)} if not self.inner.is_terminal() else {}
        return labels.get(action, str(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns() if self.inner.is_terminal() else [0.0] * self.get_game().num_players()

    def __str__(self) -> str:
        data = state_to_json(self.inner)
        return json.dumps({k: v for k, v in data.items() if k not in _VOLATILE}, sort_keys=True)


class _Observer:
    """Observation and information-state strings (no tensors)."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor: None = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: State, player: int) -> None:
        pass

    def string_from(self, state: State, player: int) -> str:
        text = json.dumps(state.inner.observation(player), sort_keys=True)
        if not self.perfect_recall:
            return text
        own = [a for p, a in state.inner.history() if p == player]
        return f"{text} own actions {own}"


def _slug(title: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in title.lower()).strip("_")
