"""Line-ups of agents as data: ``AgentSpec`` (one seat's agent: its kind and settings, plain
values that pickle, so other processes can build the agent with ``AgentSpec.build``) and
``parse_agents``, which reads a line-up written as text (``mcts:400,random,greedy``: one spec
per seat, or one for every seat). docs/agents.md lists the kinds and their settings."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .base import Agent, AgentSpecError
from .mcts import DEFAULT_EXPLORATION, Budget, MctsAgent
from .simple import GreedyAgent, RandomAgent, heuristic_function, score_of

if TYPE_CHECKING:
    from ..game import Game


@dataclass(frozen=True)
class AgentSpec:
    """One seat's agent as data: its kind and its settings (plain values, picklable).

    ``heuristic``: greedy's function of the ruleset (None: the score). ``iterations`` or
    ``seconds``: MCTS's budget per decision; ``exploration``: UCT's constant; ``depth``: the
    decisions a rollout plays at most (None: to the end); ``rave``: the weight of the
    all-moves-as-first values (0: none); ``decisive``: 1 for decisive moves in rollouts, 2
    for decisive and anti-decisive moves (0: plain random rollouts)."""

    kind: str = "random"
    heuristic: str | None = None
    iterations: int | None = None
    seconds: float | None = None
    exploration: float = DEFAULT_EXPLORATION
    depth: int | None = None
    rave: float = 0.0
    decisive: int = 0

    def check(self, game: Game) -> None:
        """AgentSpecError if this spec cannot play ``game`` (greedy's function missing or of
        the wrong shape)."""
        if self.kind == "greedy" and self.heuristic is not None:
            heuristic_function(game, self.heuristic)

    def build(self, game: Game, seed: int) -> Agent:
        """A new agent of this kind for ``game``, seeded with ``seed``; AgentSpecError if the
        spec does not fit the game."""
        if self.kind == "greedy":
            evaluation = score_of if self.heuristic is None else heuristic_function(game, self.heuristic)
            return GreedyAgent(seed, evaluation)
        if self.kind == "mcts":
            return MctsAgent(seed, Budget(self.iterations, self.seconds), self.exploration, self.depth, self.rave,
                             self.decisive)
        if self.kind == "random":
            return RandomAgent(seed)
        raise AgentSpecError(f"unknown agent kind {self.kind!r}: the kinds are {', '.join(AGENT_KINDS)}")

    def __str__(self) -> str:
        if self.kind == "greedy":
            return "greedy" if self.heuristic is None else f"greedy:{self.heuristic}"
        if self.kind != "mcts":
            return self.kind
        text = f"mcts:{self.seconds:g}s" if self.seconds is not None else f"mcts:{self.iterations}"
        if self.exploration != DEFAULT_EXPLORATION:
            text += f":c={self.exploration:g}"
        if self.depth is not None:
            text += f":depth={self.depth}"
        if self.rave:
            text += f":rave={self.rave:g}"
        return text if not self.decisive else text + f":decisive={self.decisive}"


AGENT_KINDS = ("random", "greedy", "mcts")
SPEC_SYNTAX = ("random, greedy, greedy:FUNCTION, mcts:ITERATIONS or mcts:SECONDSs (options :c=X, :depth=N, "
               ":rave=K, :decisive=L)")


def parse_agents(text: str, players: int) -> tuple[AgentSpec, ...]:
    """One spec per seat from ``text``: a single spec for every seat, or one per seat."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (1, players):
        raise AgentSpecError(f"{len(parts)} agents given for {players} seats: give one for every seat, "
                             "or one per seat")
    specs = tuple(_parse_one(part) for part in parts)
    return specs * players if len(specs) == 1 else specs


def _parse_one(text: str) -> AgentSpec:
    kind, colon, rest = text.partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(f"unknown agent {text!r}: the kinds are {', '.join(AGENT_KINDS)} ({SPEC_SYNTAX})")
    if colon and not rest:
        raise AgentSpecError(f"agent {text!r}: nothing after ':' ({SPEC_SYNTAX})")
    if kind == "random":
        if rest:
            raise AgentSpecError(f"agent {text!r}: random takes no settings")
        return AgentSpec("random")
    if kind == "greedy":
        return _parse_greedy(text, rest)
    return _parse_mcts(text, rest)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parse_greedy(text: str, rest: str) -> AgentSpec:
    if not rest:
        return AgentSpec("greedy")
    if not _IDENTIFIER.fullmatch(rest):
        raise AgentSpecError(f"agent {text!r}: greedy:FUNCTION names a function of the ruleset, "
                             f"{rest!r} is not a name")
    return AgentSpec("greedy", heuristic=rest)


def _parse_mcts(text: str, rest: str) -> AgentSpec:
    if not rest:
        raise AgentSpecError(f"agent {text!r}: give mcts a budget per decision, "
                             "iterations (mcts:200) or seconds (mcts:0.5s)")
    budget, *options = rest.split(":")
    iterations, seconds = _parse_budget(text, budget)
    settings: dict[str, float] = {}
    for option in options:
        name, value = _parse_option(text, option)
        if name in settings:
            raise AgentSpecError(f"agent {text!r}: {name} is given twice")
        settings[name] = value
    depth = settings.get("depth")
    return AgentSpec("mcts", iterations=iterations, seconds=seconds,
                     exploration=settings.get("c", DEFAULT_EXPLORATION),
                     depth=None if depth is None else int(depth), rave=settings.get("rave", 0.0),
                     decisive=int(settings.get("decisive", 0)))


def _parse_budget(text: str, budget: str) -> tuple[int | None, float | None]:
    """(iterations, seconds) from ``200`` or ``0.5s``."""
    if budget.endswith("s"):
        seconds = _positive_float(budget[:-1])
        if seconds is None:
            raise AgentSpecError(f"agent {text!r}: {budget!r} is not a time budget; write seconds above 0, "
                                 "as in mcts:0.5s")
        return None, seconds
    if not _whole_number(budget) or int(budget) < 1:
        raise AgentSpecError(f"agent {text!r}: {budget!r} is not a budget; write iterations (a whole number "
                             "above 0, as in mcts:200) or seconds (mcts:0.5s)")
    return int(budget), None


def _parse_option(text: str, option: str) -> tuple[str, float]:
    """("c", X), ("depth", N), ("rave", K) or ("decisive", L) from ``c=X``, ``depth=N``,
    ``rave=K`` or ``decisive=L``."""
    name, equals, value = option.partition("=")
    if not equals or name not in ("c", "depth", "rave", "decisive"):
        raise AgentSpecError(f"agent {text!r}: unknown option {option!r}; the options are c=X "
                             "(exploration, 0 or more), depth=N (decisions per rollout, 1 or more), "
                             "rave=K (weight of all-moves-as-first values, 0 or more) and decisive=L "
                             "(0, 1: decisive moves in rollouts, 2: and anti-decisive moves)")
    if name == "decisive":
        if value not in ("0", "1", "2"):
            raise AgentSpecError(f"agent {text!r}: decisive must be 0, 1 or 2, not {value!r}")
        return name, int(value)
    if name == "depth":
        if not _whole_number(value) or int(value) < 1:
            raise AgentSpecError(f"agent {text!r}: depth must be a whole number above 0, not {value!r}")
        return name, int(value)
    number = _positive_float(value, zero=True)
    if number is None:
        raise AgentSpecError(f"agent {text!r}: {name} must be a number, 0 or more, not {value!r}")
    return name, number


def _whole_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits that ``int`` reads (not ``²``, not
    thousands of digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _positive_float(text: str, zero: bool = False) -> float | None:
    """The finite number ``text`` writes if above 0 (or 0 itself, with ``zero``), else None."""
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number) or number < 0 or (number == 0 and not zero) or "_" in text:
        return None
    return number
