"""The command line: ``rulelang lint | graph | simulate | play``.

Results go to stdout (machine-readable in the json formats); progress bars and load
errors go to stderr. Exit codes: 0 success or clean, 1 problems found, a ruleset that
cannot load or a simulated game that stopped on an error (a game cut by ``max_decisions``
is unfinished, not failed), 2 usage error (click's own).
"""
from __future__ import annotations

import contextlib
import difflib
import json
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeAlias, TypeVar

import click

from .diagnostics import REGISTRY, Diagnostic, errors_in
from .errors import BUG_HINT, RulelangError, RulesetError, RulesRuntimeError
from .linter import collect_rulesets, internal_error, sort_diagnostics
from .loader import lint_file
from .report import FORMATS, JSON, SourceCache, render, render_text

if TYPE_CHECKING:
    from .ast import Decl
    from .boards import Space
    from .interpreter import Game, State
    from .interpreter.agents import RandomAgent
    from .interpreter.scenarios import FileResult
    from .interpreter.simulate import SimulationReport

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
    from .report import explain as entry
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
    from .interpreter.scenarios import find_test_files
    files = find_test_files(paths)
    if not files:
        raise click.BadParameter("no .tests file there", param_hint="PATHS")
    results = [_run_test_file(file, root, select) for file in files]
    _print_test_results(results, verbose, fmt)
    failed = any(result.problems or result.failed for result in results)
    sys.exit(1 if failed else 0)


def _run_test_file(file: Path, root: str | None, select: str | None) -> FileResult:
    from .interpreter.scenarios import FileResult, run_file
    try:
        return run_file(file, root, select)
    except Exception as error:   # a bug of rulelang: reported as one, never as a traceback
        return FileResult(str(file), problems=[internal_error(error, str(file))])


def _print_test_results(results: Sequence[FileResult], verbose: bool, fmt: str) -> None:
    from .interpreter.scenarios import diagnostics, summary
    from .report import format_text, to_dict
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
    from .loader import read_ruleset
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
    from .loader import load
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
    from .graph import phase_graph, to_dot, to_mermaid
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


# ---------------------------------------------------------------- simulate

@main.command()
@click.argument("path")
@click.option("--games", "-n", type=click.IntRange(min=0), default=100, show_default=True)
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--seed", "-s", type=click.IntRange(-SEED_LIMIT, SEED_LIMIT), default=0, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def simulate(path: str, games: int, players: int | None, seed: int, fmt: str, root: str | None = None) -> None:
    """Play many games between random players and report lengths, wins and scores per seat."""
    from rulelang.interpreter.simulate import simulate as run
    game = load_game(path, players, root)
    report = _with_progress(lambda progress: run(game, games, seed=seed, on_progress=progress), games)
    if fmt == "json":
        data = {"ruleset": path, "title": game.title, **report.to_dict()}
        click.echo(json.dumps(data, indent=2))
    else:
        _print_report(game, report)
    sys.exit(1 if report.failed else 0)


def _with_progress(job: Callable[[OnProgress | None], T], total: int) -> T:
    """Run ``job(on_progress)`` with a progress bar on stderr for long runs on a terminal."""
    from rich.console import Console
    from rich.progress import Progress
    console = Console(stderr=True)
    if total < PROGRESS_THRESHOLD or not console.is_terminal:
        return job(None)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("simulating", total=total)
        return job(lambda done, _: progress.update(task, completed=done))


def _print_report(game: Game, report: SimulationReport) -> None:
    from rich.console import Console
    from rich.table import Table
    console = Console(file=sys.stdout, highlight=False, markup=False)   # titles are text, not markup
    data = report.to_dict()
    console.print(f"{game.title}: {data['games']} games, {data['players']} players, seed {data['seed']}")
    console.print(f"finished {data['finished']}, unfinished {data['unfinished']}"
                  + (f" {data['errors']}" if data["errors"] else ""))
    if report.failed:
        console.print(f"{report.failed} games stopped on an error:")
    for error in data["error_details"]:
        where = f"{error['location']}: " if error["location"] else ""
        console.print(f"  {where}{error['code']} {error['message']} ({error['games']} games)", soft_wrap=True)
    console.print(f"mean length: {data['mean_decisions']:.2f} decisions; "
                  f"shared wins: {data['shared_wins']}")
    table = Table("seat", "wins", "win %", "mean score")
    finished = max(report.finished, 1)
    for seat in range(report.players):
        table.add_row(str(seat + 1), str(report.wins[seat]), f"{100 * report.wins[seat] / finished:.1f}",
                      f"{report.mean_score[seat]:.3f}")
    console.print(table)
    console.print(f"{report.seconds:.2f} s, {report.games_per_second:.0f} games per second")


# ---------------------------------------------------------------- play

@main.command()
@click.argument("path")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--seat", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="Your seat: 1 is the first player.")
@click.option("--seed", "-s", type=click.IntRange(-SEED_LIMIT, SEED_LIMIT), default=None,
              help="Default: a fresh random seed (printed).")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def play(path: str, players: int | None, seat: int, seed: int | None, root: str | None = None) -> None:
    """Play one seat in the terminal against random players; choose by number."""
    from rulelang.interpreter.agents import RandomAgent, derive_seed
    game = load_game(path, players, root)
    if seat > game.num_players:
        raise click.BadParameter(f"this game has {game.num_players} seats", param_hint="--seat")
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    click.echo(f"{game.title}: {game.num_players} players, you are player {seat} (seed {seed})")
    agents = {p: RandomAgent(derive_seed(seed, p)) for p in range(game.num_players)}
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:   # bytes that are not text read as a mistyped answer
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")
    try:
        _play_loop(game, game.new_initial_state(seed=seed), seat - 1, agents)
    except _LeftGame:
        click.echo("\nend of input: leaving the game")
    except RulelangError as error:   # the rules failed while running (or, E900, the engine did)
        _fail([error.diagnostic], path)
    except Exception as error:   # a bug in rulelang, reported as such
        _fail([Diagnostic("E900", f"rulelang failed while playing: {type(error).__name__}: {error}",
                          hint=BUG_HINT).with_file(path)], path)


class _LeftGame(Exception):
    """The person closed the input."""


def _play_loop(game: Game, state: State, me: int, agents: Mapping[int, RandomAgent]) -> None:
    from rulelang.interpreter.state import CHANCE
    view = ObservationView(game)
    while not state.is_terminal():
        players = state.current_players()
        if me in players:
            click.echo(view.render(state.observation(me)))
            click.echo(f"{state.prompt(me)}:")
            state.apply_action(ask_action(state.legal_actions(me)), player=me)
        elif players[0] == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(agents[0].rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(agents[players[0]].choose(state, players[0]), player=players[0])
    click.echo(view.render(state.observation(me)))


MAX_ANSWER = 1000   # characters of one answer read by ``play``; the rest of a longer line is ignored


def ask_action(actions: Sequence[T]) -> T:
    """Ask for an action by number (or its exact label) until the answer is valid; any other
    answer (not a number, out of range, empty, unreadable) asks again; end of input raises
    _LeftGame."""
    if not actions:
        raise RulesRuntimeError(Diagnostic("E604", "this choice offers no option"))
    for i, action in enumerate(actions, 1):
        click.echo(f"  {i:>3}. {action}")
    while True:
        click.echo(f"your choice [1-{len(actions)}]: ", nl=False)
        line = _read_line(MAX_ANSWER + 1)
        if not line:
            raise _LeftGame()
        answer = line.strip()
        if len(line) > MAX_ANSWER:   # an overlong line: drop the rest, ask again
            answer = ""
            while line and not line.endswith("\n"):
                line = _read_line(MAX_ANSWER)
        number = _whole_number(answer)
        if number is not None and 1 <= number <= len(actions):
            return actions[number - 1]
        by_label = [a for a in actions if str(a) == answer]
        if len(by_label) == 1:
            return by_label[0]
        click.echo(f"type a number from 1 to {len(actions)}")


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


class ObservationView:
    """Text pictures of observations (what one player may see) of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.log_shown = 0

    def render(self, obs: Mapping[str, JSON]) -> str:
        """The observation as readable lines: header, new log lines, values, zones, players, boards."""
        me = _int(obs["player"])
        log = _list(obs.get("log"))
        lines = [self._header(obs)]
        lines += [f"  | {entry}" for entry in log[self.log_shown:]]
        self.log_shown = len(log)
        lines += [f"  {k} = {self.value(v)}" for k, v in _mapping(obs.get("globals")).items()]
        lines += [f"  {k}: {self.value(v)}" for k, v in _mapping(obs.get("zones")).items()]
        for index, view in enumerate(_list(obs.get("players"))):
            lines.append(f"  {self._who(index, me)}: "
                         + (", ".join(f"{k} {self.value(v)}" for k, v in _mapping(view).items()) or "-"))
        lines += self._boards(_mapping(obs.get("spaces")))
        return "\n".join(lines)

    def _header(self, obs: Mapping[str, JSON]) -> str:
        me = _int(obs["player"])
        if obs.get("terminal"):
            scores = ", ".join(f"player {i + 1}: {s:g}" for i, s in enumerate(_list(obs.get("returns"))))
            winners = ", ".join(self._who(_int(w), me) for w in _list(obs.get("winners"))) or "nobody"
            return f"=== game over; winners: {winners}; scores: {scores}"
        return f"=== your turn (player {me + 1})"

    @staticmethod
    def _who(index: int, me: int) -> str:
        from .interpreter.values import who
        return who(index) + (" (you)" if index == me else "")

    def value(self, v: JSON, compact: bool = False) -> str:
        """One observed value as text (``compact`` for board cells)."""
        if v is None or isinstance(v, bool):
            return {None: "." if compact else "none", True: "true", False: "false"}[v]
        if isinstance(v, (int, float, str)):
            return str(v)
        if isinstance(v, list):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        return self._tagged(v, compact)

    def _tagged(self, v: Mapping[str, JSON], compact: bool) -> str:
        cat = self.game.catalog
        if "player" in v:
            seat = _int(v["player"]) + 1
            return f"P{seat}" if compact else f"player {seat}"
        if "label" in v:
            return str(v["label"])
        if "enum" in v:
            return str(v["value"])
        if "space" in v:
            space = v["space"]   # a name (format 2), or an index (format 1)
            return space if isinstance(space, str) else cat.boards[str(v["board"])].spaces[_int(space)].name
        if "zone" in v:
            return str(cat.zone_refs[_int(v["zone"])])
        if "count" in v:
            return f"({v['count']} hidden)"
        if "map" in v:
            pairs = [_list(pair) for pair in _list(v["map"])]
            return "{" + ", ".join(f"{self.value(a)}: {self.value(b)}" for a, b in pairs) + "}"
        return str(v.get("name", v))

    def _boards(self, spaces: Mapping[str, JSON]) -> list[str]:
        cat = self.game.catalog
        lines = []
        for name, board in cat.boards.items():
            offset = cat.space_offset[name]
            for var, values in spaces.items():
                cells = _list(values)[offset: offset + len(board.spaces)]
                lines.append(f"  {name} ({var}):")
                lines += ["    " + row for row in self._picture(board.spaces, cells)]
        return lines

    def _picture(self, board_spaces: Sequence[Space], cells: Sequence[JSON]) -> list[str]:
        """A grid board as rows (north first) of ``space=value``; other boards as the spaces that hold something."""
        texts = [f"{s.name}={self.value(c, compact=True)}" for s, c in zip(board_spaces, cells, strict=True)]
        positions = [p for p in map(_grid_position, board_spaces) if p is not None]
        if len(positions) < len(board_spaces):
            return [t for t, c in zip(texts, cells, strict=True) if c is not None] or ["(all empty)"]
        width = max(len(t) for t in texts) + 2
        rows: dict[int, dict[int, str]] = {}
        for (x, y), text in zip(positions, texts, strict=True):
            rows.setdefault(y, {})[x] = text
        xs = sorted({x for x, _ in positions})
        return ["".join(rows[y].get(x, "").ljust(width) for x in xs).rstrip() for y in sorted(rows)]


def _grid_position(space: Space) -> tuple[int, int] | None:
    """The (x, y) of a space of a square board, None for other boards."""
    x, y = space.attributes.get("x"), space.attributes.get("y")
    return (x, y) if isinstance(x, int) and isinstance(y, int) else None


def _int(value: JSON) -> int:
    """A whole number of an observation (a seat, an index)."""
    if not isinstance(value, int):
        raise TypeError(f"an observation holds {value!r} where a whole number belongs")
    return value


def _list(value: JSON) -> list[JSON]:
    """A list of an observation; an absent one is empty."""
    return value if isinstance(value, list) else []


def _mapping(value: JSON) -> Mapping[str, JSON]:
    """An object of an observation; an absent one is empty."""
    return value if isinstance(value, dict) else {}


if __name__ == "__main__":  # pragma: no cover
    main()
