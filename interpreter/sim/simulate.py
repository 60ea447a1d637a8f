"""Simulation: many games between agents chosen per seat, summarised per seat with statistics.

``simulate`` is deterministic for a seed: game ``i`` starts from a seed derived from
``(seed, i)``, each seat's agent from ``(seed, i, seat)`` and the sampler of any chance node
the state exposes from ``(seed, i, CHANCE)`` (``play.play_game``, which plays every game of
a run). Every game depends on its number only, so a run split among processes (``jobs``) or
the machines of a Dask cluster (``scheduler``, see ``parallel``) gives the same report as a
run in one process. Games that hit the bound on decisions, or stop on a runtime error, are
counted as unfinished, never raised. A game that stops on an error is also counted as
failed, and each distinct error (code, message, location) is kept once with the number of
games that hit it (at most ``MAX_DISTINCT_ERRORS``; the rest are counted together).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.diagnostics import Diagnostic

from ..agents import AgentSpec
from . import statistics as st
from .fairness import first_player_test, num, seat_balance_test
from .parallel import play_in_parallel, worker_name
from .play import GameResult, OnProgress, bound_of, play_game

if TYPE_CHECKING:
    from ..game import Game

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
    """Totals and per-game records of a simulation; ``to_dict`` keeps timing apart from the
    deterministic part.

    A finished game is, for each seat, exactly one of: a sole win (``sole_wins``: the seat
    alone in ``winners()``), a shared win (``shared_wins``: with some but not all of the other
    seats), a draw (``draws``: every seat tied, or nobody won) or a loss. ``shared`` counts the
    games won by several seats but not all of them. ``wins`` counts, per seat, every game it is
    among the winners (alone, shared, or all tied in a draw).
    ``unfinished`` counts every game that did not end: cut by ``max_decisions`` (not a
    failure) or stopped by an error; ``failed`` counts the latter, and ``distinct_errors``
    keeps each distinct error once with the number of games it stopped. ``lengths`` (decisions)
    and ``scores`` (one list per seat) hold one entry per finished game, in the games' order.
    """

    players: int
    seed: int
    agents: list[str] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    unfinished: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    failed: int = 0
    distinct_errors: dict[tuple[str, str, str], ErrorSummary] = field(default_factory=dict)
    other_errors: int = 0
    shared: int = 0
    draws: int = 0
    total_decisions: int = 0
    wins: list[int] = field(default_factory=list)
    sole_wins: list[int] = field(default_factory=list)
    shared_wins: list[int] = field(default_factory=list)
    total_score: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    scores: list[list[float]] = field(default_factory=list)
    seconds: float = 0.0
    workers: str = "1 process"   # how the games were run: timing, not results
    games_by_worker: dict[str, int] = field(default_factory=dict)   # which workers played how many games
    wall_seconds: float = 0.0    # from the start the caller gave (a command's start-up, loading...) to the end

    def __post_init__(self) -> None:
        self.agents = self.agents or ["random"] * self.players
        self.wins = self.wins or [0] * self.players
        self.sole_wins = self.sole_wins or [0] * self.players
        self.shared_wins = self.shared_wins or [0] * self.players
        self.total_score = self.total_score or [0.0] * self.players
        self.scores = self.scores or [[] for _ in range(self.players)]

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

    @property
    def decided(self) -> int:
        """Finished games with exactly one winner."""
        return sum(self.sole_wins)

    def win_interval(self, seat: int) -> tuple[float, float]:
        """The 95% Wilson interval of ``seat``'s win rate (wins, shared ones and draws too, per finished game)."""
        return st.wilson_interval(self.wins[seat], self.finished)

    def sole_win_interval(self, seat: int) -> tuple[float, float]:
        """The 95% Wilson interval of ``seat``'s sole win rate (games it won alone, per finished game)."""
        return st.wilson_interval(self.sole_wins[seat], self.finished)

    def first_player(self) -> dict[str, Any] | None:
        """The first seat's share of the games won by one player against the share that equal
        seats give, with its test (``fairness.first_player_test``); None when the seats do not
        all have the same agent."""
        return first_player_test(self.sole_wins, self.agents)

    def seat_balance(self) -> dict[str, Any] | None:
        """The chi-square test of the sole wins of the seats that have the same agent
        (``fairness.seat_balance_test``); None when no two seats have the same agent."""
        return seat_balance_test(self.sole_wins, self.agents)

    def seat_rows(self) -> list[dict[str, Any]]:
        """One row per seat: its agent; its sole wins, shared wins (with some but not all of the
        other seats), draws and losses, each with its rate per finished game; the sole win rate's
        95% interval; every game among ``winners()`` (``wins``: alone, shared or all tied) with
        its interval; the distribution of its scores."""
        return [self._seat_row(seat) for seat in range(self.players)]

    def _seat_row(self, seat: int) -> dict[str, Any]:
        sole, shared, draws = self.sole_wins[seat], self.shared_wins[seat], self.draws
        losses = self.finished - sole - shared - draws
        return {"seat": seat + 1, "agent": self.agents[seat],
                "sole_wins": sole, "sole_win_rate": self._rate(sole),
                "sole_win_interval": [num(x) for x in self.sole_win_interval(seat)],
                "shared_wins": shared, "shared_win_rate": self._rate(shared),
                "draws": draws, "draw_rate": self._rate(draws), "losses": losses, "loss_rate": self._rate(losses),
                "wins": self.wins[seat], "win_rate": self._rate(self.wins[seat]),
                "win_interval": [num(x) for x in self.win_interval(seat)], "score": _described(self.scores[seat])}

    def _rate(self, count: int) -> float:
        """``count`` per finished game, to 6 significant digits (0 when no game finished)."""
        return num(count / self.finished if self.finished else 0.0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready results; everything but the "timing" entry is the same for a seed, whatever
        the number of processes or machines that played the games."""
        return {"games": self.games, "players": self.players, "seed": self.seed, "agents": list(self.agents),
                "finished": self.finished, "unfinished": self.unfinished, "failed": self.failed,
                "errors": dict(sorted(self.errors.items())),
                "error_details": [e.to_dict() for e in self.distinct_errors.values()]
                + ([{"code": OTHER_ERRORS, "message": "other distinct errors", "location": "",
                     "games": self.other_errors}] if self.other_errors else []),
                "mean_decisions": round(self.mean_decisions, 6), "wins": list(self.wins),
                "shared_wins": self.shared, "draws": self.draws,
                "mean_score": [round(s, 6) for s in self.mean_score],
                "seats": self.seat_rows(), "first_player": self.first_player(),
                "seat_balance": self.seat_balance(), "length": _described(self.lengths),
                "timing": {"seconds": round(self.seconds, 6), "games_per_second": round(self.games_per_second, 3),
                           "wall_seconds": round(self.wall_seconds, 6), "workers": self.workers,
                           "games_by_worker": dict(sorted(self.games_by_worker.items()))}}


def _described(values: Sequence[float]) -> dict[str, float]:
    """count (a whole number), mean, sd, min, quantiles and max, to 6 significant digits."""
    return {k: len(values) if k == "count" else num(v) for k, v in st.describe(values).items()}


def simulate(game: Game, games: int, seed: int = 0, on_progress: OnProgress | None = None, *,
             agents: Sequence[AgentSpec] | None = None, jobs: int = 1,
             scheduler: str | None = None, started: float | None = None) -> SimulationReport:
    """Play ``games`` games of ``game`` and summarise them; the report is the same whatever
    ``jobs`` and ``scheduler``.

    ``agents`` gives one spec per seat (default: random everywhere). ``jobs`` > 1 plays in
    that many local processes; ``scheduler`` (a Dask scheduler's address, e.g.
    ``tcp://host:8786``) plays on a Dask cluster instead (``extras.MissingExtraError``
    without Dask; ``parallel.ParallelError`` if the cluster cannot be used).
    ``on_progress(done, total)`` is called as games finish. The report's ``seconds`` time the
    run from this call; its ``wall_seconds`` from ``started`` (a ``time.perf_counter()`` of the
    caller's, such as a command's start, so that loading and start-up count), or this call.
    ``games_by_worker`` says which worker played how many games (``parallel.worker_name``).
    """
    specs = tuple(agents) if agents is not None else (AgentSpec(),) * game.num_players
    if len(specs) != game.num_players:
        raise ValueError(f"{len(specs)} agents for {game.num_players} seats")
    report = SimulationReport(players=game.num_players, seed=seed, agents=[str(a) for a in specs])
    called = time.perf_counter()
    if jobs <= 1 and scheduler is None:
        _play_here(report, game, specs, games, on_progress)
        report.games_by_worker = {worker_name(): games} if games else {}
    else:
        played = play_in_parallel(game, specs, seed, games, jobs, scheduler,
                                  lambda result: record(report, result), on_progress)
        report.workers, report.games_by_worker = played.workers, played.games_by_worker
    ended = time.perf_counter()
    report.seconds, report.wall_seconds = ended - called, ended - (called if started is None else started)
    return report


def _play_here(report: SimulationReport, game: Game, agents: Sequence[AgentSpec], games: int,
               on_progress: OnProgress | None) -> None:
    """Play the games one after the other in this process, recording each in ``report``."""
    bound = bound_of(game)
    for i in range(games):
        record(report, play_game(game, agents, report.seed, i, bound))
        if on_progress is not None:
            on_progress(i + 1, games)


def record(report: SimulationReport, result: GameResult) -> None:
    """Count one game's result into ``report`` (games must be recorded in their order)."""
    report.games += 1
    if not result.finished:
        report.unfinished += 1
        report.errors[result.error] = report.errors.get(result.error, 0) + 1
        if result.diagnostic is not None:
            _record_error(report, result.diagnostic)
        return
    report.finished += 1
    report.total_decisions += result.decisions
    report.lengths.append(result.decisions)
    draw = not result.winners or len(result.winners) == report.players
    report.draws += draw
    if len(result.winners) == 1:
        report.sole_wins[result.winners[0]] += 1
    elif not draw:
        report.shared += 1
        for seat in result.winners:
            report.shared_wins[seat] += 1
    for seat in result.winners:
        report.wins[seat] += 1
    for seat, score in enumerate(result.returns):
        report.total_score[seat] += score
        report.scores[seat].append(score)


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


# ---------------------------------------------------------------- comparing two runs

@dataclass(frozen=True)
class Comparison:
    """One measure of two runs: its value in each and the difference (second minus first)."""

    measure: str
    a: float
    b: float
    difference: st.Difference

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, numbers to 6 significant digits (None where the data give none)."""
        d = self.difference
        maybe = [None if x is None else num(x) for x in (d.low, d.high, d.p_value)]
        return {"measure": self.measure, "a": num(self.a), "b": num(self.b),
                "difference": num(d.estimate), "interval": maybe[:2], "p_value": maybe[2], "test": d.test}


def compare_reports(a: SimulationReport, b: SimulationReport) -> list[Comparison]:
    """Each seat's sole win rate (two-proportion z-test) and mean score (Welch's t), the mean
    length and the draw rate, of run ``b`` against run ``a`` (which must seat as many players)."""
    if a.players != b.players:
        raise ValueError(f"the runs seat {a.players} and {b.players} players")
    seats = range(a.players)
    rows = [_proportion(f"seat {s + 1} sole win rate", a.sole_wins[s], a.finished, b.sole_wins[s], b.finished)
            for s in seats]
    rows += [_means(f"seat {s + 1} mean score", a.scores[s], b.scores[s]) for s in seats]
    rows.append(_means("mean length (decisions)", [float(x) for x in a.lengths], [float(x) for x in b.lengths]))
    rows.append(_proportion("draw rate", a.draws, a.finished, b.draws, b.finished))
    return rows


def _proportion(measure: str, ka: int, na: int, kb: int, nb: int) -> Comparison:
    return Comparison(measure, ka / na if na else 0.0, kb / nb if nb else 0.0, st.proportion_difference(ka, na, kb, nb))


def _means(measure: str, a: Sequence[float], b: Sequence[float]) -> Comparison:
    return Comparison(measure, st.mean(a), st.mean(b), st.mean_difference(a, b))
