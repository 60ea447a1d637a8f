"""The commands that play many games: ``simulate`` (one ruleset: wins per seat, scores,
lengths) and ``compare`` (two rulesets, or two line-ups of agents), with their shared
options, a progress bar on a terminal, and the plots, tables, JSON and CSV they print."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import click

from rulelang.commands.common import COMMAND_STARTED, ROOT_HELP, SEED_LIMIT, is_terminal, load_game
from rulelang.report import counted

if TYPE_CHECKING:
    from rich.console import Console

    from rulelang.interpreter import Game
    from rulelang.interpreter.agents import AgentSpec
    from rulelang.interpreter.sim.simulate import SimulationReport

PROGRESS_THRESHOLD = 100
PROGRESS_PERCENT = 10   # without a terminal, a line on stderr each time this share more of the games is done
T = TypeVar("T")
OnProgress: TypeAlias = Callable[[int, int], None]   # (games done, games in all)


def _run_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options that simulate and compare share: how many games, seats, seed, workers."""
    options = [
        click.option("--games", "-n", type=click.IntRange(min=0), default=100, show_default=True),
        click.option("--players", "-p", type=click.IntRange(min=1), default=None,
                     help="Default: the fewest allowed."),
        click.option("--seed", "-s", type=click.IntRange(-SEED_LIMIT, SEED_LIMIT), default=0, show_default=True),
        click.option("--agents", "-a", default="random", show_default=True, metavar="SPECS",
                     help="One agent for every seat, or one per seat separated by commas (random,random)."),
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                     help="Local processes that play the games. Default: every core. Results do not depend on it."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Play on the Dask cluster of this scheduler (tcp://host:8786) instead; "
                          "needs rulelang[dist]. See docs/scaling.md."),
        click.option("--plot", "plot", type=click.Path(dir_okay=False, writable=True), default=None,
                     metavar="FILE.png", help="Also draw the results to this PNG file (needs rulelang[plot])."),
        click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _lineup(text: str, games: Sequence[Game], option: str) -> tuple[AgentSpec, ...]:
    """The agents of ``text``, one per seat, each able to play every one of ``games`` (a
    greedy agent's function declared...), or a usage error naming ``option``."""
    from rulelang.interpreter.agents import AgentSpecError, parse_agents
    try:
        specs = parse_agents(text, games[0].num_players)
        for spec in specs:
            for game in games:
                spec.check(game)
    except AgentSpecError as error:
        raise click.BadParameter(error.diagnostic.message, param_hint=option) from None
    return specs


def _check_plotting(plot: str | None) -> None:
    """Fail before any game is played when a plot is asked for and matplotlib is missing, or
    its folder does not exist."""
    if plot is None:
        return
    from rulelang.interpreter.sim.extras import MissingExtraError
    from rulelang.interpreter.sim.plots import require_matplotlib
    try:
        require_matplotlib()
    except MissingExtraError as error:
        raise click.ClickException(error.diagnostic.message) from None
    folder = Path(plot).parent
    if not folder.is_dir():
        raise click.ClickException(f"cannot write the plot to {plot}: there is no folder {folder}")


def _simulate_run(game: Game, games: int, seed: int, agents: Sequence[AgentSpec], jobs: int | None,
                  scheduler: str | None, label: str = "simulating") -> SimulationReport:
    """A simulation with a progress bar on a terminal; clean errors for a missing Dask or an
    unusable cluster, and for Ctrl-C (exit 130)."""
    from rulelang.interpreter.sim.extras import MissingExtraError
    from rulelang.interpreter.sim.parallel import ParallelError
    from rulelang.interpreter.sim.simulate import simulate as run
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    try:
        return _with_progress(lambda progress: run(game, games, seed=seed, on_progress=progress, agents=agents,
                                                   jobs=workers, scheduler=scheduler, started=COMMAND_STARTED),
                              games, label)
    except (MissingExtraError, ParallelError) as error:
        raise click.ClickException(error.diagnostic.message) from None
    except KeyboardInterrupt:
        click.echo("interrupted: no report", err=True)
        sys.exit(130)


def _save_plot(draw: Callable[[str], None], plot: str) -> None:
    """Draw to the file ``plot``; a clean error if it cannot be written."""
    try:
        draw(plot)
    except OSError as error:
        raise click.ClickException(f"cannot write the plot to {plot}: {error.strerror or error}") from None
    click.echo(f"plot written to {plot}", err=True)


@click.command()
@click.argument("path")
@_run_options
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="csv: one row per seat.")
def simulate(path: str, games: int, players: int | None, seed: int, agents: str, jobs: int | None,
             scheduler: str | None, plot: str | None, fmt: str, root: str | None = None) -> None:
    """Play many games and report wins per seat with 95% intervals, the first player's
    advantage, scores and lengths. Game i is seeded from (seed, i): the results are the same
    whatever --jobs or --scheduler."""
    _check_plotting(plot)
    game = load_game(path, players, root)
    lineup = _lineup(agents, [game], "--agents")
    report = _simulate_run(game, games, seed, lineup, jobs, scheduler)
    if fmt == "json":
        data = {"ruleset": path, "title": game.title, **report.to_dict()}
        click.echo(json.dumps(data, indent=2))
    elif fmt == "csv":
        click.echo(_seats_csv(report), nl=False)
    else:
        _print_report(game, report)
    if plot is not None:
        from rulelang.interpreter.sim.plots import plot_report
        _save_plot(lambda file: plot_report(report, file, game.title), plot)
    sys.exit(1 if report.failed else 0)


CSV_SCORE = ("mean", "sd", "min", "p25", "median", "p75", "max")
CSV_RESULTS = ("sole_wins", "sole_win_rate", "sole_win_low", "sole_win_high", "shared_wins", "shared_win_rate",
               "draws", "draw_rate", "losses", "loss_rate", "wins", "win_rate", "win_low", "win_high")


def _seats_csv(report: SimulationReport) -> str:
    """One row per seat: its agent; its sole wins, shared wins, draws and losses with their rates
    (the sole win rate's 95% interval); every win with its interval; its scores."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seat", "agent", "games", "finished", *CSV_RESULTS, *(f"score_{k}" for k in CSV_SCORE)])
    for row in report.seat_rows():
        writer.writerow([row["seat"], row["agent"], report.games, report.finished, row["sole_wins"],
                         row["sole_win_rate"], *row["sole_win_interval"], row["shared_wins"], row["shared_win_rate"],
                         row["draws"], row["draw_rate"], row["losses"], row["loss_rate"], row["wins"], row["win_rate"],
                         *row["win_interval"], *(row["score"][k] for k in CSV_SCORE)])
    return out.getvalue()


class ProgressLines:
    """Progress without a terminal (a log, a batch job on a cluster): a line on stderr each
    time another ``PROGRESS_PERCENT`` % of the games is done, with the time since the start,
    ``simulating: 300/1000 games (30%), 12.4 s``."""

    def __init__(self, label: str, total: int, percent: int = PROGRESS_PERCENT):
        self.label, self.total = label, total
        self.step = max(1, -(-total * percent // 100))
        self.next = self.step
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if done < self.next and done < total:
            return
        while self.next <= done:
            self.next += self.step
        seconds = time.perf_counter() - self.started
        click.echo(f"{self.label}: {done}/{total} games ({100 * done // max(1, total)}%), {seconds:.1f} s", err=True)


def _with_progress(job: Callable[[OnProgress | None], T], total: int, label: str = "simulating") -> T:
    """Run ``job(on_progress)`` with progress on stderr for long runs: a bar and the time left
    on a terminal, else ``ProgressLines``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    console = Console(stderr=True)
    if total < PROGRESS_THRESHOLD:
        return job(None)
    if not console.is_terminal:
        return job(ProgressLines(label, total))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games, left"),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        return job(lambda done, _: progress.update(task, completed=done))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(value: float | None) -> str:
    """A p-value for a table's column: 3 significant digits, "<0.001" below 0.001, "-" if none."""
    return "-" if value is None else f"{value:.3g}" if value >= 0.001 else "<0.001"


def _p_clause(value: float) -> str:
    """A p-value in a sentence: "p = 0.0123", or "p < 0.001"."""
    return f"p = {value:.3g}" if value >= 0.001 else "p < 0.001"


def _count(count: int, rate: float) -> str:
    """A count and its share of the finished games: "595 (59.5%)"."""
    return f"{count} ({_pct(rate)})"


def _lengths(length: Mapping[str, float]) -> str:
    """The finished games' lengths in a line, or that no game finished (then there is none)."""
    if not length["count"]:
        return "no game finished"
    return (f"mean {length['mean']:.2f} decisions (sd {length['sd']:.2f}; min {length['min']:g}, "
            f"median {length['median']:g}, p90 {length['p90']:g}, max {length['max']:g})")


def _print_report(game: Game, report: SimulationReport) -> None:
    from rich.console import Console
    from rich.table import Table
    wide = None if is_terminal("stdout") else 120   # rows of one line in files and pipes
    console = Console(file=sys.stdout, highlight=False, markup=False, width=wide)   # titles are text, not markup
    data = report.to_dict()
    console.print(f"{game.title}: {counted(data['games'], 'game')}, {counted(data['players'], 'player')}, "
                  f"seed {data['seed']}; agents {', '.join(report.agents)}", soft_wrap=True)
    console.print(f"finished {data['finished']}, unfinished {data['unfinished']}"
                  + (f" {data['errors']}" if data["errors"] else ""))
    if report.failed:
        console.print(f"{counted(report.failed, 'game')} stopped on an error:")
    for error in data["error_details"]:
        where = f"{error['location']}: " if error["location"] else ""
        console.print(f"  {where}{error['code']} {error['message']} ({counted(error['games'], 'game')})",
                      soft_wrap=True)
    draws = _count(report.draws, report.draws / report.finished if report.finished else 0.0)
    console.print(f"length: {_lengths(data['length'])}; draws: {draws}; games won by several seats but not all: "
                  f"{data['shared_wins']}", soft_wrap=True)
    table = Table("seat", "agent", "sole wins", "95% interval", "shared wins", "draws", "mean score", "median score")
    for row in data["seats"]:
        low, high = row["sole_win_interval"]
        table.add_row(str(row["seat"]), row["agent"], _count(row["sole_wins"], row["sole_win_rate"]),
                      f"{100 * low:.1f}-{100 * high:.1f}%", _count(row["shared_wins"], row["shared_win_rate"]),
                      _count(row["draws"], row["draw_rate"]),
                      f"{row['score']['mean']:.3f}", f"{row['score']['median']:g}")
    console.print(table)
    _print_seat_tests(console, data["first_player"], data["seat_balance"])
    console.print(f"{report.seconds:.2f} s, {report.games_per_second:.0f} games per second ({report.workers}); "
                  f"{report.wall_seconds:.2f} s with start-up", soft_wrap=True)
    if len(report.games_by_worker) > 1:
        console.print("games by worker: " + "; ".join(f"{worker}: {games}"
                                                      for worker, games in sorted(report.games_by_worker.items())),
                      soft_wrap=True)


def _print_seat_tests(console: Console, first: Mapping[str, Any] | None, balance: Mapping[str, Any] | None) -> None:
    """The first player's test (for a line-up of one agent), and the seat balance of the seats
    that have the same agent; or why each is not made."""
    from rulelang.interpreter.sim.fairness import MIXED_LINEUP, NO_SAME_AGENT
    if first is None:
        console.print(f"first player: not tested, as {MIXED_LINEUP} (give one agent for every seat)", soft_wrap=True)
    elif first["decided_games"]:
        low, high = first["interval"]
        decided = counted(first["decided_games"], "game")
        console.print(f"first player: {_pct(first['share'])} of the {decided} won by one "
                      f"player (95% {_pct(low)}-{_pct(high)}); equal seats give {_pct(first['expected_share'])}: "
                      f"{_p_clause(first['p_value'])} (exact binomial)", soft_wrap=True)
    if balance is None:
        console.print(f"seat balance: not tested, as {NO_SAME_AGENT}", soft_wrap=True)
    elif balance["df"] > 0:
        among = "" if first is not None else " among the seats of the same agent (" + "; ".join(
            ", ".join(str(s) for s in seats) for seats in balance["groups"]) + ")"
        console.print(f"seat balance{among}: chi-square {balance['statistic']:.2f} with {balance['df']} df, "
                      f"{_p_clause(balance['p_value'])}", soft_wrap=True)
    else:
        console.print("seat balance: not tested, as no seat it compares won a game alone")


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="A.rules [B.rules]")
@_run_options
@click.option("--against-agents", "-b", default=None, metavar="SPECS",
              help="The agents of side B (default: the same as --agents). With one ruleset, required: "
                   "compares two line-ups on it.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def compare(rulesets: tuple[str, ...], games: int, players: int | None, seed: int, agents: str, jobs: int | None,
            scheduler: str | None, plot: str | None, against_agents: str | None, fmt: str,
            root: str | None = None) -> None:
    """Compare two variants (A.rules B.rules), or two line-ups of agents on one ruleset
    (A.rules --agents X --against-agents Y), over the same seeds: each seat's win rate and
    mean score, the mean length and the draw rate, B minus A, with 95% intervals and p-values."""
    if len(rulesets) > 2:
        raise click.BadParameter("give one or two rulesets", param_hint="A.rules [B.rules]")
    if len(rulesets) == 1 and against_agents is None:
        raise click.UsageError("give a second ruleset, or --against-agents to compare two line-ups on one")
    _check_plotting(plot)
    paths = (rulesets[0], rulesets[-1])
    game_a = load_game(paths[0], players, root)
    game_b = game_a if len(rulesets) == 1 else load_game(paths[1], players, root)
    if game_a.num_players != game_b.num_players:
        raise click.UsageError(f"{paths[0]} is for {game_a.num_players} players and {paths[1]} for "
                               f"{game_b.num_players} by default: give --players with a count both allow")
    lineups = (_lineup(agents, [game_a], "--agents"),
               _lineup(against_agents or agents, [game_b], "--against-agents"))
    reports = [_simulate_run(g, games, seed, lineup, jobs, scheduler, label)
               for g, lineup, label in zip((game_a, game_b), lineups, ("A", "B"), strict=True)]
    sides = [_side(path, game, report) for path, game, report in zip(paths, (game_a, game_b), reports, strict=True)]
    _print_comparison(sides, reports, fmt)
    if plot is not None:
        from rulelang.interpreter.sim.plots import plot_comparison
        labels = (f"A: {_short(sides[0])}", f"B: {_short(sides[1])}")
        _save_plot(lambda file: plot_comparison(reports[0], reports[1], file, labels), plot)
    sys.exit(1 if any(r.failed for r in reports) else 0)


def _side(path: str, game: Game, report: SimulationReport) -> dict[str, object]:
    return {"ruleset": path, "title": game.title, "agents": list(report.agents)}


def _short(side: Mapping[str, object]) -> str:
    agents = side["agents"]
    names = agents if isinstance(agents, list) else []
    return f"{Path(str(side['ruleset'])).name} ({','.join(str(a) for a in names)})"


def _print_comparison(sides: Sequence[dict[str, object]], reports: Sequence[SimulationReport], fmt: str) -> None:
    from rulelang.interpreter.sim.simulate import compare_reports
    rows = compare_reports(reports[0], reports[1])
    a, b = reports
    if fmt == "json":
        deterministic = [{k: v for k, v in r.to_dict().items() if k != "timing"} for r in reports]
        data = {"games": a.games, "players": a.players, "seed": a.seed,
                "a": {**sides[0], "report": deterministic[0]}, "b": {**sides[1], "report": deterministic[1]},
                "differences": [row.to_dict() for row in rows],
                "timing": {"a": reports[0].to_dict()["timing"], "b": reports[1].to_dict()["timing"]}}
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    wide = None if is_terminal("stdout") else 120   # rows of one line in files and pipes
    console = Console(file=sys.stdout, highlight=False, markup=False, width=wide)
    console.print(f"A: {_short(sides[0])}; B: {_short(sides[1])}", soft_wrap=True)
    console.print(f"{counted(a.games, 'game')} each, {counted(a.players, 'player')}, the same seeds from seed "
                  f"{a.seed}; finished: A {a.finished}, B {b.finished}; failed: A {a.failed}, B {b.failed}",
                  soft_wrap=True)
    table = Table("measure", "A", "B", "B - A", "95% interval", "p", "test")
    for row in rows:
        d = row.difference
        interval = "-" if d.low is None or d.high is None else f"{d.low:+.3f} to {d.high:+.3f}"
        table.add_row(row.measure, f"{row.a:.3f}", f"{row.b:.3f}", f"{d.estimate:+.3f}", interval,
                      _p(d.p_value), d.test)
    console.print(table)
    console.print(f"A: {a.seconds:.2f} s, {a.games_per_second:.0f} games per second; "
                  f"B: {b.seconds:.2f} s, {b.games_per_second:.0f} games per second ({a.workers})")
