"""The command line: ``rulelang lint | explain | test | graph | code | simulate | compare | play | serve | web``.

Results go to stdout (machine-readable in the json formats); progress bars and load
errors go to stderr. Exit codes: 0 success or clean, 1 problems found, a ruleset that
cannot load or a simulated game that stopped on an error (a game cut by ``max_decisions``
is unfinished, not failed), a missing optional extra or an unusable Dask cluster, 2 usage
error (click's own), 130 a simulation stopped by Ctrl-C.
"""
from __future__ import annotations

import contextlib
import difflib
import json
import os
import random
import secrets
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar

import click

from rulelang.check.linter import collect_rulesets, internal_error, sort_diagnostics
from rulelang.diagnostics import REGISTRY, Diagnostic, errors_in
from rulelang.errors import BUG_HINT, RulelangError, RulesetError, RulesRuntimeError
from rulelang.loader import lint_file
from rulelang.report import FORMATS, SourceCache, render, render_text

if TYPE_CHECKING:
    from rich.console import Console

    from rulelang.ast import Decl
    from rulelang.interpreter import Game, State
    from rulelang.interpreter.agents import Agent, AgentSpec
    from rulelang.interpreter.sim.scenarios import FileResult
    from rulelang.interpreter.sim.simulate import SimulationReport

PROGRESS_THRESHOLD = 100
SEED_LIMIT = 2**63 - 1   # seeds of simulate and play lie in -SEED_LIMIT..SEED_LIMIT
ROOT_HELP = ("The folder that files named by the ruleset (extends, load_board) must lie in. "
             "Default: the ruleset's folder.")
T = TypeVar("T")
OnProgress: TypeAlias = Callable[[int, int], None]   # (games done, games in all)


def _is_terminal(stream_name: str) -> bool:
    stream = getattr(sys, stream_name)
    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """rulelang: lint, draw, simulate and play rules-as-data tabletop games."""


# ---------------------------------------------------------------- lint

def parse_codes(values: Iterable[str], option: str) -> tuple[str, ...]:
    """Codes or code prefixes from repeated, comma-separated options; BadParameter if unknown."""
    codes = tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())
    for code in codes:
        if code != "ALL" and not any(known.startswith(code) for known in REGISTRY):
            raise click.BadParameter(f"no diagnostic code starts with '{code}'", param_hint=option)
    return codes


def _matches(code: str, selectors: Iterable[str]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def filter_codes(diagnostics: Iterable[Diagnostic], select: Sequence[str],
                 ignore: Sequence[str]) -> list[Diagnostic]:
    """The diagnostics whose code is selected (all when ``select`` is empty) and not ignored."""
    return [d for d in diagnostics
            if (not select or _matches(d.code, select)) and not _matches(d.code, ignore)]


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="How to print the problems.")
@click.option("--select", multiple=True, metavar="CODES", help="Only these codes or prefixes (E1,W303).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Leave out these codes or prefixes.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found.")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def lint(paths: tuple[str, ...], fmt: str, select: tuple[str, ...], ignore: tuple[str, ...],
         exit_zero: bool, root: str | None = None) -> None:
    """Check rulesets (files, or directories searched for *.rules) and report every problem."""
    select, ignore = parse_codes(select, "--select"), parse_codes(ignore, "--ignore")
    files, found = collect_rulesets(paths)
    for file in files:
        found.extend(lint_file(file, root))
    found = filter_codes(sort_diagnostics(found), select, ignore)
    colour = fmt == "text" and _is_terminal("stdout")
    click.echo(render(found, fmt, len(files), SourceCache(), colour), nl=False, color=colour)
    sys.exit(0 if exit_zero or not found else 1)


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Explain a diagnostic code (E101, W303...): what it means, an example and a fix."""
    from rulelang.report import explain as entry
    code = code.strip().upper()
    if code not in REGISTRY:
        close = difflib.get_close_matches(code, list(REGISTRY), n=1)
        raise click.BadParameter(f"no diagnostic code {code}" + (f"; did you mean {close[0]}?" if close else ""),
                                 param_hint="CODE")
    click.echo(entry(code), nl=False)


# ---------------------------------------------------------------- scenario tests

@main.command("test")
@click.argument("paths", nargs=-1, required=True)
@click.option("-k", "select", default=None, metavar="TEXT", help="Only the scenarios whose name holds TEXT.")
@click.option("-v", "--verbose", is_flag=True, help="Name every scenario with its result.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--root", type=click.Path(file_okay=False), default=None,
              help="The folder that files named by a test file must lie in. Default: the test file's folder.")
def test(paths: tuple[str, ...], select: str | None, verbose: bool, fmt: str, root: str | None = None) -> None:
    """Run scenario tests: .tests files, rulesets (their .tests file) or directories."""
    from rulelang.interpreter.sim.scenarios import find_test_files
    files = find_test_files(paths)
    if not files:
        raise click.BadParameter("no .tests file there", param_hint="PATHS")
    results = [_run_test_file(file, root, select) for file in files]
    _print_test_results(results, verbose, fmt)
    failed = any(result.problems or result.failed for result in results)
    sys.exit(1 if failed else 0)


def _run_test_file(file: Path, root: str | None, select: str | None) -> FileResult:
    from rulelang.interpreter.sim.scenarios import FileResult, run_file
    try:
        return run_file(file, root, select)
    except Exception as error:   # a bug of rulelang: reported as one, never as a traceback
        return FileResult(str(file), problems=[internal_error(error, str(file))])


def _print_test_results(results: Sequence[FileResult], verbose: bool, fmt: str) -> None:
    from rulelang.interpreter.sim.scenarios import diagnostics, summary
    from rulelang.report import format_text, to_dict
    if fmt == "json":
        data = {"files": [{"path": r.path, "problems": [to_dict(d) for d in r.problems],
                           "scenarios": [{"name": s.name, "line": s.span.line, "file": s.span.file,
                                          "players": s.players, "passed": s.passed,
                                          "failure": None if s.failure is None else to_dict(s.failure)}
                                         for s in r.results]} for r in results],
                "summary": summary(results)}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    colour = _is_terminal("stdout")
    sources = SourceCache()
    if verbose:
        for result in results:
            for scenario in result.results:
                mark = "ok  " if scenario.passed else "FAIL"
                click.echo(f"{mark} {scenario.span.file}:{scenario.span.line} {scenario.name}")
    for _, problem, name in diagnostics(results):
        shown = problem if name is None else replace(problem, message=f"scenario {name!r}: {problem.message}")
        click.echo(format_text(shown, sources, colour), color=colour)
    click.echo(summary(results))


# ---------------------------------------------------------------- loading for the other commands

def _fail(diagnostics: Iterable[Diagnostic], path: str) -> NoReturn:
    """Print diagnostics as lint does, to stderr, and exit 1."""
    colour = _is_terminal("stderr")
    text = render_text(sort_diagnostics(diagnostics, path), 1, SourceCache(), colour)
    click.echo(text, nl=False, err=True, color=colour)
    sys.exit(1)


def _declarations(path: str, root: str | None = None) -> list[Decl]:
    """The merged declarations of ``path``, or diagnostics on stderr and exit 1."""
    from rulelang.loader import read_ruleset
    problems = errors_in(lint_file(Path(path), root))
    if problems:
        _fail(problems, path)
    try:
        return read_ruleset(Path(path), root=root)[0]
    except RulesetError as error:
        _fail(error.diagnostics, path)
    except Exception as error:
        _fail([internal_error(error, path)], path)


def load_game(path: str, players: int | None, root: str | None = None) -> Game:
    """The Game of ``path``, or diagnostics on stderr and exit 1."""
    from rulelang.loader import load
    _declarations(path, root)
    try:
        return load(Path(path), players=players, root=root)
    except RulesetError as error:
        _fail(error.diagnostics, path)
    except Exception as error:
        _fail([internal_error(error, path)], path)


# ---------------------------------------------------------------- graph

@main.command()
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["dot", "mermaid"]), default="dot", show_default=True)
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def graph(path: str, fmt: str, root: str | None = None) -> None:
    """Draw the graph of phases and procedures (Graphviz DOT or Mermaid)."""
    from rulelang.check.graph import phase_graph, to_dot, to_mermaid
    g = phase_graph(_declarations(path, root))
    click.echo(to_dot(g) if fmt == "dot" else to_mermaid(g), nl=False)


# ---------------------------------------------------------------- code

@main.command()
@click.argument("path")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def code(path: str, players: int | None, root: str | None = None) -> None:
    """Print the Python code that the rules are compiled to, for reading."""
    click.echo(load_game(path, players, root).generated_code(), nl=False)


# ---------------------------------------------------------------- simulate and compare

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
                                                   jobs=workers, scheduler=scheduler), games, label)
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


@main.command()
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


def _seats_csv(report: SimulationReport) -> str:
    """One row per seat: its agent, wins and win rate with the 95% interval, its scores."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seat", "agent", "games", "finished", "wins", "sole_wins", "win_rate", "win_low", "win_high",
                     *(f"score_{k}" for k in CSV_SCORE)])
    for row in report.seat_rows():
        writer.writerow([row["seat"], row["agent"], report.games, report.finished, row["wins"], row["sole_wins"],
                         row["win_rate"], *row["win_interval"], *(row["score"][k] for k in CSV_SCORE)])
    return out.getvalue()


def _with_progress(job: Callable[[OnProgress | None], T], total: int, label: str = "simulating") -> T:
    """Run ``job(on_progress)`` with a progress bar and the time left on stderr, for long runs
    on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    console = Console(stderr=True)
    if total < PROGRESS_THRESHOLD or not console.is_terminal:
        return job(None)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games, left"),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        return job(lambda done, _: progress.update(task, completed=done))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}" if value >= 0.001 else "<0.001"


def _print_report(game: Game, report: SimulationReport) -> None:
    from rich.console import Console
    from rich.table import Table
    console = Console(file=sys.stdout, highlight=False, markup=False)   # titles are text, not markup
    data = report.to_dict()
    console.print(f"{game.title}: {data['games']} games, {data['players']} players, seed {data['seed']}; "
                  f"agents {', '.join(report.agents)}", soft_wrap=True)
    console.print(f"finished {data['finished']}, unfinished {data['unfinished']}"
                  + (f" {data['errors']}" if data["errors"] else ""))
    if report.failed:
        console.print(f"{report.failed} games stopped on an error:")
    for error in data["error_details"]:
        where = f"{error['location']}: " if error["location"] else ""
        console.print(f"  {where}{error['code']} {error['message']} ({error['games']} games)", soft_wrap=True)
    length = data["length"]
    console.print(f"length: mean {length['mean']:.2f} decisions (sd {length['sd']:.2f}; min {length['min']:g}, "
                  f"median {length['median']:g}, p90 {length['p90']:g}, max {length['max']:g}); "
                  f"draws: {report.draws}; shared wins: {data['shared_wins']}", soft_wrap=True)
    table = Table("seat", "agent", "wins", "win %", "95% interval", "mean score", "median score")
    for row in data["seats"]:
        low, high = row["win_interval"]
        table.add_row(str(row["seat"]), row["agent"], str(row["wins"]), f"{100 * row['win_rate']:.1f}",
                      f"{100 * low:.1f}-{100 * high:.1f}", f"{row['score']['mean']:.3f}", f"{row['score']['median']:g}")
    console.print(table)
    first, balance = data["first_player"], data["seat_balance"]
    if first["decided_games"]:
        low, high = first["interval"]
        console.print(f"first player: {_pct(first['share'])} of the {first['decided_games']} games won by one "
                      f"player (95% {_pct(low)}-{_pct(high)}); equal seats give {_pct(first['expected_share'])}: "
                      f"p = {_p(first['p_value'])} (exact binomial)", soft_wrap=True)
        console.print(f"seat balance: chi-square {balance['statistic']:.2f} with {balance['df']} df, "
                      f"p = {_p(balance['p_value'])}")
    console.print(f"{report.seconds:.2f} s, {report.games_per_second:.0f} games per second ({report.workers})")


@main.command()
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
    wide = None if _is_terminal("stdout") else 120   # rows of one line in files and pipes
    console = Console(file=sys.stdout, highlight=False, markup=False, width=wide)
    console.print(f"A: {_short(sides[0])}; B: {_short(sides[1])}", soft_wrap=True)
    console.print(f"{a.games} games each, {a.players} players, the same seeds from seed {a.seed}; finished: "
                  f"A {a.finished}, B {b.finished}; failed: A {a.failed}, B {b.failed}", soft_wrap=True)
    table = Table("measure", "A", "B", "B - A", "95% interval", "p", "test")
    for row in rows:
        d = row.difference
        interval = "-" if d.low is None or d.high is None else f"{d.low:+.3f} to {d.high:+.3f}"
        table.add_row(row.measure, f"{row.a:.3f}", f"{row.b:.3f}", f"{d.estimate:+.3f}", interval,
                      _p(d.p_value), d.test)
    console.print(table)
    console.print(f"A: {a.seconds:.2f} s, {a.games_per_second:.0f} games per second; "
                  f"B: {b.seconds:.2f} s, {b.games_per_second:.0f} games per second ({a.workers})")


# ---------------------------------------------------------------- serve

@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Serve on this local TCP port (0: any free port); default: stdin/stdout.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (TCP only).")
@click.option("--root", type=click.Path(file_okay=False, exists=True), default=None,
              help="The folder that the rulesets clients load (and the files they name) must lie in. "
                   "Default: any file the server can read.")
def serve(port: int | None, host: str, root: str | None) -> None:
    """Serve the JSON-lines protocol (docs/protocol.md) on stdin/stdout or a local TCP port."""
    from rulelang.interpreter.hosts.server import serve as run_server
    try:
        run_server(port, host, root)
    except OSError as error:   # the port is taken, the address cannot be used...
        click.echo(f"rulelang serve: {error}", err=True)
        sys.exit(1)


# ---------------------------------------------------------------- web

@main.command()
@click.argument("path", type=click.Path(file_okay=False, exists=True), default=".")
@click.option("--port", type=click.IntRange(0, 65535), default=7371, show_default=True,
              help="The local TCP port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
def web(path: str, port: int, host: str, no_browser: bool) -> None:
    """Play, edit and lint the rulesets under PATH (default: here) in a web page."""
    from rulelang.interpreter.hosts.web import serve as run_web
    try:
        run_web(path, host, port, open_browser=not no_browser, echo=click.echo)
    except OSError as error:   # the port is taken, the address cannot be used...
        click.echo(f"rulelang web: {error}", err=True)
        sys.exit(1)


# ---------------------------------------------------------------- play

@main.command()
@click.argument("path")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--seat", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="Your seat: 1 is the first player.")
@click.option("--seed", "-s", type=click.IntRange(-SEED_LIMIT, SEED_LIMIT), default=None,
              help="Default: a fresh random seed (printed).")
@click.option("--bots", default="random", show_default=True, metavar="SPECS",
              help="The agents of the other seats: one for all, or one per seat (yours is ignored); "
                   "random, greedy, greedy:FUNCTION, mcts:N or mcts:Ns (docs/agents.md).")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def play(path: str, players: int | None, seat: int, seed: int | None, bots: str, root: str | None = None) -> None:
    """Play one seat in the terminal against agents; choose by number, 'u' takes back your last choice."""
    from rich.console import Console

    from rulelang.interpreter.agents import AgentSpecError, derive_seed, parse_agents
    game = load_game(path, players, root)
    if seat > game.num_players:
        raise click.BadParameter(f"this game has {game.num_players} seats", param_hint="--seat")
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    try:
        specs = parse_agents(bots, game.num_players)
        agents = {p: spec.build(game, derive_seed(seed, p)) for p, spec in enumerate(specs) if p != seat - 1}
    except AgentSpecError as error:
        raise click.BadParameter(error.diagnostic.message, param_hint="--bots") from None
    click.echo(f"{game.title}: {game.num_players} players, you are player {seat} (seed {seed})")
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:   # bytes that are not text read as a mistyped answer
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")
    table = _Table(game, seat - 1, agents, random.Random(derive_seed(seed, -1)), Console(highlight=False))
    try:
        table.play(game.new_initial_state(seed=seed))
    except _LeftGame:
        click.echo("\nend of input: leaving the game")
    except RulelangError as error:   # the rules failed while running (or, E900, the engine did)
        _fail([error.diagnostic], path)
    except Exception as error:   # a bug in rulelang, reported as such
        _fail([Diagnostic("E900", f"rulelang failed while playing: {type(error).__name__}: {error}",
                          hint=BUG_HINT).with_file(path)], path)


class _LeftGame(Exception):
    """The person closed the input."""


class _Undo:
    """The answer that takes back the person's last choice."""


UNDO = _Undo()


class _Table:
    """One person at a game against agents: the seat's view, the question, undo."""

    def __init__(self, game: Game, me: int, agents: Mapping[int, Agent], chance: random.Random,
                 console: Console) -> None:
        from rulelang.interpreter.hosts.terminal_view import SeatView
        self.me, self.agents, self.chance, self.console = me, agents, chance, console
        self.view = SeatView(game)
        # Before each of the person's choices: the state, and the state of every generator
        # that chance and the agents draw from, so that a choice taken back and made again
        # gives the same game.
        self.earlier: list[tuple[State, list[tuple[Any, ...]]]] = []
        agent_generators = (getattr(agent, "rng", None) for agent in agents.values())
        self.generators = [chance, *(g for g in agent_generators if isinstance(g, random.Random))]

    def play(self, state: State) -> None:
        """Play ``state`` to its end, showing the seat's view before each of its choices."""
        from rulelang.interpreter.sim.play import play_step
        while not state.is_terminal():
            if self.me in state.current_players():
                state = self._ask(state)
            else:   # a bot's turn, or chance's
                play_step(state, self.agents, self.chance)
        self.console.print(self.view.render(state, self.me))

    def _ask(self, state: State) -> State:
        """The state after the person's answer: one choice applied, or the state before the last one."""
        self.console.print(self.view.render(state, self.me))
        answer = ask_action(state.legal_actions(self.me), can_undo=bool(self.earlier))
        if isinstance(answer, _Undo):
            click.echo("your last choice is taken back")
            before, drawn = self.earlier.pop()
            for generator, saved in zip(self.generators, drawn, strict=True):
                generator.setstate(saved)
            return before
        self.earlier.append((state.clone(), [g.getstate() for g in self.generators]))
        state.apply_action(answer, player=self.me)
        return state


MAX_ANSWER = 1000   # characters of one answer read by ``play``; the rest of a longer line is ignored


def ask_action(actions: Sequence[T], can_undo: bool = False) -> T | _Undo:
    """Ask for an action by its number in the view (or its exact label) until the answer is
    valid, or ``u`` (undo) when ``can_undo``; any other answer (not a number, out of range,
    empty, unreadable) asks again; end of input raises _LeftGame."""
    if not actions:
        raise RulesRuntimeError(Diagnostic("E604", "this choice offers no option"))
    hint = f"1-{len(actions)}" + (", u: undo" if can_undo else "")
    while True:
        click.echo(f"your choice [{hint}]: ", nl=False)
        line = _read_line(MAX_ANSWER + 1)
        if not line:
            raise _LeftGame()
        answer = line.strip()
        if len(line) > MAX_ANSWER:   # an overlong line: drop the rest, ask again
            answer = ""
            while line and not line.endswith("\n"):
                line = _read_line(MAX_ANSWER)
        if answer.lower() in ("u", "undo"):
            if can_undo:
                return UNDO
            click.echo("nothing to take back yet")
            continue
        number = _whole_number(answer)
        if number is not None and 1 <= number <= len(actions):
            return actions[number - 1]
        by_label = [a for a in actions if str(a) == answer]
        if len(by_label) == 1:
            return by_label[0]
        click.echo(f"type a number from 1 to {len(actions)}" + (", or u to take back your choice" if can_undo else ""))


def _read_line(limit: int) -> str:
    """At most ``limit`` characters of the next line of stdin; "" at its end. Bytes that are
    not text read as an empty answer."""
    try:
        return sys.stdin.readline(limit)
    except UnicodeDecodeError:
        return "\n"
    except (OSError, ValueError):   # a closed or broken stream: the end of input
        return ""


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (at most 18 of them), else None."""
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


if __name__ == "__main__":  # pragma: no cover
    main()
