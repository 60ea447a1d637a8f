"""Simulation: many games between random agents, summarised per seat.

``simulate`` is deterministic for a seed: game ``i`` starts from a seed derived from
``(seed, i)`` and each seat's agent from ``(seed, i, seat)``. Games that hit the bound on
decisions, or stop on a runtime error, are counted as unfinished, never raised. A game that
stops on an error is also counted as failed, and each distinct error (code, message,
location) is kept once with the number of games that hit it (at most
``MAX_DISTINCT_ERRORS``; the rest are counted together).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, RulelangError, RulesRuntimeError

from .agents import RandomAgent, derive_seed
from .state import State
from .values import CHANCE

if TYPE_CHECKING:
    from .game import Game

DEFAULT_MAX_DECISIONS = 10_000
MAX_DISTINCT_ERRORS = 20
OTHER_ERRORS = "other"   # the key that counts games whose error was not kept


@dataclass
class ErrorSummary:
    """One distinct error that stopped games: its diagnostic and how many games hit it."""

    diagnostic: Diagnostic
    games: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: code, message, ``path:line:col`` (empty if unknown) and games."""
        d = self.diagnostic
        return {"code": d.code, "message": d.message, "location": str(d.span) if d.span else "",
                "games": self.games}


@dataclass
class SimulationReport:
    """Totals of a simulation; ``to_dict`` keeps timing apart from the deterministic part.

    A win shared by several players counts for each of them; ``shared`` counts such games.
    ``unfinished`` counts every game that did not end: cut by ``max_decisions`` (not a
    failure) or stopped by an error; ``failed`` counts the latter, and ``distinct_errors``
    keeps each distinct error once with the number of games it stopped.
    """

    players: int
    seed: int
    games: int = 0
    finished: int = 0
    unfinished: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    failed: int = 0
    distinct_errors: dict[tuple[str, str, str], ErrorSummary] = field(default_factory=dict)
    other_errors: int = 0
    shared: int = 0
    total_decisions: int = 0
    wins: list[int] = field(default_factory=list)
    total_score: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.total_score = self.total_score or [0.0] * self.players

    @property
    def mean_decisions(self) -> float:
        """Mean number of decisions in a finished game."""
        return self.total_decisions / self.finished if self.finished else 0.0

    @property
    def mean_score(self) -> list[float]:
        """Each seat's mean score over finished games."""
        return [s / self.finished if self.finished else 0.0 for s in self.total_score]

    @property
    def games_per_second(self) -> float:
        """Games simulated per second of wall-clock time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready results; everything but the "timing" entry is the same for a seed."""
        return {"games": self.games, "players": self.players, "seed": self.seed, "finished": self.finished,
                "unfinished": self.unfinished, "failed": self.failed,
                "errors": dict(sorted(self.errors.items())),
                "error_details": [e.to_dict() for e in self.distinct_errors.values()]
                + ([{"code": OTHER_ERRORS, "message": "other distinct errors", "location": "",
                     "games": self.other_errors}] if self.other_errors else []),
                "mean_decisions": round(self.mean_decisions, 6), "wins": list(self.wins),
                "shared_wins": self.shared,
                "mean_score": [round(s, 6) for s in self.mean_score],
                "timing": {"seconds": round(self.seconds, 6), "games_per_second": round(self.games_per_second, 3)}}


@dataclass
class GameResult:
    """How one simulated game went."""

    finished: bool
    decisions: int
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    error: str = ""
    diagnostic: Diagnostic | None = None   # the error that stopped the game, if one did


def play_one(game: Game, seed: int, agents: Sequence[RandomAgent], max_decisions: int) -> GameResult:
    """One game from ``seed`` with one agent per seat (chance is sampled by the state)."""
    decisions = 0
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            decisions = state.decisions
            if decisions >= max_decisions:
                return GameResult(False, decisions, error="max_decisions")
            _step(state, agents)
        return GameResult(True, state.decisions, state.returns(), state.winners())
    except RulelangError as error:  # the rules failed, or (a bug) the engine did
        return _failed(decisions, error.diagnostic)
    except ValueError as error:  # an agent found no legal action
        return _failed(decisions, Diagnostic("E602", str(error)))
    except Exception as error:  # a bug in rulelang: reported as such, never raised
        message = f"rulelang failed while simulating: {type(error).__name__}: {error}"
        return _failed(decisions, Diagnostic("E900", message, hint=BUG_HINT))


def _failed(decisions: int, diagnostic: Diagnostic) -> GameResult:
    return GameResult(False, decisions, error=diagnostic.code, diagnostic=diagnostic)


def _step(state: State, agents: Sequence[RandomAgent]) -> None:
    """Apply one action: the first player to act picks (a simultaneous choice takes one
    step per player); a chance node that is exposed anyway is sampled by the first agent."""
    players = state.current_players()
    if not players:
        raise RulesRuntimeError(Diagnostic("E602", "the game is not over but nobody is to act"))
    player = players[0]
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        action = agents[0].rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = agents[player].choose(state, player)
    state.apply_action(action, player=player)


def simulate(game: Game, games: int, seed: int = 0,
             on_progress: Callable[[int, int], None] | None = None) -> SimulationReport:
    """Play ``games`` games of ``game`` between random agents and summarise them.

    ``on_progress(done, total)`` is called after each game when given.
    """
    report = SimulationReport(players=game.num_players, seed=seed)
    bound = int(game.max_decisions or DEFAULT_MAX_DECISIONS)
    started = time.perf_counter()
    for i in range(games):
        agents = [RandomAgent(derive_seed(seed, i, seat)) for seat in range(game.num_players)]
        _record(report, play_one(game, derive_seed(seed, i), agents, bound))
        if on_progress is not None:
            on_progress(i + 1, games)
    report.seconds = time.perf_counter() - started
    return report


def _record(report: SimulationReport, result: GameResult) -> None:
    report.games += 1
    if not result.finished:
        report.unfinished += 1
        report.errors[result.error] = report.errors.get(result.error, 0) + 1
        if result.diagnostic is not None:
            _record_error(report, result.diagnostic)
        return
    report.finished += 1
    report.total_decisions += result.decisions
    report.shared += len(result.winners) > 1
    for seat in result.winners:
        report.wins[seat] += 1
    for seat, score in enumerate(result.returns):
        report.total_score[seat] += score


def _record_error(report: SimulationReport, diagnostic: Diagnostic) -> None:
    report.failed += 1
    key = (diagnostic.code, diagnostic.message, str(diagnostic.span) if diagnostic.span else "")
    summary = report.distinct_errors.get(key)
    if summary is None and len(report.distinct_errors) >= MAX_DISTINCT_ERRORS:
        report.other_errors += 1
        return
    if summary is None:
        summary = report.distinct_errors[key] = ErrorSummary(diagnostic)
    summary.games += 1
