"""Any ruleset as an OpenSpiel game, so OpenSpiel's algorithms run on it.

    from rulelang.interpreter.hosts.openspiel_adapter import register
    name = register("games/my_game.rules")
    game = pyspiel.load_game(name, {"players": 3})

Needs ``pip install open-spiel`` (not a dependency of rulelang). The game type (perfect or
imperfect information, deterministic or explicit chance, zero-, constant- or general-sum)
and the utility bounds follow from the ruleset (``game_facts.py``); the one game parameter
is ``players``. The adapter shows the engine's state with explicit chance; simultaneous
choices become successive moves in seat order, each player unaware of the others' picks.
Observation strings are the observations as JSON; information-state strings add the
player's own past actions; the observers (``openspiel_observers.py``) honour
``IIGObservationType``. Observation and information-state tensors are those of
``tensors.py`` (docs/embedding.md, "Tensors and action masks"), and the action space is
``tensors.action_space``.

Games and states copy, pickle and serialize (``pyspiel.serialize_game_and_state``): a game
as the arguments of ``register`` (the ruleset's path, the default player count, the
options) and its player count, a state as its game and ``to_json()``. Unpickling in
another process registers the ruleset there again, from the same path.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pyspiel

from rulelang.loader import load

from ..game import Game as EngineGame
from ..model.values import CHANCE
from ..state import tensors
from ..state.save import state_to_json
from ..state.state import State as EngineState
from .game_facts import facts
from .openspiel_observers import Observer, Private, observer_kind

_VOLATILE = ("history", "decisions", "log")
_FALLBACK_UTILITY = 1000.0   # the bound on scores where nothing is known of them
T = TypeVar("T")
_PRIVATE_INFO = {"NONE": "none", "SINGLE_PLAYER": "single", "ALL_PLAYERS": "all"}


@dataclass
class _Registration:
    """A registered ruleset: the arguments of ``register`` (what a pickled game holds), the
    player counts it allows and, per count loaded so far, its engine game."""

    path: str
    players: int                   # the count load_game gives without parameters
    options: dict[str, Any]
    counts: tuple[int, int]
    at_count: dict[int, _AtCount]

    @property
    def arguments(self) -> tuple[str, int, dict[str, Any]]:
        return self.path, self.players, self.options


@dataclass
class _AtCount:
    """A registered ruleset at one player count."""

    game: EngineGame
    space: tensors.ActionSpace
    info: Any                      # its pyspiel.GameInfo
    initial: EngineState           # the initial state, cloned for each new state


_REGISTERED: dict[str, _Registration] = {}   # short name -> its registration


def register(path: str | Path, players: int | None = None, *, short_name: str | None = None,
             max_number: int | None = None, min_utility: float | None = None, max_utility: float | None = None,
             zero_sum: bool | None = None, history: int = tensors.DEFAULT_HISTORY) -> str:
    """Register the ruleset at ``path`` with pyspiel; returns the name for ``load_game``.

    The game takes one parameter, ``players``: ``pyspiel.load_game(name, {"players": 4})``
    plays any count the ruleset allows (``players`` here is the count without the
    parameter; None: the lowest). The game type follows from the ruleset (``game_facts``):
    perfect information where nothing is hidden, deterministic where nothing is drawn at
    random, zero-sum or constant-sum where the scores' sum is known. ``max_number`` bounds
    the numbers a choice may offer (OpenSpiel needs a finite action space; ``None``: the
    ruleset's own bound, ``tensors.action_space``); ``history`` is how many of a player's
    last actions an information-state tensor spells out; ``min_utility`` and
    ``max_utility`` bound the scores (None: the range the ruleset proves or declares, else
    +-1000). ``zero_sum=True`` is the host's promise that the returns of every ended game sum
    to 0 (``ZERO_SUM``), ``False`` registers ``GENERAL_SUM`` whatever the ruleset says, None
    the ruleset's own. Registering the same short name again with the same arguments
    returns it unchanged."""
    path = str(Path(path).resolve())
    options: dict[str, Any] = {"max_number": max_number, "min_utility": min_utility,
                               "max_utility": max_utility, "zero_sum": zero_sum, "history": history}
    if _registered_alike(short_name, path, players, options):
        return str(short_name)
    game = load(Path(path), players=players)
    name = short_name or "rulelang_" + _slug(game.title)
    arguments = (path, game.num_players, options)
    if name in _REGISTERED:
        if _REGISTERED[name].arguments == arguments:
            return name
        raise ValueError(f"an OpenSpiel game named {name!r} is registered already, with other arguments")
    registration = _Registration(path, game.num_players, options, game.settings.players, {})
    registration.at_count[game.num_players] = _at_count(game, options)
    game_type = _game_type(name, game, registration)
    pyspiel.register_game(game_type, _game_class(name, game_type, registration))
    _REGISTERED[name] = registration
    return name


def _registered_alike(name: str | None, path: str, players: int | None, options: dict[str, Any]) -> bool:
    """Whether ``name`` is registered with these arguments (None: with any default count)."""
    found = _REGISTERED.get(name) if name is not None else None
    return (found is not None and (found.path, found.options) == (path, options)
            and players in (None, found.players))


def _at_count(game: EngineGame, options: dict[str, Any]) -> _AtCount:
    """The OpenSpiel game info of ``game`` (one player count), its action space and initial state."""
    max_number, history = options["max_number"], options["history"]
    space = tensors.action_space(game, max_number)
    tensors.information_state_shape(game, max_number, history)   # a bad history is refused here
    known = facts(game)
    low, high = known.score_range or (-_FALLBACK_UTILITY, _FALLBACK_UTILITY)
    info = pyspiel.GameInfo(
        num_distinct_actions=space.size,
        max_chance_outcomes=space.size,
        num_players=game.num_players,
        min_utility=low if options["min_utility"] is None else options["min_utility"],
        max_utility=high if options["max_utility"] is None else options["max_utility"],
        utility_sum=_utility_sum(known.score_sum, options["zero_sum"]),
        max_game_length=int(game.max_decisions or 10_000))
    return _AtCount(game, space, info, game.new_initial_state(explicit_chance=True))


def _utility_sum(known: float | None, zero_sum: bool | None) -> float | None:
    """What the returns of an ended game sum to, as the host or the ruleset says (None: not known)."""
    return 0.0 if zero_sum else None if zero_sum is False else known


def _game_type(name: str, game: EngineGame, registration: _Registration) -> Any:
    """The pyspiel.GameType of a ruleset: from its facts, with the ``players`` parameter."""
    known = facts(game)
    utility_sum = _utility_sum(known.score_sum, registration.options["zero_sum"])
    kinds = pyspiel.GameType
    utility = (kinds.Utility.GENERAL_SUM if utility_sum is None else
               kinds.Utility.ZERO_SUM if utility_sum == 0 else kinds.Utility.CONSTANT_SUM)
    return kinds(
        short_name=name, long_name=f"rulelang: {game.title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=kinds.ChanceMode.EXPLICIT_STOCHASTIC if known.chance else kinds.ChanceMode.DETERMINISTIC,
        information=(kinds.Information.PERFECT_INFORMATION if known.perfect_information
                     else kinds.Information.IMPERFECT_INFORMATION),
        utility=utility,
        reward_model=kinds.RewardModel.TERMINAL,
        min_num_players=registration.counts[0], max_num_players=registration.counts[1],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": registration.players})


def _players_asked(name: str, registration: _Registration, params: dict[str, Any]) -> int:
    """The player count of ``load_game(name, params)``; a ValueError for a count the ruleset
    does not allow."""
    count = params.get("players", registration.players)
    low, high = registration.counts
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise ValueError(f"{name}: the ruleset is for {allowed} players, not players={count!r}")
    return count


def _registered_at(name: str, count: int) -> _AtCount:
    """A registered ruleset at ``count`` players, loaded on first use."""
    registration = _REGISTERED[name]
    found = registration.at_count.get(count)
    if found is None:
        game = load(Path(registration.path), players=count)
        found = registration.at_count[count] = _at_count(game, registration.options)
    return found


def _game_class(name: str, game_type: Any, registration: _Registration) -> type:
    """The pyspiel.Game subclass of a registered ruleset."""
    options = registration.options

    class Game(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
        def __init__(self, params: dict[str, Any] | None = None):
            count = _players_asked(name, registration, dict(params or {}))
            self.at_count = _registered_at(name, count)
            super().__init__(game_type, self.at_count.info, dict(params or {}))
            self.engine_game = self.at_count.game

        def new_initial_state(self) -> State:
            return State(self, self.at_count.initial.clone())   # OpenSpiel asks often: set up once

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            if params:
                raise ValueError(f"rulelang observers take no parameters, not {params!r}")
            private, recall = _observation_type(iig_obs_type)
            return Observer(self.engine_game, private, recall, options["max_number"], options["history"])

        def __reduce__(self) -> tuple[Any, ...]:
            return _restore_game, (name, *registration.arguments, self.engine_game.num_players)

        def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
            return self.__reduce__()

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            return self   # a game is immutable: copies share it, as pyspiel's own do

        def __copy__(self) -> Any:
            return self

    return Game


def _observation_type(iig_obs_type: Any) -> tuple[Private, bool]:
    """The view an IIGObservationType asks for (None: the player's own observation)."""
    if iig_obs_type is None:
        return "single", False
    private: Private = _PRIVATE_INFO[iig_obs_type.private_info.name]  # type: ignore[assignment]
    return observer_kind(bool(iig_obs_type.public_info), bool(iig_obs_type.perfect_recall), private)


def _restore_game(name: str, path: str, players: int, options: dict[str, Any], count: int) -> Any:
    """The game a pickle names: registered again (in a new process) from its arguments."""
    register(path, players, short_name=name, **options)
    return pyspiel.load_game(name, {"players": count})


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
        return _restore_box, (self.name, *_REGISTERED[self.name].arguments, self.state.game.num_players,
                              json.dumps(self.state.to_json()))


def _restore_box(name: str, path: str, players: int, options: dict[str, Any], count: int, data: str) -> _Box:
    register(path, players, short_name=name, **options)
    return _Box(name, _registered_at(name, count).game.state_from_json(json.loads(data)))


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

    def cached(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, computed once per position of the state (for the observers)."""
        return self._box.cached(key, make)

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
            _registered_at(self._box.name, self.inner.game.num_players).space.check(ids[-1])
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


def _slug(title: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in title.lower()).strip("_")
