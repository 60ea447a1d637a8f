"""Any ruleset as an OpenSpiel game, so OpenSpiel's algorithms run on it.

    from rulelang.interpreter.hosts.openspiel_adapter import register
    name = register("games/my_game.rules", players=2)
    game = pyspiel.load_game(name)

Needs ``pip install open-spiel`` (not a dependency of rulelang). The adapter shows the
engine's state with explicit chance; simultaneous choices become successive moves in seat
order, each player unaware of the others' picks. Observation strings are the observations
as JSON; information-state strings add the player's own past actions. Observation and
information-state tensors are those of ``tensors.py`` (docs/embedding.md, "Tensors and
action masks"), and the action space is ``tensors.action_space``.

Games and states copy, pickle and serialize (``pyspiel.serialize_game_and_state``): a game
as the arguments of ``register`` (the ruleset's path, the player count, the options), a
state as its game and ``to_json()``. Unpickling in another process registers the ruleset
there again, from the same path.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pyspiel

from rulelang.loader import load

from ..game import Game as EngineGame
from ..model.values import CHANCE
from ..state import tensors
from ..state.save import state_to_json
from ..state.state import State as EngineState

_VOLATILE = ("history", "decisions", "log")
T = TypeVar("T")
# short name -> the arguments of register (path, players, options): what a pickled game holds
_REGISTERED: dict[str, tuple[str, int, dict[str, Any]]] = {}
_ENGINE_GAMES: dict[str, EngineGame] = {}   # short name -> the engine's game
_SPACES: dict[str, tensors.ActionSpace] = {}     # short name -> its action space


def register(path: str | Path, players: int, *, short_name: str | None = None, max_number: int | None = None,
             min_utility: float = -1000.0, max_utility: float = 1000.0,
             zero_sum: bool | None = None, history: int = tensors.DEFAULT_HISTORY) -> str:
    """Register the ruleset at ``path`` with pyspiel; returns the name for ``load_game``.

    ``max_number`` bounds the numbers a choice may offer (OpenSpiel needs a finite action
    space; ``None``: the ruleset's own bound, ``tensors.action_space``); ``history`` is how
    many of a player's last actions an information-state tensor spells out;
    ``min_utility`` and ``max_utility`` bound the scores. ``zero_sum=True`` declares
    that the returns of every ended game sum to 0 (OpenSpiel's ``ZERO_SUM``, which algorithms
    such as ``exploitability`` require); ``None`` or ``False`` registers ``GENERAL_SUM``.
    Registering the same short name again with the same arguments returns it unchanged."""
    path = str(Path(path).resolve())
    options: dict[str, Any] = {"max_number": max_number, "min_utility": min_utility,
                               "max_utility": max_utility, "zero_sum": bool(zero_sum), "history": history}
    if short_name is not None and _REGISTERED.get(short_name) == (path, players, options):
        return short_name
    game = load(Path(path), players=players)
    name = short_name or "rulelang_" + _slug(game.title)
    if _REGISTERED.get(name) == (path, players, options):
        return name
    if name in _REGISTERED:
        raise ValueError(f"an OpenSpiel game named {name!r} is registered already, with other arguments")
    space = tensors.action_space(game, max_number)
    tensors.information_state_shape(game, max_number, history)   # a bad history is refused here
    utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"rulelang: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True)
    info = pyspiel.GameInfo(
        num_distinct_actions=space.size,
        max_chance_outcomes=space.size,
        num_players=players, min_utility=min_utility, max_utility=max_utility,
        utility_sum=0.0 if zero_sum else None,
        max_game_length=int(game.max_decisions or 10_000))

    initial = game.new_initial_state(explicit_chance=True)

    class Game(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
        def __init__(self, params: dict[str, Any] | None = None):
            super().__init__(game_type, info, params or {})
            self.engine_game = game

        def new_initial_state(self) -> State:
            return State(self, initial.clone())   # OpenSpiel asks often: set up once

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
            return _Observer(game, perfect_recall, max_number, history)

        def __reduce__(self) -> tuple[Any, ...]:
            return _restore_game, (name, path, players, options)

        def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
            return self.__reduce__()

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            return self   # a game is immutable: copies share it, as pyspiel's own do

        def __copy__(self) -> Any:
            return self

    pyspiel.register_game(game_type, Game)
    _REGISTERED[name] = (path, players, options)
    _ENGINE_GAMES[name] = game
    _SPACES[name] = space
    return name


def _restore_game(name: str, path: str, players: int, options: dict[str, Any]) -> Any:
    """The game a pickle names: registered again (in a new process) from its arguments."""
    register(path, players, short_name=name, **options)
    return pyspiel.load_game(name)


def _restore_state(game: Any, data: str) -> Any:
    """The state a pickle holds: its game and ``State.serialize()``."""
    return game.deserialize_state(data)


class _Box:
    """The engine state of an adapter state, in the one attribute pyspiel pickles
    (``State.serialize()`` pickles the state's ``__dict__``): it pickles as the registered
    game's arguments and the state's ``to_json()``."""

    __slots__ = ("cache", "moment", "name", "state")

    def __init__(self, name: str, state: EngineState):
        self.name, self.state = name, state
        # strings OpenSpiel asks for again and again, valid while no action is applied
        self.moment = -1
        self.cache: dict[tuple[Any, ...], Any] = {}

    def cached(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, computed once per position of the state."""
        moment = len(self.state.action_history)
        if moment != self.moment:
            self.moment, self.cache = moment, {}
        if key not in self.cache:
            self.cache[key] = make()
        result: T = self.cache[key]
        return result

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        copy = _Box(self.name, self.state.clone())   # clone() of a state copies its box so
        copy.moment, copy.cache = self.moment, dict(self.cache)
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        path, players, options = _REGISTERED[self.name]
        return _restore_box, (self.name, path, players, options, json.dumps(self.state.to_json()))


def _restore_box(name: str, path: str, players: int, options: dict[str, Any], data: str) -> _Box:
    register(path, players, short_name=name, **options)
    return _Box(name, _ENGINE_GAMES[name].state_from_json(json.loads(data)))


class State(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state around an engine state."""

    def __init__(self, game: Any, inner: EngineState):
        super().__init__(game)
        self._box = _Box(game.get_type().short_name, inner)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its game (which registers itself again in a new process) and
        # OpenSpiel's own serialization, which keeps OpenSpiel's history too
        return _restore_state, (self.get_game(), self.serialize())

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return self.__reduce__()

    @property
    def inner(self) -> EngineState:
        """The engine's state."""
        return self._box.state

    def current_player(self) -> int:
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.inner.current_players()[0]
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def _legal_actions(self, player: int) -> list[int]:
        return self._in_space(sorted(self.inner.legal_action_ids(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = sorted((action.id, p) for action, p in self.inner.chance_outcomes())
        self._in_space([action_id for action_id, _ in outcomes])
        return outcomes

    def _in_space(self, ids: list[int]) -> list[int]:
        """``ids`` (sorted), once checked to lie in the game's action space: a number beyond
        its ``max_number`` raises IllegalActionError, which says to register a larger one."""
        if ids:
            _SPACES[self._box.name].check(ids[-1])
        return ids

    def _apply_action(self, action: int) -> None:
        player = self.inner.current_players()[0]
        self.inner.apply_action(int(action), player=player)

    def _action_to_string(self, player: int, action: int) -> str:
        player = CHANCE if player == pyspiel.PlayerId.CHANCE else player
        labels = self._labels(player)
        return labels.get(action, str(action))

    def _labels(self, player: int) -> dict[int, str]:
        """The action strings of ``player``'s legal actions, computed once per position.
        OpenSpiel wants distinct strings: two actions with the same label (two equal cards)
        are told apart by their ids."""
        def make() -> dict[int, str]:
            actions = self.inner.legal_actions(player) if not self.inner.is_terminal() else []
            counts = Counter(str(a) for a in actions)
            return {a.id: str(a) if counts[str(a)] == 1 else f"{a} (action {a.id})" for a in actions}
        return self._box.cached(("labels", player), make)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns() if self.inner.is_terminal() else [0.0] * self.get_game().num_players()

    def __str__(self) -> str:
        def make() -> str:
            data = state_to_json(self.inner)
            return json.dumps({k: v for k, v in data.items() if k not in _VOLATILE}, sort_keys=True)
        return self._box.cached(("str",), make)


class _Observer:
    """Observation and information-state strings and tensors (``tensors.py``). The tensor
    is one flat float32 array; ``dict`` names its blocks (views into it)."""

    def __init__(self, game: EngineGame, perfect_recall: bool, max_number: int | None, history: int):
        self.perfect_recall = perfect_recall
        self.max_number, self.history = max_number, history
        if perfect_recall:
            shape = tensors.information_state_shape(game, max_number, history)
        else:
            shape = tensors.observation_shape(game)
        self.tensor = np.zeros(shape, np.float32)
        self.dict: dict[str, Any] = {block.name: self.tensor[block.offset:block.offset + block.size]
                                     for block in tensors.layout(game).blocks}
        if perfect_recall:
            observed = tensors.observation_shape(game)[0]
            self.dict["own actions"] = self.tensor[observed:]

    def set_from(self, state: State, player: int) -> None:
        observed = state._box.cached(("observation tensor", player), lambda: np.asarray(
            tensors.observation_tensor(state.inner, player), np.float32))
        if not self.perfect_recall:
            self.tensor[:] = observed
            return
        self.tensor[:observed.size] = observed
        self.tensor[observed.size:] = tensors.own_actions_tensor(state.inner, player, self.max_number, self.history)

    def string_from(self, state: State, player: int) -> str:
        text = state._box.cached(("observation", player),
                                 lambda: json.dumps(state.inner.observation(player), sort_keys=True))
        if not self.perfect_recall:
            return text
        own = [a for p, a in state.inner.history() if p == player]
        return f"{text} own actions {own}"


def _slug(title: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in title.lower()).strip("_")
