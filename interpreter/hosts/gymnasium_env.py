"""Any ruleset as a Gymnasium environment with one learning seat; the other seats are played
by agents (``rulelang.interpreter.agents``, random by default). Also the parts that the PettingZoo
environments (``pettingzoo_env.py``) share: loading, spaces, observations, seeds.

    from rulelang.interpreter.hosts.gymnasium_env import RulesetEnv
    env = RulesetEnv("games/my_game.rules", players=3, seat=0, opponents="random")
    observation, info = env.reset(seed=7)

Needs ``pip install rulelang[rl]`` (Gymnasium; not a dependency of rulelang itself). An
observation is a dict: ``"observation"``, the seat's observation tensor (``tensors.py``) as
float32, and ``"action_mask"``, its legal-action mask as int8 over the game's action space
(``Discrete(num_distinct_actions)``). docs/embedding.md, "PettingZoo and Gymnasium", has the
details: rewards, truncation, seeds, illegal actions.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rulelang.errors import IllegalActionError
from rulelang.loader import load

from ..agents import Agent, AgentSpec, AgentSpecError, derive_seed, parse_agents
from ..game import Game
from ..sim.play import DEFAULT_MAX_DECISIONS
from ..state import tensors
from ..state.actions import as_integer
from ..state.state import State
from .terminal_view import render_text
from .view_picture import require_agg, view_picture

GameSource = Game | str | Path
"""A game, or what ``rulelang.load`` reads one from: a ruleset's path or its text."""
Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 array, "action_mask": int8 array}``."""
IllegalActionPolicy = Literal["penalize", "raise"]

DEFAULT_ILLEGAL_REWARD = -1.0
"""The reward of an illegal action in ``RulesetEnv`` (``illegal_action="penalize"``)."""
RENDER_MODES = ("ansi", "human", "rgb_array")
_FLOAT32_MAX = float(np.finfo(np.float32).max)


# ---------------------------------------------------------------- the parts the environments share

def load_game(source: GameSource, players: int | None = None) -> Game:
    """``source`` itself if it is a game (IllegalActionError if ``players`` says another count), else
    the game ``rulelang.load`` reads from it for ``players`` players."""
    if isinstance(source, Game):
        if players is not None and players != source.num_players:
            raise IllegalActionError(f"players={players}, but the game given has {source.num_players} players")
        return source
    return load(source, players=players)


def decision_bound(game: Game, max_decisions: int | None = None) -> int:
    """The number of decisions after which an episode is truncated: ``max_decisions`` if
    given, else the ruleset's ``max_decisions``, else ``play.DEFAULT_MAX_DECISIONS``."""
    if max_decisions is None:
        return int(game.max_decisions or DEFAULT_MAX_DECISIONS)
    if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
        raise IllegalActionError(f"max_decisions must be a whole number above 0, not {max_decisions!r}")
    return max_decisions


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is None or one of ``RENDER_MODES``; IllegalActionError otherwise
    (MissingExtraError for "rgb_array" without matplotlib)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise IllegalActionError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
    if render_mode == "rgb_array":
        require_agg()
    return render_mode


def rendered(table: Table, seat: int, render_mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """What ``render()`` gives: the view of ``seat`` (CHANCE: the public view) as text for
    "ansi", as an RGB array of ``view_picture.PICTURE_SHAPE`` for "rgb_array"; printed, and
    None, for "human"; None, with a warning, without a render mode."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi', 'human' "
                              "or 'rgb_array'")
        return None
    if render_mode == "rgb_array":
        return view_picture(table.game, table.state, seat)
    text = table.render(seat)
    if render_mode == "human":
        print(text)
        return None
    return text


def as_action_id(action: object, who: str) -> int:
    """``action`` as a plain int (numpy integers too); IllegalActionError for anything else."""
    number = as_integer(action)
    if number is not None:
        return number
    raise IllegalActionError(f"{who} is to act: give an action id (an int), not {action!r}")


class Table:
    """One game in progress for an environment: the state, its action space and the bound on
    decisions; its observations as numpy arrays. ``start`` begins a new game."""

    def __init__(self, game: Game, max_number: int | None = None, max_decisions: int | None = None):
        self.game = game
        self.max_number = max_number   # the host's bound on numbers (None: the ruleset's)
        self.actions = tensors.action_space(game, max_number)
        self.bound = decision_bound(game, max_decisions)
        self.shape = tensors.observation_shape(game)
        self._state: State | None = None

    @property
    def state(self) -> State:
        """The game in progress; IllegalActionError before the first ``start``."""
        if self._state is None:
            raise IllegalActionError("no game yet: call reset() first")
        return self._state

    def start(self, seed: int) -> None:
        """A new game from ``seed`` (chance is sampled by the engine, from the state's seed)."""
        self._state = self.game.new_initial_state(seed=seed)

    def observation_space(self) -> spaces.Dict:
        """A new space of this game's observations: the tensor (float32, within the ranges
        of ``tensor_space``) and the mask (int8, 0 or 1 for each action id)."""
        return spaces.Dict({
            "observation": self.tensor_space(),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })

    def tensor_space(self) -> spaces.Box:
        """A new space of this game's observation tensors: each float within the range its
        declaration gives (``tensors.observation_bounds``), the numbers of no declared range
        within float32's."""
        low, high = tensors.observation_bounds(self.game)
        return spaces.Box(as_float32(low), as_float32(high), self.shape, np.float32)

    def action_space(self) -> spaces.Discrete:
        """A new space of this game's action ids: ``Discrete(num_distinct_actions)``."""
        return spaces.Discrete(self.actions.size)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may see and may do now, as new arrays."""
        return {"observation": self.tensor(seat), "action_mask": self.mask(seat)}

    def tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation tensor (CHANCE: the public one) as float32 (numbers beyond
        float32's range clipped)."""
        return as_float32(tensors.observation_tensor(self.state, seat))

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each action id ``seat`` may take now (all 0 when he is not to act or the
        episode is over)."""
        if self.over:
            return np.zeros(self.actions.size, np.int8)
        return np.asarray(tensors.legal_action_mask(self.state, seat, self.max_number), np.int8)

    @property
    def terminated(self) -> bool:
        """Whether the game has ended by its rules."""
        return self.state.is_terminal()

    @property
    def truncated(self) -> bool:
        """Whether the game is cut short: not ended after ``bound`` decisions."""
        return not self.state.is_terminal() and self.state.decisions >= self.bound

    @property
    def over(self) -> bool:
        """Whether the episode is over, ended or cut short."""
        return self.terminated or self.truncated

    def to_act(self) -> list[int]:
        """The seats to act now (several in a simultaneous choice); [] once the episode is over."""
        return [] if self.over else self.state.current_players()

    def rewards(self) -> list[float]:
        """Each seat's final score (``State.returns``) once the game has ended; 0 before, and
        when it is cut short."""
        if self.terminated:
            return [float(score) for score in self.state.returns()]
        return [0.0] * self.game.num_players

    def checked(self, seat: int, action: object, who: str) -> int:
        """``action`` as an id, once checked to be one of ``seat``'s legal actions now;
        IllegalActionError otherwise (``who`` names the seat)."""
        chosen = as_action_id(action, who)
        legal = self.state.legal_action_ids(seat)
        if chosen not in legal:
            raise IllegalActionError(f"{who}: action {chosen} is not legal now; legal action ids: {_listed(legal)}")
        return chosen

    def play(self, seat: int, action: object, who: str) -> None:
        """Apply ``action`` for ``seat`` (``who`` in errors): IllegalActionError, the state
        unchanged, if it is not one of his legal actions now."""
        self.state.apply_action(self.checked(seat, action, who), player=seat)

    def render(self, seat: int) -> str:
        """The view of ``seat`` as plain text (``terminal_view.render_text``)."""
        return render_text(self.game, self.state, seat)


def as_float32(values: Sequence[float]) -> npt.NDArray[np.float32]:
    """``values`` as float32, those beyond float32's range clipped to it."""
    return np.clip(np.asarray(values, np.float64), -_FLOAT32_MAX, _FLOAT32_MAX).astype(np.float32)


def _listed(ids: list[int], most: int = 20) -> str:
    """``ids`` as text, the first ``most`` of them and how many more; "none" for none."""
    if not ids:
        return "none"
    text = ", ".join(str(i) for i in ids[:most])
    return text if len(ids) <= most else f"{text} and {len(ids) - most} more"


class GameSeeds:
    """The seed of each new game: the seed given to ``reset``, else the next one drawn from
    a generator seeded by the last seed given (from the operating system before any)."""

    def __init__(self) -> None:
        self._drawn = random.Random()

    def next(self, seed: int | None) -> int:
        """The seed of the next game."""
        if seed is None:
            return self._drawn.getrandbits(63)
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise IllegalActionError(f"a seed must be an integer, not {seed!r}")
        chosen = int(seed)
        self._drawn = random.Random(chosen)
        return chosen


# ---------------------------------------------------------------- the single-agent environment

def opponent_specs(opponents: str | AgentSpec | Sequence[AgentSpec] | None, others: int) -> tuple[AgentSpec, ...]:
    """One spec for each of ``others`` seats: random for each by default; a line-up as text
    (``parse_agents``: one spec for all, or one per other seat); one spec for all; or one per
    other seat."""
    if opponents is None:
        return (AgentSpec(),) * others
    if isinstance(opponents, str):
        return parse_agents(opponents, others) if others else ()
    if isinstance(opponents, AgentSpec):
        return (opponents,) * others
    specs = tuple(opponents)
    if len(specs) != others:
        raise AgentSpecError(f"{len(specs)} opponents given for the {others} other seats")
    return specs


class RulesetEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a game (``seat``) as a Gymnasium environment; the other seats are played by
    ``opponents`` and chance by the engine, between the seat's decisions.

    An observation is the seat's ``{"observation", "action_mask"}``; an action, one of the
    game's action ids. The reward is the seat's final score (``State.returns``) on the step
    that ends the game, else 0; ``terminated`` when the game ends, ``truncated`` when it has
    taken ``max_decisions`` decisions (default: the ruleset's bound). An illegal action is,
    with ``illegal_action="penalize"`` (the default), refused: the state is unchanged, the
    reward is ``illegal_reward`` and ``info["illegal_action"]`` is True; with ``"raise"`` it
    raises IllegalActionError. Reset with a seed, the game and the opponents' agents are
    seeded from it, so an episode is reproducible (mcts agents with a time budget aside)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}   # noqa: RUF012  # Gymnasium's class attribute

    def __init__(self, game: GameSource, players: int | None = None, *, seat: int = 0,
                 opponents: str | AgentSpec | Sequence[AgentSpec] | None = None,
                 max_number: int | None = None, max_decisions: int | None = None,
                 illegal_action: IllegalActionPolicy = "penalize", illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
                 render_mode: str | None = None):
        loaded = load_game(game, players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < loaded.num_players:
            raise IllegalActionError(f"seat must be one of 0..{loaded.num_players - 1}, not {seat!r}")
        if illegal_action not in ("penalize", "raise"):
            raise IllegalActionError(f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}")
        self.table = Table(loaded, max_number, max_decisions)
        self.seat = seat
        self.specs = opponent_specs(opponents, loaded.num_players - 1)
        for spec in self.specs:
            spec.check(loaded)
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = self.table.observation_space()
        self.action_space = self.table.action_space()
        self.opponents: dict[int, Agent] = {}

    @property
    def game(self) -> Game:
        """The game this environment plays."""
        return self.table.game

    @property
    def state(self) -> State:
        """The engine's state of the episode in progress."""
        return self.table.state

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new game: from ``seed`` if given, else from a seed drawn from ``np_random``;
        the opponents' agents seeded from the game's seed. Plays up to the seat's first
        decision."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.table.start(game_seed)
        seats = [s for s in range(self.game.num_players) if s != self.seat]
        self.opponents = {s: spec.build(self.game, derive_seed(game_seed, s))
                          for s, spec in zip(seats, self.specs, strict=True)}
        self._play_others()
        return self.table.observe(self.seat), self._info(False)

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Apply the seat's ``action``, then play the others up to its next decision."""
        who = f"seat {self.seat}"
        if self.table.over:
            raise IllegalActionError(f"{who}: the episode is over: call reset()")
        if self.illegal_action == "penalize" and not self._is_legal(action):
            return self.table.observe(self.seat), self.illegal_reward, False, False, self._info(True)
        self.table.play(self.seat, action, who)
        self._play_others()
        reward = self.table.rewards()[self.seat]
        observation = self.table.observe(self.seat)
        return observation, reward, self.table.terminated, self.table.truncated, self._info(False)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (the method sb3-contrib's maskable agents call)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The seat's view as text ("ansi"), a picture ("rgb_array"), or printed ("human")."""
        return rendered(self.table, self.seat, self.render_mode)

    def _is_legal(self, action: object) -> bool:
        try:
            self.table.checked(self.seat, action, "")
        except IllegalActionError:
            return False
        return True

    def _play_others(self) -> None:
        """Let the opponents act until the seat is to act or the episode is over."""
        while True:
            players = self.table.to_act()
            if not players or self.seat in players:
                return
            player = players[0]
            self.state.apply_action(self.opponents[player].choose(self.state, player), player=player)

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"illegal_action": illegal, "decisions": self.state.decisions}
