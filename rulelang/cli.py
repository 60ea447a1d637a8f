"""The command line: ``rulelang lint | explain | fmt | test | graph | code | simulate | compare | play | serve | web``.

Results go to stdout (machine-readable in the json formats); progress bars and load
errors go to stderr. Exit codes: 0 success or clean, 1 problems found, a ruleset that
cannot load or a simulated game that stopped on an error (a game cut by ``max_decisions``
is unfinished, not failed), a missing optional extra or an unusable Dask cluster, 2 usage
error (click's own), 130 a simulation stopped by Ctrl-C.

The commands that run games (simulate, compare, play) are in ``rulelang.commands``; this
module gathers every command into the group ``main``, the entry point.
"""
from __future__ import annotations

import difflib
import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulelang.commands.common import ROOT_HELP, command_root, declarations, is_terminal, load_game
from rulelang.commands.formatting import fmt
from rulelang.commands.play import play
from rulelang.commands.running import compare, simulate
from rulelang.diagnostics import REGISTRY, Diagnostic
from rulelang.limits import (
    IDLE_SECONDS,
    MAX_AGENT_ITERATIONS,
    MAX_AGENT_SECONDS,
    MAX_MEMORY_BYTES,
    READ_SECONDS,
    WRITE_SECONDS,
)
from rulelang.report import FORMATS, MAX_SHOWN

if TYPE_CHECKING:
    from rulelang.interpreter.sim.scenarios import FileResult


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
@click.option("--max-shown", type=click.IntRange(min=0), default=MAX_SHOWN, show_default=True, metavar="N",
              help="As text, show N problems of each file in full and count the rest by code (0: all).")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def lint(paths: tuple[str, ...], fmt: str, select: tuple[str, ...], ignore: tuple[str, ...],
         exit_zero: bool, max_shown: int, root: str | None = None) -> None:
    """Check rulesets (files, or directories searched for *.rules) and report every problem."""
    from rulelang.check.linter import collect_rulesets, sort_diagnostics
    from rulelang.loader import lint_file
    from rulelang.report import SourceCache, render
    select, ignore = parse_codes(select, "--select"), parse_codes(ignore, "--ignore")
    files, found = collect_rulesets(paths)
    for file in files:
        found.extend(lint_file(file, command_root(file, root)))
    found = filter_codes(sort_diagnostics(found), select, ignore)
    colour = fmt == "text" and is_terminal("stdout")
    click.echo(render(found, fmt, len(files), SourceCache(), colour, max_shown), nl=False, color=colour)
    sys.exit(0 if exit_zero or not found else 1)


@main.command()
@click.argument("code")
@click.option("--markdown", is_flag=True, help="Print the entry's Markdown source as it is written.")
def explain(code: str, markdown: bool) -> None:
    """Explain a diagnostic code (E101, W303...): what it means, an example and a fix.
    Rendered with styles on a terminal, as plain text when piped."""
    from rulelang.commands.markdown import render_markdown
    from rulelang.report import explain as entry
    code = code.strip().upper()
    if code not in REGISTRY:
        close = difflib.get_close_matches(code, list(REGISTRY), n=1)
        raise click.BadParameter(f"no diagnostic code {code}" + (f"; did you mean {close[0]}?" if close else ""),
                                 param_hint="CODE")
    if markdown:
        click.echo(entry(code), nl=False)
        return
    terminal = is_terminal("stdout")
    click.echo(render_markdown(entry(code), terminal=terminal), nl=False, color=terminal)


# ---------------------------------------------------------------- scenario tests

@main.command("test")
@click.argument("paths", nargs=-1, required=True)
@click.option("-k", "select", default=None, metavar="TEXT", help="Only the scenarios whose name holds TEXT.")
@click.option("-v", "--verbose", is_flag=True, help="Name every scenario with its result.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--root", type=click.Path(file_okay=False), default=None,
              help="The folder that files named by a test file must lie in. Default: the current folder "
                   "when the test file lies in it, else the test file's folder.")
def test(paths: tuple[str, ...], select: str | None, verbose: bool, fmt: str, root: str | None = None) -> None:
    """Run scenario tests: .tests files, rulesets (their .tests file) or directories."""
    from rulelang.interpreter.sim.scenarios import find_test_files
    files = find_test_files(paths)
    if not files:
        raise click.BadParameter("no .tests file there", param_hint="PATHS")
    results = [_run_test_file(file, command_root(file, root), select) for file in files]
    _print_test_results(results, verbose, fmt)
    failed = any(result.problems or result.failed for result in results)
    sys.exit(1 if failed else 0)


def _run_test_file(file: Path, root: str | None, select: str | None) -> FileResult:
    from rulelang.check.linter import internal_error
    from rulelang.interpreter.sim.scenarios import FileResult, run_file
    try:
        return run_file(file, root, select)
    except Exception as error:   # a bug of rulelang: reported as one, never as a traceback
        return FileResult(str(file), problems=[internal_error(error, str(file))])


def _print_test_results(results: Sequence[FileResult], verbose: bool, fmt: str) -> None:
    from rulelang.interpreter.sim.scenarios import diagnostics, summary
    from rulelang.report import SourceCache, format_text, to_dict
    if fmt == "json":
        data = {"files": [{"path": r.path, "problems": [to_dict(d) for d in r.problems],
                           "scenarios": [{"name": s.name, "line": s.span.line, "file": s.span.file,
                                          "players": s.players, "passed": s.passed,
                                          "failure": None if s.failure is None else to_dict(s.failure)}
                                         for s in r.results]} for r in results],
                "summary": summary(results)}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    colour = is_terminal("stdout")
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


# ---------------------------------------------------------------- graph

@main.command()
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["dot", "mermaid"]), default="dot", show_default=True)
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def graph(path: str, fmt: str, root: str | None = None) -> None:
    """Draw the graph of phases and procedures (Graphviz DOT or Mermaid)."""
    from rulelang.check.graph import phase_graph, to_dot, to_mermaid
    g = phase_graph(declarations(path, root))
    click.echo(to_dot(g) if fmt == "dot" else to_mermaid(g), nl=False)


# ---------------------------------------------------------------- code

@main.command()
@click.argument("path")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def code(path: str, players: int | None, root: str | None = None) -> None:
    """Print the Python code that the rules are compiled to, for reading."""
    click.echo(load_game(path, players, root).generated_code(), nl=False)


# ---------------------------------------------------------------- serve

Command = TypeVar("Command", bound=Callable[..., Any])
POSITIVE = click.FloatRange(min=0, min_open=True)


def finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``value``, refused when it is not a finite number (nan, inf)."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number", ctx, param)
    return value


LIMIT_OPTIONS = [   # the budgets and timeouts of serve and web (docs/protocol.md, "Limits")
    click.option("--agent-iterations", type=click.IntRange(min=1), default=MAX_AGENT_ITERATIONS,
                 show_default=True, help="An agent's iterations per decision at most ('agent_action')."),
    click.option("--agent-seconds", type=POSITIVE, callback=finite, default=MAX_AGENT_SECONDS, show_default=True,
                 help="An agent's seconds per decision at most (the first of the two bounds reached stops it)."),
    click.option("--memory-mib", type=click.IntRange(min=1), default=MAX_MEMORY_BYTES // 2**20, show_default=True,
                 help="MiB the states and games of every session may hold together (P014 beyond)."),
    click.option("--idle-timeout", type=POSITIVE, callback=finite, default=IDLE_SECONDS, show_default=True,
                 help="Seconds a connection may send nothing between two requests."),
    click.option("--read-timeout", type=POSITIVE, callback=finite, default=READ_SECONDS, show_default=True,
                 help="Seconds a request may take to arrive whole, from its first byte."),
    click.option("--write-timeout", type=POSITIVE, callback=finite, default=WRITE_SECONDS, show_default=True,
                 help="Seconds a client may take to read a reply."),
]


def limit_options(command: Command) -> Command:
    """``command`` with the options of LIMIT_OPTIONS."""
    for option in reversed(LIMIT_OPTIONS):
        command = option(command)
    return command


def server_limits(agent_iterations: int, agent_seconds: float, memory_mib: int, idle_timeout: float,
                  read_timeout: float, write_timeout: float) -> dict[str, Any]:
    """The budgets and timeouts of the options, as ``serve`` of server.py and web.py take them."""
    from rulelang.interpreter.hosts.budgets import AgentBudget, ConnectionTimeouts
    from rulelang.interpreter.hosts.memory import MemoryBudget
    return {"agent_budget": AgentBudget(agent_iterations, agent_seconds),
            "timeouts": ConnectionTimeouts(idle_timeout, read_timeout, write_timeout),
            "memory": MemoryBudget(limit=memory_mib * 2**20)}


@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Serve on this local TCP port (0: any free port); default: stdin/stdout.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (TCP only).")
@click.option("--root", type=click.Path(file_okay=False, exists=True), default=None,
              help="The folder that the rulesets clients load (and the files they name) must lie in. "
                   "Default: any file the server can read.")
@limit_options
def serve(port: int | None, host: str, root: str | None, **limits: Any) -> None:
    """Serve the JSON-lines protocol (docs/protocol.md) on stdin/stdout or a local TCP port
    (the timeouts are for TCP)."""
    from rulelang.interpreter.hosts.server import serve as run_server
    try:
        run_server(port, host, root, **server_limits(**limits))
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
@limit_options
def web(path: str, port: int, host: str, no_browser: bool, **limits: Any) -> None:
    """Play, edit and lint the rulesets under PATH (default: here) in a web page."""
    from rulelang.interpreter.hosts.web import serve as run_web
    try:
        run_web(path, host, port, open_browser=not no_browser, echo=click.echo, **server_limits(**limits))
    except OSError as error:   # the port is taken, the address cannot be used...
        click.echo(f"rulelang web: {error}", err=True)
        sys.exit(1)


@main.command()
def lsp() -> None:
    """Serve the Language Server Protocol over stdio, for editors (needs the 'lsp' extra)."""
    try:
        from rulelang.editor.server import serve_stdio
    except ImportError as missing:
        raise click.ClickException(f"{missing}: install the language server's libraries with "
                                   "pip install 'rulelang[lsp]'") from None
    serve_stdio()


main.add_command(simulate)
main.add_command(compare)
main.add_command(play)
main.add_command(fmt)


if __name__ == "__main__":  # pragma: no cover
    main()

