"""Any ruleset as a PettingZoo environment: an AEC environment (players act one at a time)
and a parallel one (every player to act acts at once, as in a simultaneous choice).

    from rulelang.interpreter.hosts.pettingzoo_env import aec_env, parallel_env
    env = aec_env("games/my_game.rules", players=3)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        ...

Needs ``pip install rulelang[rl]`` (PettingZoo; not a dependency of rulelang itself).
Agents are named ``player_0``... for the seats 0... An observation is the dict of
``gymnasium_env.Table.observe``: the seat's observation tensor and its legal-action mask,
as in PettingZoo's classic games; the action space is ``Discrete(num_distinct_actions)``.
Chance is sampled by the engine. docs/embedding.md, "PettingZoo and Gymnasium", has the
details: rewards, truncation, seeds, what the agents not to act do in the parallel env.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from rulelang.errors import IllegalActionError

from ..game import Game
from ..model.values import CHANCE
from ..state.state import State
from .gymnasium_env import (
    RENDER_MODES,
    GameSeeds,
    GameSource,
    Observation,
    Table,
    check_render_mode,
    load_game,
    rendered,
)

Agents = dict[str, Any]   # a value for each agent, by name


def environment_name(source: GameSource, game: Game) -> str:
    """The environment's name (``metadata["name"]``): ``rulelang_``, the name of the ruleset's
    file, ``_v0`` (``rulelang_my_game_v0`` for ``my_game.rules``); its title's letters and
    digits in place of the file's name for a ruleset given as text or as a Game."""
    name = game.title
    if isinstance(source, Path) or (isinstance(source, str) and source.endswith(".rules") and "\n" not in source):
        name = Path(source).stem
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "rulelang_" + "_".join(re.findall(r"[a-z0-9]+", plain) or ["game"]) + "_v0"


def agent_name(seat: int) -> str:
    """The PettingZoo name of ``seat``: ``player_0`` for seat 0."""
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """The seat of the agent named ``agent`` (``player_3``: 3)."""
    return int(agent.rsplit("_", 1)[1])


class _Environment:
    """What both environments hold: the table, the agents' names and spaces, the seeds of
    games, the render mode; and what they do alike (observe, render)."""

    def _set_up(self, source: GameSource, players: int | None, max_number: int | None,
                max_decisions: int | None, render_mode: str | None) -> None:
        game = load_game(source, players)
        self.table = Table(game, max_number, max_decisions)
        self.possible_agents = [agent_name(seat) for seat in range(game.num_players)]
        self.agents: list[str] = []
        # each agent its own space objects, so that seeding one agent's space leaves the others'
        self.observation_spaces = {a: self.table.observation_space() for a in self.possible_agents}
        self.action_spaces = {a: self.table.action_space() for a in self.possible_agents}
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {"render_modes": list(RENDER_MODES), "name": environment_name(source, game), "render_fps": 1,
                         "is_parallelizable": False}
        self.seeds = GameSeeds()

    @property
    def game(self) -> Game:
        """The game this environment plays."""
        return self.table.game

    @property
    def engine_state(self) -> State:
        """The engine's state of the game in progress (``state()`` is PettingZoo's global
        state, which these environments do not offer)."""
        return self.table.state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space (the same object at every call)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may see and may do now (new arrays at each call)."""
        return self.table.observe(self._seat(agent))

    def _seat(self, agent: str) -> int:
        """The seat of ``agent``; IllegalActionError for a name that is not one of ``possible_agents``."""
        if agent not in self.possible_agents:
            raise IllegalActionError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return seat_of(agent)

    def _start(self, seed: int | None) -> None:
        self.table.start(self.seeds.next(seed))
        self.agents = self.possible_agents[:]

    def close(self) -> None:
        """Nothing to release."""


class RulesetAECEnv(_Environment, AECEnv):  # type: ignore[misc]  # PettingZoo has no type information
    """A game as a PettingZoo AEC environment: ``agent_selection`` is the seat to act; in a
    simultaneous choice, each seat still to choose in turn (seat order), none seeing what the
    others chose. Rewards are 0 until the game ends, then each seat's final score
    (``State.returns``); every agent is then terminated. After ``max_decisions`` decisions
    (default: the ruleset's bound) every agent is truncated, with reward 0. An action that is
    not legal raises IllegalActionError and changes nothing."""

    def __init__(self, game: GameSource, players: int | None = None, *, max_number: int | None = None,
                 max_decisions: int | None = None, render_mode: str | None = None):
        super().__init__()
        self._set_up(game, players, max_number, max_decisions, render_mode)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, from ``seed`` if given (the same seed, the same game), else from the
        next seed of the environment's generator."""
        self._start(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._settle(self.agents[0])

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection`` (None once that agent is terminated or
        truncated, which removes it); then select the next agent."""
        if not self.agents:
            raise IllegalActionError("no agent is to act: call reset() to start a game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.play(seat_of(agent), action, agent)
        self._cumulative_rewards[agent] = 0.0
        self._settle(agent)

    def _settle(self, last: str) -> None:
        """Rewards, terminations and truncations after an action of ``last`` (or a reset),
        and the next agent: the first seat to act, or, once the episode is over, ``last``."""
        table = self.table
        for agent, reward in zip(self.possible_agents, table.rewards(), strict=True):
            if agent in self.rewards:
                self.rewards[agent] = reward
                self.terminations[agent] = table.terminated
                self.truncations[agent] = table.truncated
        self._accumulate_rewards()
        players = table.to_act()
        self.agent_selection = agent_name(players[0]) if players else last

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The view of ``agent_selection``'s seat: text ("ansi"), a picture ("rgb_array"), or
        printed ("human")."""
        return rendered(self.table, seat_of(self.agent_selection), self.render_mode)


class RulesetParallelEnv(_Environment, ParallelEnv):  # type: ignore[misc]  # PettingZoo has no type information
    """A game as a PettingZoo parallel environment: a step is one decision of the game. Where
    several seats choose at once (a simultaneous choice) each of them gives its action in the
    same step; elsewhere only the one seat to act does. ``infos[agent]["to_act"]`` says which
    agents are to act in the next step; the others have an action mask of 0s, and whatever
    action they are given is ignored (they may be left out of the actions). Rewards,
    terminations and truncations are those of ``RulesetAECEnv``; once the episode is over,
    ``agents`` is empty. An action of an agent to act that is missing or not legal raises
    IllegalActionError and changes nothing."""

    def __init__(self, game: GameSource, players: int | None = None, *, max_number: int | None = None,
                 max_decisions: int | None = None, render_mode: str | None = None):
        self._set_up(game, players, max_number, max_decisions, render_mode)
        self.state_space = self.table.tensor_space()

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Observation], Agents]:
        """A new game, as ``RulesetAECEnv.reset``; each agent's observation and info."""
        self._start(seed)
        return self._observations(), self._infos()

    def step(self, actions: Agents) -> tuple[dict[str, Observation], Agents, Agents, Agents, Agents]:
        """Apply the action of every agent to act (checked all first, then applied in seat
        order); observations, rewards, terminations, truncations and infos of every agent."""
        if not self.agents:
            raise IllegalActionError("no game in progress (none started, or the episode is over): call reset()")
        chosen = self._chosen_actions(actions)
        for seat, action in chosen:
            self.table.play(seat, action, agent_name(seat))
        results = (self._observations(), self._by_agent(self.table.rewards()),
                   self._by_agent([self.table.terminated] * len(self.agents)),
                   self._by_agent([self.table.truncated] * len(self.agents)), self._infos())
        if self.table.over:
            self.agents = []
        return results

    def _chosen_actions(self, actions: Agents) -> list[tuple[int, int]]:
        """(seat, action id) of every seat to act, in seat order; IllegalActionError, before
        any is applied, if one is missing or not legal."""
        chosen = []
        for seat in sorted(self.table.to_act()):
            agent = agent_name(seat)
            if agent not in actions:
                raise IllegalActionError(f"{agent} is to act: give its action")
            chosen.append((seat, self.table.checked(seat, actions[agent], agent)))
        return chosen

    def _observations(self) -> dict[str, Observation]:
        return {agent: self.observe(agent) for agent in self.agents}

    def _infos(self) -> Agents:
        to_act = set(self.table.to_act())
        return {agent: {"to_act": seat_of(agent) in to_act} for agent in self.agents}

    def _by_agent(self, values: list[Any]) -> Agents:
        return dict(zip(self.agents, values, strict=True))

    def state(self) -> npt.NDArray[np.float32]:
        """The global state of centralised training: the public view (what every seat may see,
        ``observation(CHANCE)``) as an observation tensor, within ``state_space``."""
        return self.table.tensor(CHANCE)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The public view (what every seat may see) as text ("ansi"), a picture ("rgb_array"),
        or printed ("human")."""
        return rendered(self.table, CHANCE, self.render_mode)


def aec_env(game: GameSource, players: int | None = None, *, max_number: int | None = None,
            max_decisions: int | None = None, render_mode: str | None = None) -> RulesetAECEnv:
    """The AEC environment of a game, or of the ruleset at a path (or in a text) for
    ``players`` players (None: the ruleset's default)."""
    return RulesetAECEnv(game, players, max_number=max_number, max_decisions=max_decisions,
                         render_mode=render_mode)


def parallel_env(game: GameSource, players: int | None = None, *, max_number: int | None = None,
                 max_decisions: int | None = None, render_mode: str | None = None) -> RulesetParallelEnv:
    """The parallel environment of a game, or of a ruleset as for ``aec_env``."""
    return RulesetParallelEnv(game, players, max_number=max_number, max_decisions=max_decisions,
                              render_mode=render_mode)
